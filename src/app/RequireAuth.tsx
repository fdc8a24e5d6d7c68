import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { authAtom } from '../state/auth';

/**
 * Spec §2 login wrapper: account, settings, studio, stats, following and geo-blocking need a token and a
 * user id; without them the viewer goes to /login (which may send them back to `from` afterwards).
 */
export function RequireAuth({ children, guest }: { children: ReactNode; guest?: ReactNode }) {
  const auth = useAtomValue(authAtom);
  const location = useLocation();
  if (auth?.accessToken && auth.userId) return children;
  if (guest !== undefined) return guest;
  return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
}

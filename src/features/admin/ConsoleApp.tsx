import { type ComponentType, lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { adminMessages } from '../../contract/admin';
import { Link } from '../../ui/Link';
import { Spinner } from '../../ui/Spinner';
import { StateMessage } from '../../ui/StateMessage';
import { ConsoleLayout } from './Layout';
import { Page } from './parts';
import {
  ConsoleContext,
  rememberConsolePath,
  useConsole,
  useConsoleValue,
  useEndSession,
  useOperatorSession,
} from './session';
import './admin.css';

// Each screen is its own chunk: the first download of the console is the frame and the session, and hls.js
// comes only with the first video played.
const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));
const SignInScreen = screen(() => import('./SignInScreen'), 'SignInScreen');
const DashboardScreen = screen(() => import('./DashboardScreen'), 'DashboardScreen');
const ReviewScreen = screen(() => import('./ReviewScreen'), 'ReviewScreen');
const ReportsScreen = screen(() => import('./ReportsScreen'), 'ReportsScreen');
const IdentityScreen = screen(() => import('./IdentityScreen'), 'IdentityScreen');
const AccountsScreen = screen(() => import('./AccountsScreen'), 'AccountsScreen');
const AccountScreen = screen(() => import('./AccountScreen'), 'AccountScreen');
const AuditScreen = screen(() => import('./AuditScreen'), 'AuditScreen');
const OperatorsScreen = screen(() => import('./OperatorsScreen'), 'OperatorsScreen');

/**
 * Lets through only an operator with a session, handing it to every screen below. The session's end at its
 * latest moment (12 hours) is a timer here; the server's 30 idle minutes show at the first refused call.
 */
function ConsoleGate() {
  const location = useLocation();
  const session = useOperatorSession();
  const value = useConsoleValue(session);
  const end = useEndSession();
  const expiresAt = session ? Date.parse(session.expires_at) : 0;

  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(() => end('ended'), Math.min(Math.max(expiresAt - Date.now(), 0), 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [expiresAt, end]);

  if (!value) {
    rememberConsolePath(`${location.pathname}${location.search}`);
    return <Navigate to="/admin/sign-in" replace />;
  }
  return (
    <ConsoleContext.Provider value={value}>
      <ConsoleLayout />
    </ConsoleContext.Provider>
  );
}

/** Operators management: the server refuses moderators, and the console does not offer it to them. */
function AdminOnly({ children }: { children: ReactNode }) {
  const { isAdmin } = useConsole();
  if (isAdmin) return children;
  return (
    <Page title="Operators">
      <StateMessage title="Admins only" text={adminMessages.adminOnly} className="admin-state" />
    </Page>
  );
}

function ConsoleNotFound() {
  return (
    <Page title="Not found">
      <StateMessage title="This page does not exist" className="admin-state">
        <Link to="/admin" className="btn btn-primary">
          Go to the dashboard
        </Link>
      </StateMessage>
    </Page>
  );
}

/**
 * The console's routes, relative to /admin. Route objects through useRoutes, as the app's own router does:
 * <Routes>/<Route> would add their code to the vendor chunk every viewer downloads on `/`.
 */
const consoleRoutes: RouteObject[] = [
  {
    path: 'sign-in',
    element: (
      <Suspense fallback={<Spinner fill />}>
        <SignInScreen />
      </Suspense>
    ),
  },
  {
    element: <ConsoleGate />,
    children: [
      { index: true, element: <DashboardScreen /> },
      { path: 'review', element: <ReviewScreen /> },
      { path: 'reports', element: <ReportsScreen /> },
      { path: 'identity', element: <IdentityScreen /> },
      { path: 'accounts', element: <AccountsScreen /> },
      { path: 'accounts/:id', element: <AccountScreen /> },
      { path: 'audit', element: <AuditScreen /> },
      {
        path: 'operators',
        element: (
          <AdminOnly>
            <OperatorsScreen />
          </AdminOnly>
        ),
      },
      { path: '*', element: <ConsoleNotFound /> },
    ],
  },
];

/** The console's screens under /admin (src/features/admin/AdminApp.tsx loads this). */
export function ConsoleApp() {
  return useRoutes(consoleRoutes);
}

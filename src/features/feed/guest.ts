import { useAtomValue } from 'jotai';
import { authAtom } from '../../state/auth';

/** Guests like by guest id, need an email to report, and are asked to sign up to rate or follow. */
export function useIsGuest(): boolean {
  return useAtomValue(authAtom) === null;
}

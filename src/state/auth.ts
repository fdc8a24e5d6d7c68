import { atom } from 'jotai';
import type { UserType } from '../contract';
import { appStore } from './store';

export interface Auth {
  accessToken: string;
  userId: number;
  userType: UserType;
}

const KEY = 'shortcams.auth';

/**
 * Spec §3: token and user id live in localStorage with "remember me", else in sessionStorage (gone with the
 * tab). Synchronous on purpose: the very first request must already carry the right identity.
 */
export function readAuth(): Auth | null {
  for (const storage of [localStorage, sessionStorage]) {
    try {
      const raw = storage.getItem(KEY);
      if (!raw) continue;
      const parsed = JSON.parse(raw) as Partial<Auth>;
      if (typeof parsed.accessToken === 'string' && typeof parsed.userId === 'number' && parsed.userType)
        return parsed as Auth;
    } catch {
      // Unreadable storage or a corrupt entry: treat as logged out.
    }
  }
  return null;
}

export const authAtom = atom<Auth | null>(readAuth());

export function saveAuth(auth: Auth, remember: boolean) {
  clearAuth();
  (remember ? localStorage : sessionStorage).setItem(KEY, JSON.stringify(auth));
}

/**
 * The one way in, for the login form, a mailed link and sign-up alike: stores the token (spec §4: remember me
 * in localStorage, else sessionStorage, gone with the tab) and sets the atom every screen reads.
 */
export function signIn(
  answer: { access_token: string; user: { id: number; type: UserType } },
  remember: boolean,
) {
  const auth: Auth = { accessToken: answer.access_token, userId: answer.user.id, userType: answer.user.type };
  saveAuth(auth, remember);
  appStore.set(authAtom, auth);
  return auth;
}

/**
 * Where to go once signed in: the page the login wrapper or an expired session came from (router state
 * `from`, or `?next=` after a full reload), only if it is a path of this app; else the account home.
 */
export function returnPath(state: unknown, search: string): string {
  const fromState = (state as { from?: unknown } | null)?.from;
  const candidate = typeof fromState === 'string' ? fromState : new URLSearchParams(search).get('next');
  // A path of this origin only: '//evil.example' and 'https://…' would leave the app.
  if (candidate && /^\/(?![/\\])/.test(candidate) && !candidate.startsWith('/login')) return candidate;
  return '/account';
}

export function clearAuth() {
  localStorage.removeItem(KEY);
  sessionStorage.removeItem(KEY);
}

/** Spec §5: logout clears the stored identity and reloads, so no screen keeps a user's data. */
export function logout() {
  clearAuth();
  window.location.assign('/');
}

/**
 * The server no longer knows the token (expired, revoked by a password change): forget it without a reload,
 * so the screen on show goes on as a guest's and the login wrapper takes over where it must.
 */
export function expireSession() {
  clearAuth();
  appStore.set(authAtom, null);
}

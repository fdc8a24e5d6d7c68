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

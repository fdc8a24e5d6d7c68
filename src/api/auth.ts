// Sign-up, sign-in, mailed links, recovery and logout: the calls of server/routes/auth.ts.
import {
  authMessageResponseSchema,
  checkUsernameResponseSchema,
  type LoginInput,
  loginAnswerSchema,
  loginTokenAnswerSchema,
  type RegisterInput,
  registerResponseSchema,
} from '../contract';
import { logout } from '../state/auth';
import { apiFetch } from './http';

/** POST /v1/check-username: `{available, message}` ('Username is taken.' or the server's own words). */
export function checkUsername(username: string, signal?: AbortSignal) {
  return apiFetch('/v1/check-username', {
    method: 'POST',
    body: { username },
    schema: checkUsernameResponseSchema,
    signal,
    // An answer that never comes must not hold the stepper's Continue forever.
    timeoutMs: 15_000,
  });
}

/** POST /v1/register: 201 with the new account's id and type; it does not sign in (a mail verifies). */
export function register(payload: RegisterInput) {
  return apiFetch('/v1/register', { method: 'POST', body: payload, schema: registerResponseSchema });
}

/** POST /v1/resend-email: the same answer whether or not a mail went out. */
export function resendEmail(email: string) {
  return apiFetch('/v1/resend-email', { method: 'POST', body: { email }, schema: authMessageResponseSchema });
}

/** POST /v1/login: a session, or for an operator's email the challenge of the console's second step. */
export function login(payload: LoginInput) {
  return apiFetch('/v1/login', { method: 'POST', body: payload, schema: loginAnswerSchema });
}

/**
 * POST /v1/login/token: the one-time token of a verification or reset mail (`link` says which), or of an
 * operator's sign-in link (a challenge: the console's setup comes next).
 */
export function loginWithToken(token: string, rememberMe: boolean) {
  return apiFetch('/v1/login/token', {
    method: 'POST',
    body: { token, remember_me: rememberMe },
    schema: loginTokenAnswerSchema,
  });
}

/** POST /v1/forgot-password: mails a link that signs in once, so the user can set a new password. */
export function forgotPassword(email: string) {
  return apiFetch('/v1/forgot-password', {
    method: 'POST',
    body: { email },
    schema: authMessageResponseSchema,
  });
}

/** How long a logout waits for the server to revoke the token before it signs out here anyway. */
const LOGOUT_WAIT_MS = 4000;

/**
 * Log out (spec §4): the server revokes this device's token (POST /v1/logout), then the device forgets it
 * and reloads. Offline, or when the server is slow or says the token is already gone, the device signs out
 * all the same: a person who taps Log out is never kept signed in.
 */
export async function logOut() {
  if (typeof navigator === 'undefined' || navigator.onLine !== false) {
    await apiFetch('/v1/logout', {
      method: 'POST',
      schema: authMessageResponseSchema,
      timeoutMs: LOGOUT_WAIT_MS,
    }).catch(() => undefined);
  }
  logout();
}

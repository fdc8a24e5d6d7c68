import * as v from 'valibot';
import { errorResponseSchema } from '../contract/common';
import { networkMessage, serverMessages } from '../contract/common-messages';
import { readAuth } from '../state/auth';
import { getGuestId } from '../state/kv';
import { offlineCopyAtom } from '../state/network';
import { appStore } from '../state/store';
import { ApiError } from './apiError';
import { OFFLINE_COPY_HEADER } from './offlineCopy';
import { noteRequestOutcome } from './reconnect';

// Callers (features, the outbox, uploads) take ApiError from the client they call.
export { ApiError };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  method?: Method;
  /** Plain data is sent as JSON; FormData goes as multipart, untouched. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra headers, e.g. the outbox's Idempotency-Key. */
  headers?: Record<string, string>;
  /** Give up after this long with a network error (status 0): a hung request must not hold a queue. */
  timeoutMs?: number;
  /**
   * Statuses that mean "sign in again" for this call (spec §6/§8: 403 on a profile update, 402 on link
   * calls): the app goes to /login, and the call still fails for its caller.
   */
  loginOn?: readonly number[];
  /**
   * A request already on its way for this call (index.html's boot script starts the home feed before any
   * module has loaded): used only when its URL is exactly the one this call would ask for, identity
   * included, so a stale guess never stands in for the real answer.
   */
  adopt?: { url: string; response: Promise<Response> };
}

/** Where a call that needs a fresh sign-in sends the viewer; the login screen brings them back here. */
export function redirectToLogin() {
  const here = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/login?next=${encodeURIComponent(here)}`);
}

/**
 * The single place where identity joins a request (spec §6: one or the other, never both): the bearer token
 * for logged-in users; for guests their guest_id, in the JSON body of a POST and in the query of a GET (so
 * lists can say which videos this guest liked).
 */
async function withIdentity(
  path: string,
  method: Method,
  body: unknown,
): Promise<{ path: string; body: unknown; headers: Record<string, string> }> {
  const auth = readAuth();
  if (auth) return { path, body, headers: { Authorization: `Bearer ${auth.accessToken}` } };
  if (!path.startsWith('/v1/')) return { path, body, headers: {} };
  const guestId = await getGuestId().catch(() => undefined);
  if (!guestId) return { path, body, headers: {} };
  if (method === 'GET') {
    const url = new URL(path, 'http://x');
    url.searchParams.set('guest_id', guestId);
    return { path: `${url.pathname}${url.search}`, body, headers: {} };
  }
  const isPlainObject = body !== null && typeof body === 'object' && !(body instanceof FormData);
  return { path, body: isPlainObject ? { guest_id: guestId, ...body } : body, headers: {} };
}

/**
 * The URL a guest's GET of `path` goes out as (guest_id added), or null for a signed-in viewer, whose bearer
 * token no script outside the app may send.
 */
export async function guestGetUrl(path: string): Promise<string | null> {
  if (readAuth()) return null;
  return (await withIdentity(path, 'GET', undefined)).path;
}

export function apiFetch<S extends v.GenericSchema>(
  path: string,
  options: RequestOptions & { schema: S },
): Promise<v.InferOutput<S>>;
export function apiFetch(path: string, options?: RequestOptions): Promise<unknown>;
export async function apiFetch(
  rawPath: string,
  {
    method = 'GET',
    body: rawBody,
    signal,
    schema,
    headers: extra,
    loginOn,
    timeoutMs,
    adopt,
  }: RequestOptions & { schema?: v.GenericSchema } = {},
): Promise<unknown> {
  const identity = await withIdentity(rawPath, method, rawBody);
  const { path, body } = identity;
  const headers: Record<string, string> = { Accept: 'application/json', ...identity.headers, ...extra };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  // A timeout and the caller's own abort end the same request: one signal for fetch, AbortSignal.any's job
  // (Safari 17.4+, Chrome 116+), written out for older phones.
  const deadline = timeoutMs === undefined ? undefined : new AbortController();
  const timer = deadline && setTimeout(() => deadline.abort(), timeoutMs);
  if (deadline) signal?.addEventListener('abort', () => deadline.abort(), { once: true });
  let response: Response;
  let json: unknown;
  let copy = false;
  try {
    const send = () =>
      fetch(path, {
        method,
        headers,
        body: payload,
        signal: deadline?.signal ?? signal,
        credentials: 'same-origin',
      });
    // The boot request failing (a network blip while the page loaded) is worth one fresh try of our own.
    response =
      adopt?.url === path && method === 'GET' && !identity.headers.Authorization
        ? await adopt.response.catch(send)
        : await send();
    // An answer means the server is reachable again, unless a gateway says it is not (issue 35), or the
    // service worker answered with the device's copy because the network did not.
    copy = response.headers.get(OFFLINE_COPY_HEADER) === '1';
    appStore.set(offlineCopyAtom, copy);
    noteRequestOutcome(!copy && (response.status < 502 || response.status > 504));
    json = await readJson(response);
  } catch (error) {
    // An abort is the caller's own decision, not a failure to report.
    if (signal?.aborted) throw error;
    noteRequestOutcome(false);
    throw new ApiError(0, networkMessage, undefined, { cause: error });
  } finally {
    clearTimeout(timer);
  }

  if (!response.ok && loginOn?.includes(response.status)) redirectToLogin();
  if (!response.ok) {
    const parsed = v.safeParse(errorResponseSchema, json);
    if (parsed.success)
      throw new ApiError(response.status, parsed.output.message, parsed.output.errors, { fromServer: true });
    throw new ApiError(response.status, serverMessages.internal);
  }
  if (!schema) return markCopy(json, copy);
  try {
    return markCopy(v.parse(schema, json), copy);
  } catch (error) {
    // A 2xx that does not match the contract is a server bug; callers treat it like any other failure.
    throw new ApiError(response.status, serverMessages.internal, undefined, { cause: error });
  }
}

const offlineCopies = new WeakSet<object>();
const markCopy = <T>(data: T, copy: boolean): T => {
  if (copy && typeof data === 'object' && data !== null) offlineCopies.add(data);
  return data;
};

/** Whether an answer is the device's copy of a list, given by the service worker while the network is away. */
export const fromOfflineCopy = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && offlineCopies.has(data);

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

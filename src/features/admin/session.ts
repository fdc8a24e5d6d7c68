// The console's own session, apart from the viewer's (src/state/auth.ts): an operator signs in per tab, in
// sessionStorage, so closing the tab ends what a shared or forgotten laptop could still reach. The server
// ends it anyway after 12 hours or 30 idle minutes; the first call it refuses (401) brings the sign-in back.
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { createContext, useCallback, useContext, useMemo } from 'react';
import * as v from 'valibot';
import { ApiError } from '../../api/http';
import { type OperatorSession, operatorSessionSchema } from '../../contract/admin';

const STORAGE_KEY = 'shortcams.operator';

function readStored(): OperatorSession | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = v.safeParse(operatorSessionSchema, JSON.parse(raw));
    if (!parsed.success || Date.parse(parsed.output.expires_at) <= Date.now()) return null;
    return parsed.output;
  } catch {
    return null;
  }
}

function writeStored(session: OperatorSession | null) {
  try {
    if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode, quota): the session still lives in memory for this page.
  }
}

const storedAtom = atom<OperatorSession | null>(readStored());

/** The operator's session, or null; setting it writes sessionStorage too. */
export const operatorSessionAtom = atom(
  (get) => get(storedAtom),
  (_get, set, next: OperatorSession | null) => {
    writeStored(next);
    set(storedAtom, next);
  },
);

/** Why the last session went: the sign-in screen says so once. */
export type SessionEnd = 'ended' | 'signed-out' | null;
export const sessionEndAtom = atom<SessionEnd>(null);

/** Drops the session and tells the sign-in screen why. */
export function useEndSession() {
  const setSession = useSetAtom(operatorSessionAtom);
  const setEnd = useSetAtom(sessionEndAtom);
  return useCallback(
    (why: Exclude<SessionEnd, null>) => {
      setEnd(why);
      setSession(null);
    },
    [setSession, setEnd],
  );
}

export interface Console {
  session: OperatorSession;
  isAdmin: boolean;
  /**
   * Runs a console call with the session's token. A 401 means the session is over: it is dropped (the
   * console's gate then shows the sign-in) and the call still fails for its caller.
   */
  call: <T>(request: (token: string) => Promise<T>) => Promise<T>;
}

export const ConsoleContext = createContext<Console | null>(null);

/** The session of a screen inside the console's gate, which only renders them with one. */
export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole is used outside the console gate');
  return value;
}

/** What the gate hands its screens: built once per token. */
export function useConsoleValue(session: OperatorSession | null): Console | null {
  const end = useEndSession();
  const token = session?.access_token;
  const call = useCallback(
    async <T>(request: (token: string) => Promise<T>): Promise<T> => {
      try {
        return await request(token ?? '');
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) end('ended');
        throw error;
      }
    },
    [token, end],
  );
  return useMemo(
    () => (session ? { session, isAdmin: session.operator.role === 'admin', call } : null),
    [session, call],
  );
}

export const useOperatorSession = () => useAtomValue(operatorSessionAtom);

const NEXT_KEY = 'shortcams.operator.next';

/**
 * The console page an operator asked for before signing in (a link to a queue in a chat, say): kept through
 * the trip via /login, and where the sign-in lands. Only a console path is ever taken back.
 */
export function rememberConsolePath(path: string) {
  try {
    if (path.startsWith('/admin/') && !path.startsWith('/admin/sign-in'))
      sessionStorage.setItem(NEXT_KEY, path);
  } catch {
    // Storage refused: the sign-in lands on the dashboard.
  }
}

export function takeConsolePath(): string {
  try {
    const path = sessionStorage.getItem(NEXT_KEY);
    sessionStorage.removeItem(NEXT_KEY);
    return path && /^\/admin\/[^/]/.test(path) ? path : '/admin';
  } catch {
    return '/admin';
  }
}

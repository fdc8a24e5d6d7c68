import { useAtom, useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import type { OwnProfile } from '../contract';
import { authAtom } from '../state/auth';
import { ownProfileAtom } from '../state/ownProfile';
import { fetchOwnProfile } from './profile';

export interface OwnProfileState {
  /** What is known now: the last answer (possibly a screen old) until the fresh one arrives. */
  profile: OwnProfile | null;
  /** The load failed and nothing is known to show. */
  error: unknown;
  retry: () => void;
  /** Takes the account as a profile update answered it (POST /v1/profile returns `user`). */
  update: (profile: OwnProfile) => void;
}

/**
 * The own profile for a screen behind the login wrapper: shown at once from the last answer, and asked for
 * again on every visit, since verification and studio change on the server (an operator approves).
 */
export function useOwnProfile(): OwnProfileState {
  const auth = useAtomValue(authAtom);
  const [cached, setCached] = useAtom(ownProfileAtom);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const userId = auth?.userId;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger.
  useEffect(() => {
    if (userId === undefined) return;
    const controller = new AbortController();
    setError(null);
    fetchOwnProfile(controller.signal).then(
      (profile) => {
        if (!controller.signal.aborted) setCached(profile);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(failure);
      },
    );
    return () => controller.abort();
  }, [userId, attempt, setCached]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const profile = cached && cached.id === userId ? cached : null;
  return { profile, error: profile ? null : error, retry, update: setCached };
}

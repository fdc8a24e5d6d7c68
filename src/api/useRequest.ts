import { useCallback, useEffect, useRef, useState } from 'react';
import { useEffectEvent } from '../state/effectEvent';
import { isRetryable, useHealing } from './reconnect';

export type RequestState<T> =
  | { status: 'loading' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

type Settled<T> = Exclude<RequestState<T>, { status: 'loading' }> & { tag: string };

/**
 * Loads once per `key` (and again on `retry`), aborting the previous request. A result is only shown for the
 * key it was loaded for, so changing the key shows the spinner instead of the previous screen's data.
 * `initial`, an answer already in hand for the first key, is shown at once and not loaded again.
 * A load that failed for a reason that may pass (isRetryable) loads again by itself, as `retry` would, when
 * the network returns (src/api/reconnect.ts, issue 35).
 */
export function useRequest<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  initial?: T,
): RequestState<T> & { retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const tag = `${attempt}\u0000${key}`;
  const [settled, setSettled] = useState<Settled<T> | null>(() =>
    initial === undefined ? null : { tag, status: 'success', data: initial },
  );
  const initialTag = useRef(initial === undefined ? null : tag);
  const run = useEffectEvent(load);

  useEffect(() => {
    if (initialTag.current === tag) {
      initialTag.current = null;
      return;
    }
    const controller = new AbortController();
    run(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setSettled({ tag, status: 'success', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setSettled({ tag, status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [tag]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const state: RequestState<T> = settled?.tag === tag ? (settled as RequestState<T>) : { status: 'loading' };
  useHealing(state.status === 'error' && isRetryable(state.error), retry);
  return { ...state, retry };
}

import { useCallback, useInsertionEffect, useRef } from 'react';

/**
 * A function for effects to call that always runs the latest `handler`, without being one of their
 * dependencies. React 19.2 ships its own `useEffectEvent`, but that one returns a new function at every
 * render and throws when called from anywhere but an effect; this one keeps one identity for the component's
 * life, so a listener attached once (the feed's keys, the media session's actions) or a callback handed down
 * stays valid. The handler is swapped in an insertion effect, before any layout effect of the same commit can
 * call it; never call it during render.
 */
export function useEffectEvent<Args extends unknown[], Result>(
  handler: (...args: Args) => Result,
): (...args: Args) => Result {
  const latest = useRef(handler);
  useInsertionEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}

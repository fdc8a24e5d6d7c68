import { useCallback, useInsertionEffect, useRef } from 'react';

/**
 * A function for effects to call that always runs the latest `handler`, without being one of their
 * dependencies: what React 19.2's useEffectEvent does. The app runs on React 18, whose react-dom is 21 KB
 * gzipped lighter than 19's, the difference between the first download of `/` meeting its 100 KB goal or not
 * (issue 17). The handler is swapped in an insertion effect, before any layout effect of the same commit can
 * call it; like React's own, call it from effects and event handlers, never during render.
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

import { useEffect, useState } from 'react';

/** Spec §9: the verification mail may be sent again 60 s after the last one. */
export const RESEND_COUNTDOWN_MS = 60_000;

/** Whole seconds until `until` (rounded up: '1' until the very end), never below 0. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** 'm:ss', the way a countdown reads on a phone. */
export function formatCountdown(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Seconds left until a moment (a wall-clock time, so that a reload or a phone put away for a minute shows the
 * truth rather than restarting): re-renders once a second while it runs, and stops at 0.
 */
export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Woken at each whole second of what is left, so the figure never skips one or lags behind.
    const tick = () => {
      const time = Date.now();
      setNow(time);
      const rest = until - time;
      if (rest > 0) timer = setTimeout(tick, rest % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [until]);
  return secondsLeft(until, now);
}

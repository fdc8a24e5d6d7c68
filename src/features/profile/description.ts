import { useSyncExternalStore } from 'react';

/** Spec §9: a description shows 30 characters under 500 px of width, 100 under 900, 200 otherwise. */
export function descriptionLimit(viewportWidth: number): number {
  if (viewportWidth < 500) return 30;
  if (viewportWidth < 900) return 100;
  return 200;
}

/**
 * The description cut to `limit` characters, counted as the reader sees them (an emoji is one, and is never
 * split in half), with an ellipsis when something was cut.
 */
export function truncateDescription(text: string, limit: number): { text: string; truncated: boolean } {
  const chars = Array.from(text);
  if (chars.length <= limit) return { text, truncated: false };
  return { text: `${chars.slice(0, limit).join('').trimEnd()}…`, truncated: true };
}

const subscribe = (notify: () => void) => {
  window.addEventListener('resize', notify);
  return () => window.removeEventListener('resize', notify);
};

/** The limit for the current window; re-renders only when a resize crosses a breakpoint. */
export function useDescriptionLimit(): number {
  return useSyncExternalStore(
    subscribe,
    () => descriptionLimit(window.innerWidth),
    () => 200,
  );
}

import { useSyncExternalStore } from 'react';

/** Live result of a CSS media query (re-renders when it flips, e.g. the window crosses 1400 px). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Spec §9: sidebars (and the hiding of some ad placements) start at 1400 px. */
export const WIDE_QUERY = '(min-width: 1400px)';

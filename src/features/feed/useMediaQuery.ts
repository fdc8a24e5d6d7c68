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

/** Spec §9: some ad placements are hidden from 1400 px. */
export const WIDE_QUERY = '(min-width: 1400px)';

/**
 * The sidebars beside the feed. Spec §9 loads them at 1400 px; they start at 1200 px so that a 1280 px laptop,
 * the most common one, gets a filled screen instead of a phone column between two empty bands (issue 33).
 */
export const SIDEBARS_QUERY = '(min-width: 1200px)';

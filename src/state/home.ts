import { atom } from 'jotai';

/**
 * Counts taps on the home tab while home is on show (spec §2: that re-mounts it). The home feed keys its list
 * by it, so a tap starts a fresh feed from the top rather than resuming where it was.
 */
export const homeGenerationAtom = atom(0);

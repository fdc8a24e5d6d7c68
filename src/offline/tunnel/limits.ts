// The tunnel buffer's numbers, apart from plan.ts so the feed's first screen can read them without the plan's
// code (about 0.7 KB gzipped of the first load of `/`).
export const TUNNEL = {
  /** Videos kept ahead of the one on screen (issue 35: the next 10). */
  ahead: 10,
  /** Default size budget of everything kept. */
  budgetBytes: 150 * 2 ** 20,
  /** Clips up to this long are kept whole... */
  wholeUpToSeconds: 60,
  /** ...longer ones only this much from the start. */
  partSeconds: 30,
} as const;

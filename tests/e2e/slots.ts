// One server per Playwright worker (E2E_WORKERS, 2 by default): global-setup.ts starts a server for each
// parallel slot, from one seeded data directory copied, and names each slot's server, data directory, ads
// file and storage state with a `_<slot>` suffix. Imported first by playwright.config.ts, which each worker
// process loads after Playwright has set its TEST_PARALLEL_INDEX: the worker then sees its own slot's values
// under the plain names the specs and helpers read (E2E_BASE_URL and the rest), and never another worker's
// server, so no test can disturb what a test of another worker is looking at.

/**
 * Parallel workers, each with a server of its own. Two by default again: the three failures that two met in
 * CI (a signature pad drawn before its code, a profile badge another spec had changed, a pop tapped before it
 * was armed) are fixed, and the whole suite passed with two. Specs still share demo accounts within a server,
 * and which specs share one changes from run to run: a test must not read what another spec writes.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 2);

/** What global-setup.ts sets per slot, and what the specs read. */
export const SLOT_VARS = ['E2E_BASE_URL', 'E2E_DATA_DIR', 'E2E_ADS_FILE', 'E2E_STORAGE_STATE'] as const;

export const slotVar = (name: (typeof SLOT_VARS)[number], slot: number) => `${name}_${slot}`;

const slot = process.env.TEST_PARALLEL_INDEX;
if (slot !== undefined && process.env[slotVar('E2E_BASE_URL', Number(slot))]) {
  for (const name of SLOT_VARS) process.env[name] = process.env[slotVar(name, Number(slot))];
}

import { defineConfig, devices } from 'playwright/test';
import { chromiumLaunchOptions } from './browser';
// Evaluated before this file's body: in a worker process, the slot's server is E2E_BASE_URL by the time
// `use` below reads it.
import { E2E_WORKERS } from './slots';

const launchOptions = chromiumLaunchOptions();

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  // Two workers by default, each with a server of its own (slots.ts). On this 2-core machine, on the headless
  // shell, the 339 tests took 13.9 min with two against 18.4 with one: tests that wait on a timer or a
  // video's clock (an ad's 5 s, the message's 4 s, a tunnel) overlap with the others. E2E_WORKERS=1 for one.
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The test runner of `npm test` asks for a JSON report to count results; people get the list.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    // Every context starts with the 18+ gate confirmed (global-setup.ts); the gate's own test clears it.
    storageState: process.env.E2E_STORAGE_STATE,
    // Every context is a first visit: with the worker allowed, each test installs it and downloads its whole
    // precache (143 files) meanwhile. Four specs' 72 tests took 345-364 CPU-seconds so, against 287-296
    // without. The specs about the worker (pwa, offline, tunnel, csp, upload-resume, a boot's return visit)
    // allow it.
    serviceWorkers: 'block',
    // A trace records every step of every test to keep only the failures' ones: on 2 cores that cost 40 % of
    // the suite's time (app.spec: 38 s without, 63 s with). Ask for it when chasing a failure: E2E_TRACE=1.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions,
  },
  outputDir: '../../test-results',
  projects: [
    {
      name: 'phone',
      // HTTP-level checks do not depend on the viewport: they run once, in the wide project, beside the
      // sidebars that only exist from 1400 px.
      testIgnore: /(server|wide)\.spec\.ts/,
      use: { ...devices['Pixel 7'], browserName: 'chromium', launchOptions },
    },
    {
      name: 'wide',
      // What the wide layout changes, and the HTTP-level checks: sidebars and their ads, the shell's navigation,
      // the 5-column grids, the profile's columns, discover, the feed's keys and the CSP walk; and the forms,
      // the sign-up stepper and the creator flows, whose column sits beside the rail there. The specs of the
      // phone's own gestures, offline and install run on the phone only.
      testMatch:
        /(server|wide|ads|csp|shell|profile|discover|tags|lists|feed|accounts|settings|upload|verification|app|overlay)\.spec\.ts$/,
      testIgnore: /(feed-routes|offline|pwa|-phone)\.spec\.ts/,
      use: { browserName: 'chromium', viewport: { width: 1440, height: 900 }, launchOptions },
    },
  ],
});

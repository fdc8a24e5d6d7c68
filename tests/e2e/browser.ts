// Playwright's own Chromium where `npx playwright install` put it, else Debian's with the flags this sandbox
// needs (no network to Google, no GPU, root without a sandbox).
import fs from 'node:fs';
import { chromium, type LaunchOptions } from 'playwright';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * `engine: 'browser'` asks for Debian's full browser even where its headless shell is installed: the benches
 * measure what a viewer's Chrome does (Lighthouse, first frame), the tests only drive the engine. With
 * Playwright's own browsers the choice stays Playwright's, as before.
 */
export function chromiumLaunchOptions(engine: 'shell' | 'browser' = 'shell'): LaunchOptions {
  let bundled: string | undefined;
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled && fs.existsSync(bundled)) return {};
  // Debian's headless shell (package chromium-headless-shell) before its full browser: it is what Playwright
  // itself runs headless tests on, and the same engine without the browser's UI layers. The phone's feed and
  // accounts specs took 92 s on it against 111 s on the full browser, the same 30 tests passing.
  const shell = engine === 'shell' && fs.existsSync(HEADLESS_SHELL);
  const system = process.env.CHROMIUM_PATH ?? (shell ? HEADLESS_SHELL : '/usr/bin/chromium');
  return {
    executablePath: system,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      // Videos must start muted without a user gesture, as on a phone with autoplay allowed.
      '--autoplay-policy=no-user-gesture-required',
    ],
  };
}

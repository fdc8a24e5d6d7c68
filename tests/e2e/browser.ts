// Playwright's own Chromium where `npx playwright install` put it, else Debian's /usr/bin/chromium with the
// flags this sandbox needs (no network to Google, no GPU, root without a sandbox).
import fs from 'node:fs';
import { chromium, type LaunchOptions } from 'playwright';

export function chromiumLaunchOptions(): LaunchOptions {
  let bundled: string | undefined;
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = undefined;
  }
  if (bundled && fs.existsSync(bundled)) return {};
  const system = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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

// Issue 6 acceptance: Chrome's own installability check passes, and a new deployment is offered through the
// update toast. Phone project only (playwright.config.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from 'playwright/test';
import { AGE_CONFIRM_BUTTON } from './age-gate';
import { chromiumLaunchOptions } from './browser';
import { type RunningServer, startServer } from './server';

const root = path.resolve(import.meta.dirname, '../..');

// Installability and updates are the service worker's.
test.use({ serviceWorkers: 'allow' });

test.describe('installable PWA', () => {
  test("Chrome's installability check reports no error", async ({ baseURL }) => {
    // Chrome reports every incognito context (Playwright's default) as not installable: use a profile.
    const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-profile-'));
    const context = await chromium.launchPersistentContext(profile, { ...chromiumLaunchOptions(), baseURL });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/');
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.errors).toEqual([]);
      expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
      // The home-screen icon and splash come from these.
      const parsed = JSON.parse(manifest.data ?? '{}');
      expect(parsed).toMatchObject({
        display: 'standalone',
        orientation: 'portrait',
        start_url: '/',
        scope: '/',
      });
      expect(parsed.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ]);
    } finally {
      await context.close();
      await fs.rm(profile, { recursive: true, force: true });
    }
  });
});

test.describe('updates', () => {
  // Its own server on its own port (so its own origin and service worker), serving a build directory this
  // test swaps; the shared server and the other tests never see the second build.
  let server: RunningServer;
  let served: string;
  let nextBuild: string;
  const NEXT_VERSION = '0.1.0-e2e-update';

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-update-'));
    served = path.join(work, 'served');
    nextBuild = path.join(work, 'next');
    await fs.cp(path.join(root, 'dist'), served, { recursive: true });
    const build = spawnSync(
      process.execPath,
      [
        path.join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--logLevel',
        'error',
        '--outDir',
        nextBuild,
      ],
      { cwd: root, env: { ...process.env, APP_VERSION: NEXT_VERSION }, encoding: 'utf8' },
    );
    expect(build.status, build.stderr).toBe(0);
    server = await startServer({ env: { DIST_DIR: served, SEED_DEMO: 'false' } });
  });

  test.afterAll(async () => {
    await server?.stop();
    if (served) await fs.rm(path.dirname(served), { recursive: true, force: true });
  });

  test('a new build makes the update toast appear, and Reload switches to it', async ({ page }) => {
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: AGE_CONFIRM_BUTTON }).click();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const version = async () => {
      await page.getByRole('button', { name: 'Menu' }).click();
      const text = await page
        .getByRole('dialog', { name: 'Menu' })
        .getByText(/^ShortCams .* · 18\+ only$/)
        .textContent();
      await page.keyboard.press('Escape');
      return text;
    };
    expect(await version()).not.toContain(NEXT_VERSION);
    const toast = page.getByRole('alert').filter({ hasText: 'A new version of ShortCams is ready.' });
    await expect(toast).toHaveCount(0);

    // Deploy: the server now answers with the next build.
    await fs.rm(served, { recursive: true, force: true });
    await fs.cp(nextBuild, served, { recursive: true });
    // The browser looks for a new worker on navigation; the one it finds waits for the user.
    await page.reload();
    await expect(toast).toBeVisible({ timeout: 30_000 });
    expect(await version()).not.toContain(NEXT_VERSION);

    const loadedAt = await page.evaluate(() => performance.timeOrigin);
    await toast.getByRole('button', { name: 'Reload' }).click();
    try {
      await expect.poll(version, { timeout: 30_000 }).toContain(NEXT_VERSION);
    } catch (error) {
      // Twice in CI under load (not here in 6 runs beside two busy loops): after Reload the old version for
      // 30 s. What the workers and the page were doing then, for whoever meets it next.
      const state = await page.evaluate(async (before) => {
        const registration = await navigator.serviceWorker.getRegistration();
        const of = (worker?: ServiceWorker | null) => worker?.state ?? 'none';
        return (
          `controller ${of(navigator.serviceWorker.controller)}; installing ${of(registration?.installing)}, ` +
          `waiting ${of(registration?.waiting)}, active ${of(registration?.active)}; ` +
          `page ${performance.timeOrigin === before ? 'not reloaded' : 'reloaded'}`
        );
      }, loadedAt);
      throw new Error(`still the old version 30 s after Reload: ${state}`, { cause: error });
    }
    await expect(toast).toHaveCount(0);
  });
});

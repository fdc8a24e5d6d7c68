// Shared by the ad-format specs. Most serve their own /ads.json (spec §1) per test; the demo's specs serve the
// shipped one through the server's ADS_FILE, which the rest of the suite keeps to the sidebar's tiles.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright/test';

/** The demo's ad configuration, as `npm start` serves it. */
export const SHIPPED_ADS = path.resolve(import.meta.dirname, '../../public/ads.json');

/**
 * What the e2e server serves as /ads.json unless a spec says otherwise: the shipped placements without the
 * formats of the feed's own page. A pop opening a tab on a test's first tap, a strip shortening the feed or
 * an ad in the way of the sixth video belong to the ads specs, not to every test that swipes or taps; the
 * sidebar's tiles change nothing about the feed (wide.spec.ts looks for one).
 */
export async function quietAds(): Promise<string> {
  const shipped = JSON.parse(await fs.readFile(SHIPPED_ADS, 'utf8')) as { type: string }[];
  return JSON.stringify(shipped.filter((p) => p.type === 'banner' || p.type === 'native'));
}

function adsFile(): string {
  const file = process.env.E2E_ADS_FILE;
  if (!file) throw new Error('E2E_ADS_FILE is set by global-setup.ts');
  return file;
}

/** The server answers /ads.json from the shipped file as it is (its ADS_FILE, read on each request). */
export const serveShippedAds = async () => fs.copyFile(SHIPPED_ADS, adsFile());
/** Back to the suite's usual placements, for the specs that run after. */
export const serveQuietAds = async () => fs.writeFile(adsFile(), await quietAds());

export const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');
export const footer = (page: Page) => page.getByRole('complementary', { name: 'Advertisement' });
export const message = (page: Page) => page.getByRole('complementary', { name: 'Sponsored message' });
/** The message waits 4 s on a feed screen (IM_DELAY_MS); this is comfortably past it. */
export const PAST_IM_DELAY_MS = 6_000;

export function serveAds(page: Page, placements: object[]) {
  return page.route('**/ads.json', (route) => route.fulfill({ json: placements }));
}

/** The creatives' host answers with a page, so a click-through opens something. */
export const answerAdHost = (page: Page) =>
  page
    .context()
    .route('https://ads.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p>ad</p>' }),
    );

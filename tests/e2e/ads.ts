// Shared by the ad-format specs: the operator's /ads.json (spec §1) is served per test, since the shipped one
// has none of these formats.
import type { Page } from 'playwright/test';

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

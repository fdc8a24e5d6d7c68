import { expect, type Page, test } from 'playwright/test';
import { demo, memberOn } from './members';
import { closeRatingPrompt } from './rating-prompt';

// The phone's layout (issue 33): swipes that start anywhere on the video, the caption included, headers that
// nothing shows through, screens centred beside the Live Cams tab. Phone project.
const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

/** A finger's drag from (x, y) by (dx, dy), in small steps. */
async function swipe(page: Page, x: number, y: number, dx: number, dy: number) {
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y + (dy * i) / 8);
  await page.mouse.up();
}

/** The middle of an element once the slide that brought its video has ended (200 ms, spec §9). */
async function settledCentre(locator: ReturnType<Page['locator']>) {
  let last = '';
  for (;;) {
    const b = await locator.boundingBox();
    if (!b) throw new Error('no box');
    const now = JSON.stringify(b);
    if (now === last) return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    last = now;
    await locator.page().waitForTimeout(120);
  }
}

test('a swipe that starts on the caption or a hashtag moves the feed; a tap on a hashtag opens it', async ({
  page,
}) => {
  await page.goto('/');
  await expect(current(page).locator('video')).toBeVisible();
  await page.getByRole('button', { name: 'Got it' }).click();
  // From the title, the author's name and a hashtag chip: each swipe up brings the next video.
  for (const [i, part] of ['.feed-title', '.feed-author-name', '.feed-tag'].entries()) {
    const at = await settledCentre(current(page).locator(part).first());
    await swipe(page, at.x, at.y, 0, -220);
    await expect(current(page)).toHaveAttribute('aria-posinset', String(i + 2));
    // The drag that ended on a link did not follow it.
    await expect(page).toHaveURL(/\/$/);
    // The second coach hint ('SWIPE LEFT') comes with the second video; the rating prompt after 2 to 5.
    if (i === 0) await page.getByRole('button', { name: 'Got it' }).click();
    await closeRatingPrompt(page);
  }
  // A swipe down from the caption goes back.
  const at = await settledCentre(current(page).locator('.feed-title'));
  // (Not so far that the finger leaves the screen at the bottom.)
  await swipe(page, at.x, at.y, 0, 120);
  await expect(current(page)).toHaveAttribute('aria-posinset', '3');
  await closeRatingPrompt(page);
  // A tap on a chip still opens its tag.
  const chip = current(page).locator('a.feed-tag').first();
  const href = await chip.getAttribute('href');
  await chip.tap();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
});

/** How much of what lies under the header's middle shows through it: its background's alpha must be 1. */
const headerOpacity = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const colour = getComputedStyle(el).backgroundColor;
      const alpha = colour.match(/^rgba\(.*,\s*([\d.]+)\)$/);
      return colour === 'transparent' ? 0 : alpha ? Number(alpha[1]) : 1;
    });

test('headers are opaque: what scrolls under them does not show through', async ({ page, request }) => {
  await page.goto('/discover');
  await expect(page.getByRole('heading', { name: 'Live Creators' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 400));
  expect(await headerOpacity(page, '.discover-head')).toBe(1);

  await memberOn(page, request, demo.pendingModel);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 300));
  expect(await headerOpacity(page, '.account-top')).toBe(1);

  await page.goto('/account/settings');
  await expect(page.locator('.screen-header')).toBeVisible();
  expect(await headerOpacity(page, '.screen-header')).toBe(1);
  // The tab bar too: lists scroll under it.
  expect(await headerOpacity(page, '.tabbar')).toBe(1);
});

test('screens are centred: the Live Cams tab takes no margin of its own', async ({ page }) => {
  for (const path of ['/discover', '/login', '/channels']) {
    await page.goto(path);
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    const main = page.locator('main > *').first();
    const b = await main.boundingBox();
    const width = page.viewportSize()?.width ?? 0;
    expect(Math.abs((b?.x ?? 0) - (width - (b?.x ?? 0) - (b?.width ?? 0))), path).toBeLessThan(1);
  }
  // A touch on the handle brings the tab out; the next opens the cams.
  await page.goto('/discover');
  const tab = page.getByRole('link', { name: 'Live Cams' });
  await expect.poll(async () => (await tab.boundingBox())?.x ?? 0).toBeLessThan(0);
  await tab.tap({ position: { x: 30, y: 40 } });
  await expect.poll(async () => (await tab.boundingBox())?.x).toBe(0);
  const popup = page.waitForEvent('popup');
  await page.context().route(/example\.com/, (route) => route.fulfill({ body: 'cams' }));
  await tab.tap();
  await (await popup).close();
});

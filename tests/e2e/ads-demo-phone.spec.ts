// The demo's own ads (issue 33): public/ads.json as shipped, served by the server as `npm start` serves it,
// with the house creatives it names (public/ads/*.svg, and the instream clip the seed generates). On a phone:
// the footer strip, the in-page message, the pop and the instream ad; the sidebar's banner and native tiles
// are for wide screens (ads-demo-wide.spec.ts). Phone project only (playwright.config.ts).
import { expect, type Page, test } from 'playwright/test';
import { current, footer, message, serveQuietAds, serveShippedAds } from './ads';
import { closeRatingPrompt } from './rating-prompt';

const position = async (page: Page) => Number(await current(page).getAttribute('aria-posinset'));
const playingTime = (page: Page) =>
  current(page)
    .locator('video')
    .evaluate((el: HTMLVideoElement) => el.currentTime);
/** An image that the browser fetched and decoded: a creative that exists, not only a tag that names it. */
const decoded = (img: ReturnType<Page['locator']>) =>
  img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

test.describe('the demo ads on a phone', () => {
  test.beforeAll(serveShippedAds);
  test.afterAll(serveQuietAds);

  test('a footer strip, an in-page message and a pop, each a house ad of the app', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();

    await expect(footer(page)).toBeVisible({ timeout: 15_000 });
    await expect(footer(page).locator('img')).toHaveAttribute('src', '/ads/house-footer.svg');
    expect(await decoded(footer(page).locator('img'))).toBe(true);
    await expect(footer(page).getByRole('link')).toHaveAttribute('href', '/register/model');

    await expect(message(page)).toBeVisible({ timeout: 15_000 });
    await expect(message(page)).toContainText('most-liked clips');
    expect(await decoded(message(page).locator('img'))).toBe(true);
    await expect(message(page).getByRole('link')).toHaveAttribute('href', '/discover');

    // No sidebar on a phone, so neither of its tiles.
    await expect(page.locator('.sidebar-ad')).toHaveCount(0);

    // The session's first tap opens the creators' page in a new tab; the feed stays where it was.
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Got it' }).click();
    const opened = await popup;
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe('/upload');
    await opened.close();
    expect(new URL(page.url()).pathname).toBe('/');

    // A house ad's click-through stays in the app: the message's link opens Discover in this tab.
    await message(page).getByRole('link').click();
    await expect(page).toHaveURL(/\/discover$/);
    expect(context.pages()).toHaveLength(1);
  });

  test('the house instream ad plays before the sixth video and can be skipped once 5 s have played', async ({
    page,
  }) => {
    const clip = page.waitForResponse((r) => r.url().endsWith('/media/ads/house/instream/master.m3u8'));
    const adsServed = page.waitForResponse('**/ads.json');
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    // A move made before the list arrives rightly plays no ad.
    await adsServed;
    // every: 5, the first ad before the video at index 5.
    for (let n = 2; n <= 6; n++) {
      await closeRatingPrompt(page);
      await page.waitForTimeout(600);
      await page.keyboard.press('PageDown');
      await expect.poll(() => position(page)).toBe(n);
    }
    // A rating prompt holds whatever plays under it, the ad too.
    await closeRatingPrompt(page);
    const ad = current(page).locator('.instream');
    await expect(ad).toHaveAttribute('data-slot-id', 'house-instream');
    expect((await clip).ok()).toBe(true);
    const skip = ad.getByRole('button', { name: /^Skip/ });
    await expect(skip).toBeDisabled();
    await expect(skip).toHaveText(/^Skip in [1-5]$/);
    await expect(ad.getByRole('link', { name: 'Learn more' })).toHaveAttribute('href', '/register/model');
    // The clip lasts 12 s: Skip comes at 5 s of it, long before the ad would end by itself.
    await expect(skip).toBeEnabled({ timeout: 20_000 });
    expect(await playingTime(page)).toBeGreaterThanOrEqual(5);
    await expect(skip).toHaveText('Skip');
    await skip.click();
    await expect(page.locator('.instream')).toHaveCount(0);
    expect(await position(page)).toBe(6);
    // The sixth video itself plays from its start, in the same slot.
    await expect.poll(() => playingTime(page), { timeout: 20_000 }).toBeGreaterThan(0.2);
    expect(await playingTime(page)).toBeLessThan(5);
  });
});

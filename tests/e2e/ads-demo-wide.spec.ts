// The demo's own ads (issue 33) at 1440 px, from public/ads.json as shipped: the banner and native tiles in
// the left sidebar, the pop, and the rule that hides the placements marked hideWide (the footer strip and the
// in-page message) from 1400 px. Wide project only (playwright.config.ts); the phone's side is
// ads-demo-phone.spec.ts.
import { expect, type Page, test } from 'playwright/test';
import { current, footer, message, PAST_IM_DELAY_MS, serveQuietAds, serveShippedAds } from './ads';

const decoded = (img: ReturnType<Page['locator']>) =>
  img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0);

test.describe('the demo ads on a wide screen', () => {
  test.beforeAll(serveShippedAds);
  test.afterAll(serveQuietAds);

  test('banner and native tiles in the sidebar and a pop; the footer and the message stay off', async ({
    page,
    context,
  }) => {
    const served = page.waitForResponse('**/ads.json');
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    // The hidden placements are in what was served: the screen's width hides them, not their absence.
    const types = ((await (await served).json()) as { type: string; hideWide?: boolean }[])
      .filter((p) => p.hideWide)
      .map((p) => p.type);
    expect(types.sort()).toEqual(['footer', 'im']);

    const left = page.getByRole('complementary', { name: 'Recommended videos' });
    const banner = left.locator('.sidebar-ad[data-slot-id="house-sidebar-banner"]').first();
    const native = left.locator('.sidebar-ad[data-slot-id="house-sidebar-native"]').first();
    await banner.scrollIntoViewIfNeeded();
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('href', '/upload');
    await expect(banner.locator('img')).toHaveAttribute('src', '/ads/house-banner.svg');
    await expect.poll(() => decoded(banner.locator('img'))).toBe(true);
    await native.scrollIntoViewIfNeeded();
    await expect(native).toBeVisible();
    await expect(native).toHaveAttribute('href', '/channels');
    await expect.poll(() => decoded(native.locator('img'))).toBe(true);

    await page.waitForTimeout(PAST_IM_DELAY_MS);
    await expect(footer(page)).toHaveCount(0);
    await expect(message(page)).toHaveCount(0);

    // The pop is for every screen: the first click of the session opens the creators' page in a new tab.
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Got it' }).click();
    const opened = await popup;
    await opened.waitForLoadState();
    expect(new URL(opened.url()).pathname).toBe('/upload');
  });
});

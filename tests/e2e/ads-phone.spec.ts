// The footer strip and the in-page message as a phone shows them (both placements are hideWide: a wide
// screen hides them, see ads-wide.spec.ts). Phone project only (playwright.config.ts).
import { expect, test } from 'playwright/test';
import { answerAdHost, current, footer, message, PAST_IM_DELAY_MS, serveAds } from './ads';

test.describe('ad formats on a phone', () => {
  test.beforeEach(async ({ page }) => {
    await answerAdHost(page);
  });

  test('a footer strip sits above the tabs without covering the feed, and stays closed once closed', async ({
    page,
  }) => {
    await serveAds(page, [
      {
        name: 'strip',
        slotId: 'f-1',
        type: 'footer',
        hideWide: true,
        src: '/icon-192.png',
        href: 'https://ads.example/f',
      },
    ]);
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    await expect(footer(page)).toBeVisible();
    await expect(footer(page).getByRole('link')).toHaveAttribute('href', 'https://ads.example/f');

    // The feed is shorter by the strip: its controls end above it, the strip ends on the tab bar (measured
    // once the strip has slid in).
    await footer(page).evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    const strip = await footer(page).boundingBox();
    const feed = await page.getByRole('feed').boundingBox();
    const info = await current(page).locator('.feed-info').boundingBox();
    const tabs = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
    if (!strip || !feed || !info || !tabs) throw new Error('missing boxes');
    expect(feed.y + feed.height).toBeLessThanOrEqual(strip.y + 1);
    expect(info.y + info.height).toBeLessThanOrEqual(strip.y + 1);
    expect(strip.y + strip.height).toBeLessThanOrEqual(tabs.y + 1);

    await footer(page).getByRole('button', { name: 'Close ad' }).click();
    await expect(footer(page)).toHaveCount(0);
    // The feed takes the room back.
    await expect
      .poll(async () => (await page.getByRole('feed').boundingBox())?.height)
      .toBeGreaterThan(feed.height);
    await page.reload();
    await expect(current(page).locator('video')).toBeVisible();
    await expect(footer(page)).toHaveCount(0);
  });

  test('an in-page message slides in after a few seconds, once per session', async ({ page }) => {
    await serveAds(page, [
      {
        name: 'hello',
        slotId: 'im-1',
        type: 'im',
        hideWide: true,
        src: '/icon-192.png',
        href: 'https://ads.example/im',
        text: 'Say hi to the new creators',
      },
    ]);
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    const shownAfter = Date.now();
    await expect(message(page)).toBeVisible({ timeout: 15_000 });
    expect(Date.now() - shownAfter).toBeGreaterThan(2_000);
    await expect(message(page)).toContainText('Say hi to the new creators');
    await expect(message(page).getByRole('link')).toHaveAttribute('href', 'https://ads.example/im');
    await message(page).getByRole('button', { name: 'Close message' }).click();
    await expect(message(page)).toHaveCount(0);

    await page.reload();
    await expect(current(page).locator('video')).toBeVisible();
    await page.waitForTimeout(PAST_IM_DELAY_MS);
    await expect(message(page)).toHaveCount(0);
  });
});

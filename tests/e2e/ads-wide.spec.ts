// hideWide on screens of 1400 px and wider. Wide project only (playwright.config.ts).
import { expect, test } from 'playwright/test';
import { answerAdHost, current, footer, message, serveAds } from './ads';

test.describe('ad formats on a wide screen', () => {
  test.beforeEach(async ({ page }) => {
    await answerAdHost(page);
  });

  test('hideWide placements stay off screens of 1400 px and wider, the others show', async ({ page }) => {
    await serveAds(page, [
      { name: 'strip', slotId: 'f-1', type: 'footer', hideWide: true, src: '/icon-192.png' },
      { name: 'hello', slotId: 'im-1', type: 'im', hideWide: false, src: '/icon-192.png', text: 'Hi there' },
    ]);
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    await expect(message(page)).toBeVisible({ timeout: 15_000 });
    await expect(footer(page)).toHaveCount(0);

    // The same footer without hideWide shows here too.
    await page.unrouteAll();
    await serveAds(page, [
      { name: 'strip', slotId: 'f-2', type: 'footer', hideWide: false, src: '/icon-192.png' },
    ]);
    await page.reload();
    await expect(footer(page)).toBeVisible();
  });
});

import { expect, type Page, test } from 'playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { demo, memberOn } from './members';

// Laptops and desktops (issue 33): a left navigation rail from 1024 px instead of the phone's bottom tabs,
// the feed between its sidebars from 1200 px, the creator's column laid out as a profile card, and no serious
// axe-core violation on any screen at 1280 px. Runs in the wide project; each test sets its own width.
const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');
const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return b;
};

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the navigation is a left rail with the menu entries, and the feed sits between both sidebars', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const rail = await nav.boundingBox();
    // A column down the left edge, not a bar across the bottom.
    expect(rail?.x).toBe(0);
    expect(rail?.y).toBe(0);
    expect(rail?.height).toBe(800);
    expect(rail?.width).toBeLessThan(120);
    for (const name of ['Home', 'Discover', 'Upload', 'Channels', 'Account', 'Rate videos', 'Webcam Reviews'])
      await expect(nav.getByRole('link', { name })).toBeVisible();
    // The Live Cams tab stands in the rail, clear of the video.
    const live = await page.getByRole('link', { name: 'Live Cams' }).boundingBox();
    expect((live?.x ?? 0) + (live?.width ?? 0)).toBeLessThanOrEqual(rail?.width ?? 0);

    // Recommendations on the left, the creator on the right, the video between them, nothing under the rail.
    const left = page.getByRole('complementary', { name: 'Recommended videos' });
    const right = page.getByRole('complementary', { name: 'Creator' });
    await expect(left.getByRole('link').first()).toBeVisible();
    await expect(right.getByRole('button', { name: /Follow/ })).toBeVisible();
    const [l, stage, r] = [
      await left.boundingBox(),
      await box(page, '.feed-stage'),
      await right.boundingBox(),
    ];
    expect(l?.x).toBeGreaterThanOrEqual(rail?.width ?? 0);
    expect((l?.x ?? 0) + (l?.width ?? 0)).toBeLessThanOrEqual(stage.x);
    expect(stage.x + stage.width).toBeLessThanOrEqual(r?.x ?? 0);
    // The width is used: the three columns span the space right of the rail, less its margins.
    expect((r?.x ?? 0) + (r?.width ?? 0) - (l?.x ?? 0)).toBeGreaterThan(1280 - (rail?.width ?? 0) - 80);

    // The menu's button lives in the rail; the floating one of phones is gone.
    await nav.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  });

  test("the creator's column is a profile card: the name below the cover, totals, links, latest videos", async ({
    page,
  }) => {
    await page.goto('/');
    const right = page.getByRole('complementary', { name: 'Creator' });
    const name = await current(page).locator('.feed-author-name').textContent();
    const link = right.getByRole('link', { name: name ?? '' }).first();
    await expect(link).toBeVisible();
    const cover = await box(page, '.sidebar-right .creator-cover');
    const nameBox = await link.boundingBox();
    // The whole name sits below the cover (it used to straddle its lower edge).
    expect(nameBox?.y).toBeGreaterThanOrEqual(cover.y + cover.height);
    // The avatar straddles the cover's lower edge, centred under it.
    const avatar = await box(page, '.sidebar-right .creator-card-body > :first-child');
    expect(avatar.y).toBeLessThan(cover.y + cover.height);
    expect(avatar.y + avatar.height).toBeGreaterThan(cover.y + cover.height);
    expect(Math.abs(avatar.x + avatar.width / 2 - (cover.x + cover.width / 2))).toBeLessThan(2);
    for (const total of ['Likes', 'Views', 'Followers'])
      await expect(right.getByText(total, { exact: true })).toBeVisible();
    // More of the creator than one link: their latest videos, which open in the feed.
    const latest = right.getByRole('region', { name: `Latest from ${name}` });
    await expect(latest.getByRole('link').first()).toBeVisible();
    const title = await latest.getByRole('link').first().locator('.visually-hidden').textContent();
    await latest.getByRole('link').first().click();
    await expect(current(page)).toHaveAttribute('aria-label', title ?? '');
  });

  test('a list that does not exist offers a way home, not a Retry that cannot help', async ({ page }) => {
    await page.goto('/video/99999999');
    await expect(page.getByRole('heading', { name: 'Video not found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Go to the home feed' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(current(page).locator('video')).toBeVisible();

    await page.goto('/tag/99999999/feed');
    await expect(page.getByRole('heading', { name: 'Nothing to play here' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Go to the home feed' })).toBeVisible();
  });

  test('every screen has no serious axe-core violation', async ({ page, request }) => {
    test.setTimeout(300_000);
    const guestScreens = [
      '/',
      '/discover',
      '/channels',
      '/upload',
      '/login',
      '/register',
      '/register/model',
      '/forgot-password',
      '/support',
      '/page/faq',
      '/tag/1',
      '/discover/webcam-site/CamRiver/feed',
      '/video/99999999',
      '/no-such-page',
    ];
    for (const path of guestScreens) {
      await page.goto(path);
      await expect(page.locator('main')).not.toBeEmpty();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousA11yViolations(page);
    }
    await memberOn(page, request, demo.pendingModel);
    const memberScreens = [
      '/account',
      '/account/settings',
      '/account/settings/details',
      '/account/settings/password',
      '/account/stats',
      '/account/following',
      '/account/help',
      '/account/settings/geo-blocking',
      '/account/settings/gender',
      '/account/settings/studio',
      '/account/settings/validation',
      '/upload',
      '/videos-rating/unrated',
      '/videos-rating/rated',
      '/videos-rating/feed',
      '/echo_lane',
    ];
    for (const path of memberScreens) {
      await page.goto(path);
      await expect(page.locator('main')).not.toBeEmpty();
      await page.waitForLoadState('networkidle');
      await expectNoSeriousA11yViolations(page);
    }
  });
});

test.describe('between 1024 and 1200 px', () => {
  test.use({ viewport: { width: 1100, height: 800 } });

  test('the rail replaces the bottom tabs; the feed is centred without sidebars', async ({ page }) => {
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    const rail = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
    expect(rail?.height).toBe(800);
    await expect(page.getByRole('complementary')).toHaveCount(0);
    const stage = await box(page, '.feed-stage');
    const railWidth = rail?.width ?? 0;
    // Centred in the space right of the rail.
    expect(Math.abs(stage.x - railWidth - (1100 - stage.x - stage.width))).toBeLessThan(2);

    // Other screens are centred there too, clear of the rail.
    await page.goto('/login');
    const form = await box(page, 'form');
    expect(form.x).toBeGreaterThan(railWidth);
    expect(Math.abs(form.x - railWidth - (1100 - form.x - form.width))).toBeLessThan(2);
  });
});

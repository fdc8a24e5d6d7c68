// /discover (spec §2): sections from GET /v1/discover, the live search, and the feeds it opens.
import { expect, test } from 'playwright/test';

const current = (page: import('playwright/test').Page) =>
  page.locator('[role=feed] article[aria-hidden=false]');

test.describe('discover', () => {
  test('shows creators, cam sites and the ranked carousels with thumbnails', async ({ page, request }) => {
    const api = await (await request.get('/v1/discover?gender=m')).json();
    await page.goto('/discover');
    await expect(page.getByRole('heading', { name: 'Discover', level: 1 })).toBeVisible();
    await expect(page.getByRole('searchbox')).toHaveAttribute('placeholder', 'Search...');
    await expect(page.getByRole('heading', { name: 'Newest Creators' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cams sites' })).toBeVisible();
    if (api.liveUsers.length > 0)
      await expect(page.getByRole('heading', { name: 'Live Creators' })).toBeVisible();

    const carousel = page.getByRole('region', { name: 'Most viewed all time' });
    await expect(
      carousel.getByRole('link', { name: api.videos.viewed_all_time[0].title, exact: true }),
    ).toBeVisible();
    const thumb = carousel.locator('img').first();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    // Spec §9: a 'More Videos' tile once a carousel holds 10.
    expect(api.videos.viewed_all_time.length).toBe(10);
    await expect(carousel.getByRole('link', { name: 'More Videos' })).toBeVisible();

    // The third video opens the carousel's feed at that video, titled from the category lookup.
    const third = api.videos.viewed_all_time[2];
    await carousel.getByRole('link', { name: third.title, exact: true }).click();
    await expect(page).toHaveURL(/\/discover\/category\/most-viewed-all-time\/feed$/);
    await expect(page.getByRole('heading', { name: 'Most viewed all time' })).toBeVisible();
    await expect(current(page)).toHaveAttribute('aria-label', third.title);
    await expect(current(page)).toHaveAttribute('aria-posinset', '3');

    // 'More Videos' opens the same ranking from the server, past the ten of the carousel.
    await page.goBack();
    await carousel.getByRole('link', { name: 'More Videos' }).click();
    await expect(current(page)).toHaveAttribute('aria-label', api.videos.viewed_all_time[0].title);
    expect(Number(await current(page).getAttribute('aria-setsize'))).toBeGreaterThan(10);
  });

  test('the first screenful renders first, the rest a moment after; back from a feed keeps the scroll', async ({
    page,
  }) => {
    // Which carousels the page had when the first tile's picture was first in the document, and how far down
    // a viewer could scroll it then.
    await page.addInitScript(() => {
      const w = window as unknown as { __atFirstTile: string[] | undefined; __roomAtFirstTile: number };
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.discover-body .video-tile-media img')) return;
        w.__atFirstTile = Array.from(
          document.querySelectorAll('.discover-body h2'),
          (h) => h.textContent ?? '',
        );
        w.__roomAtFirstTile = document.documentElement.scrollHeight - window.innerHeight;
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto('/discover');
    const last = page.getByRole('region', { name: 'Most viewed all time' });
    await expect(last).toBeVisible();
    const atFirstTile = await page.evaluate(
      () => (window as unknown as { __atFirstTile: string[] | undefined }).__atFirstTile,
    );
    // The creators, the cam sites and the first carousel: not the three carousels below them.
    expect(atFirstTile).toContain('Most liked this week');
    expect(atFirstTile).not.toContain('Most viewed all time');
    // Their room is there already: a viewer who scrolls at once goes down the page, not to the end of the
    // first screenful (330 to 390 px down, where the wheel of a later test once stopped at 34).
    const room = await page.evaluate(
      () => (window as unknown as { __roomAtFirstTile: number }).__roomAtFirstTile,
    );
    expect(room).toBeGreaterThan(600);

    // A viewer scrolled down to the last carousel opens a video there, then comes back.
    await last.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(300);
    await last.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/discover\/category\/most-viewed-all-time\/feed$/);
    // The answer comes back slowly, as on a phone's network: the page is a spinner when back is handled.
    await page.route('**/v1/discover?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.goBack();
    await expect(last).toBeInViewport();
    await page.waitForFunction(() => !('keptScroll' in document.documentElement.dataset));
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(40);
  });

  test('a cam site opens its feed', async ({ page, request }) => {
    const api = await (await request.get('/v1/discover?gender=m')).json();
    const site = api.webcam_sites[0];
    await page.goto('/discover');
    await page.getByRole('link', { name: site.name }).click();
    await expect(page).toHaveURL(new RegExp(`/discover/webcam-site/${site.slug}/feed$`));
    await expect(page.getByRole('heading', { name: `Best of ${site.name}` })).toBeVisible();
  });

  test('search shows users, tags and videos as you type, logs the finished search, or says nothing matched', async ({
    page,
  }) => {
    await page.goto('/discover');
    const box = page.getByRole('searchbox');
    const quick = page.waitForRequest(
      (r) => r.url().includes('/v1/discover/search?query=luna') && r.postDataJSON()?.is_final === false,
    );
    const final = page.waitForRequest(
      (r) => r.url().includes('/v1/discover/search?query=luna') && r.postDataJSON()?.is_final === true,
    );
    await box.fill('luna');
    await quick;
    const users = page.getByRole('region', { name: 'Users' });
    await expect(users.getByRole('link', { name: /Luna Vega/ })).toBeVisible();
    await final;
    // The carousels make way for the results, and come back when the box is cleared.
    await expect(page.getByRole('heading', { name: 'Newest Creators' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page.getByRole('heading', { name: 'Newest Creators' })).toBeVisible();

    await box.fill('neon');
    await expect(
      page.getByRole('region', { name: 'Tags' }).getByRole('link', { name: '#neon' }),
    ).toBeVisible();

    await box.fill('zzqxv');
    await expect(page.getByText('No results found')).toBeVisible();

    // A video result opens the feed at that video.
    await box.fill('midnight');
    const videos = page.getByRole('region', { name: 'Videos' });
    const first = videos.getByRole('link').first();
    // A tile is named by its title (the length and views on it are drawn, not read).
    const title = await first.locator('.video-tile-title').textContent();
    await first.click();
    await expect(current(page)).toHaveAttribute('aria-label', title ?? '');

    // Back, the words and their results are as the viewer left them, shown without asking (or logging) again.
    const searched: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/discover/search')) searched.push(r.url());
    });
    await page.goBack();
    await expect(box).toHaveValue('midnight');
    await expect(videos.getByRole('link').first().locator('.video-tile-title')).toHaveText(title ?? '');
    // Past the 2 s after which a search would be logged (spec §9).
    await page.waitForTimeout(2500);
    expect(searched).toEqual([]);
  });
});

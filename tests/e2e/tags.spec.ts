// /tag/{id} (spec §2): the tag's videos as a grid, 3 columns on phones and 5 on wide screens; a tap opens the
// tag feed at that video.
import { expect, type Page, test } from 'playwright/test';

const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');
const grid = (page: Page) => page.getByRole('list', { name: 'Videos' });
const columns = (page: Page) =>
  grid(page).evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);

test.describe('tag grid', () => {
  test('a chip opens the grid, and a tap opens the tag feed at that video', async ({ page, request }) => {
    await page.goto('/');
    const chip = current(page).locator('a.feed-tag').first();
    const name = ((await chip.textContent()) ?? '').replace(/^#/, '');
    const id = ((await chip.getAttribute('href')) ?? '').split('/').pop();
    const api = await (await request.get(`/v1/tags/${id}/videos?per_page=30`)).json();
    await chip.click();

    await expect(page).toHaveURL(new RegExp(`/tag/${id}$`));
    await expect(page.getByRole('heading', { name: `#${name}`, level: 1 })).toBeVisible();
    const tiles = grid(page).getByRole('link');
    await expect(tiles).toHaveCount(api.data.length);
    // Spec §2: 3 columns on phones, 5 on wider screens; each tile says its length and views.
    const wide = (page.viewportSize()?.width ?? 0) >= 900;
    expect(await columns(page)).toBe(wide ? 5 : 3);
    await expect(grid(page).getByRole('listitem').first().locator('.video-tile-duration')).toHaveText(
      /^\d\d:\d\d$/,
    );
    await expect(grid(page).getByRole('listitem').first().locator('.video-tile-counts')).toHaveText(
      /^\s*\d+(\.\d)?[KM]?$/,
    );
    if (!wide && api.data.length >= 4) {
      const boxes = await Promise.all([0, 1, 2, 3].map(async (i) => tiles.nth(i).boundingBox()));
      expect(boxes[1]?.y).toBe(boxes[0]?.y);
      expect(boxes[2]?.y).toBe(boxes[0]?.y);
      expect(boxes[3]?.y).toBeGreaterThan(boxes[0]?.y ?? 0);
      expect(boxes[3]?.x).toBe(boxes[0]?.x);
    }
    if (process.env.E2E_SHOTS_DIR && !wide)
      await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/tag-grid-phone.png` });

    // The second video opens the tag feed there, with the grid's list.
    const index = Math.min(1, api.data.length - 1);
    await tiles.nth(index).click();
    await expect(page).toHaveURL(new RegExp(`/tag/${id}/feed$`));
    await expect(current(page)).toHaveAttribute('aria-label', api.data[index].title);
    await expect(current(page)).toHaveAttribute('aria-posinset', String(index + 1));
  });

  test('pages on by 30 as the end scrolls into view', async ({ page, request }) => {
    // The demo has fewer than 31 clips per tag: the server's own pages, cut to 2 a page, stand in.
    const tag = (await (await request.get('/v1/videos?per_page=1')).json()).data[0].tags[0];
    const all = (await (await request.get(`/v1/tags/${tag.id}/videos?per_page=30`)).json()).data;
    expect(all.length, 'the demo tag needs 3 videos').toBeGreaterThanOrEqual(3);
    const asked: string[] = [];
    await page.route(
      (url) => url.pathname === `/v1/tags/${tag.id}/videos`,
      (route) => {
        const url = new URL(route.request().url());
        asked.push(url.searchParams.get('per_page') ?? '');
        const n = Number(url.searchParams.get('page') ?? 1);
        const next = n * 2 < all.length ? `/v1/tags/${tag.id}/videos?per_page=30&page=${n + 1}` : null;
        return route.fulfill({ json: { data: all.slice((n - 1) * 2, n * 2), links: { next } } });
      },
    );
    await page.goto(`/tag/${tag.id}`);
    // Two tiles never fill the screen: the end is in view, so page after page loads until the last.
    await expect(grid(page).getByRole('link')).toHaveCount(all.length);
    expect(asked[0]).toBe('30');

    // Back from the feed opened at the last tile, every page is there at once, and none is asked again.
    await grid(page).getByRole('link').last().click();
    await expect(page).toHaveURL(new RegExp(`/tag/${tag.id}/feed$`));
    await expect(current(page)).toHaveAttribute('aria-label', all[all.length - 1].title);
    const pagesAsked = asked.length;
    await page.goBack();
    await expect(grid(page).getByRole('link')).toHaveCount(all.length);
    expect(asked.length).toBe(pagesAsked);
  });

  test('says so when a tag has no videos or does not exist, and offers a retry when loading fails', async ({
    page,
  }) => {
    let fail = true;
    await page.route(
      (url) => url.pathname === '/v1/tags/999999/videos',
      (route) =>
        fail
          ? route.fulfill({ status: 500, json: { message: 'Something went wrong, try again later.' } })
          : route.fulfill({ json: { data: [], links: { next: null } } }),
    );
    await page.goto('/tag/999999');
    await expect(page.getByRole('heading', { name: "Couldn't load videos" })).toBeVisible();
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'No videos yet' })).toBeVisible();

    // A tag the server does not know: nothing to retry.
    await page.goto('/tag/999998');
    await expect(page.getByRole('heading', { name: 'Tag not found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  });
});

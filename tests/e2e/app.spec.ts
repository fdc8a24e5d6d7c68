import { expect, test } from 'playwright/test';
import { messages } from '../../src/contract/messages';

test.describe('home', () => {
  test('plays the first video of the feed', async ({ page, request }) => {
    const feed = await (await request.get('/v1/videos')).json();
    const first = feed.data[0];
    expect(feed.links).toHaveProperty('next');
    for (const url of [first.playlistUrl, first.thumbnailUrl]) {
      expect((await request.get(url)).status(), url).toBe(200);
    }
    await page.goto('/');
    const video = page.locator('video').first();
    await expect(video).toBeVisible();
    await expect
      .poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 20_000 })
      .toBeGreaterThan(0.5);
    // The overlay names the video's creator.
    await expect(page.getByText(first.user.name).first()).toBeVisible();
  });
});

test.describe('not found', () => {
  test('shows the not-found screen and goes home after 3 s', async ({ page }) => {
    await page.goto('/no/such/place');
    await expect(page.getByRole('heading', { name: messages.notFound.title })).toBeVisible();
    await expect(page.getByText(messages.notFound.body)).toBeVisible();
    const shownAt = Date.now();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 6_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(2_000);
  });

  test('an unknown profile slug shows the not-found screen', async ({ page }) => {
    await page.goto('/nobody-has-this-name');
    await expect(page.getByRole('heading', { name: messages.notFound.title })).toBeVisible();
  });
});

test.describe('static pages', () => {
  test('/page/faq renders the sanitised page', async ({ page }) => {
    await page.goto('/page/faq');
    await expect(page.getByRole('heading', { name: 'How do I become a creator?' })).toBeVisible();
  });

  test('/page/nope says the page was not found', async ({ page }) => {
    await page.goto('/page/nope');
    await expect(page.getByText(messages.page.notFound)).toBeVisible();
  });
});

test.describe('profile', () => {
  test('a demo creator profile opens by slug', async ({ page }) => {
    await page.goto('/luna_vega');
    await expect(page.getByText('Luna Vega').first()).toBeVisible();
    await expect(page.getByText('@luna_vega')).toBeVisible();
  });
});

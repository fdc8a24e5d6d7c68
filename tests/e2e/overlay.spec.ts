import { expect, type Page, test } from 'playwright/test';
import { readKv } from './device';

// The feed overlay's controls a viewer touches most, each checked for what it leaves behind: a setting that
// survives a reload, a post that reaches the server, a page that opens.
const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

interface DemoVideo {
  id: number;
  slug: string;
  title: string;
  tags: { name: string }[];
  user: { name: string; isLive: 0 | 1; liveLink?: { id: number; url: string } | null };
}

async function demoVideos(page: Page): Promise<DemoVideo[]> {
  const res = await page.request.get('/v1/videos?gender=m,t&per_page=50');
  return (await res.json()).data;
}

test.describe('feed overlay controls', () => {
  test('mute is remembered across a reload', async ({ page }) => {
    await page.goto('/');
    const video = current(page).locator('video');
    await expect(video).toBeVisible();
    expect(await video.evaluate((el: HTMLVideoElement) => el.muted)).toBe(true);
    await current(page).getByRole('button', { name: 'Unmute' }).click();
    expect(await video.evaluate((el: HTMLVideoElement) => el.muted)).toBe(false);
    await expect.poll(() => readKv(page, 'isMuted')).toBe(false);
    await page.reload();
    await expect(current(page).getByRole('button', { name: 'Mute' })).toBeVisible();
  });

  test('five hashtag chips, then ⋯ shows the rest', async ({ page }) => {
    const many = (await demoVideos(page)).find((v) => v.tags.length > 5);
    if (!many) throw new Error('the demo has no clip with more than five tags');
    await page.goto(`/video/${many.id}/${many.slug}`);
    const chips = current(page).locator('.feed-tags li');
    await expect(chips).toHaveCount(6);
    await current(page)
      .getByRole('button', { name: `Show all ${many.tags.length} tags` })
      .click();
    await expect(chips).toHaveCount(many.tags.length);
    await expect(current(page).getByRole('link', { name: `#${many.tags.at(-1)?.name}` })).toBeVisible();
  });

  test("a live creator's chip opens their room in a new tab and counts the click", async ({ page }) => {
    const live = (await demoVideos(page)).find((v) => v.user.isLive === 1 && v.user.liveLink);
    if (!live?.user.liveLink) throw new Error('the demo has no live creator with a live link');
    // The partner's room is outside this test's world: the new tab is answered here.
    await page.context().route(live.user.liveLink.url, (route) => route.fulfill({ body: 'room' }));
    await page.goto(`/video/${live.id}/${live.slug}`);
    await expect(current(page).locator('.live-badge')).toHaveText('LIVE');
    const click = page.waitForRequest((r) => r.url().endsWith('/v1/link-click') && r.method() === 'POST');
    const popup = page.waitForEvent('popup');
    await current(page)
      .getByRole('link', { name: `Live now: watch ${live.user.name}` })
      .click();
    expect((await popup).url()).toBe(live.user.liveLink.url);
    expect((await click).postDataJSON()).toMatchObject({
      link_id: live.user.liveLink.id,
      is_live: true,
      link_location: 'feed',
    });
  });

  test('the floating Live Cams button posts event 7 and opens the partner page in a new tab', async ({
    page,
  }) => {
    await page.context().route('https://example.com/**', (route) => route.fulfill({ body: 'partner' }));
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    const event = page.waitForRequest((r) => r.url().endsWith('/v1/event') && r.method() === 'POST');
    const popup = page.waitForEvent('popup');
    await page.getByRole('link', { name: 'Live Cams' }).click();
    expect((await event).postDataJSON()).toMatchObject({ event_id: 7 });
    expect((await popup).url()).toMatch(/^https:\/\/example\.com\//);
  });

  test('tapping home while on it starts the feed again from the top', async ({ page }) => {
    await page.goto('/');
    await expect(current(page)).toHaveAttribute('aria-posinset', '1');
    await page.keyboard.press('PageDown');
    await expect(current(page)).toHaveAttribute('aria-posinset', '2');
    const prompt = page.getByRole('dialog', { name: 'Rate this video' });
    if (await prompt.isVisible()) await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await expect(current(page)).toHaveAttribute('aria-posinset', '1');
  });

  test('the feed says it is busy while its first page loads', async ({ page }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/v1\/videos\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByRole('feed')).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(current(page).locator('video')).toBeVisible();
    await expect(page.getByRole('feed')).toHaveAttribute('aria-busy', 'false');
  });
});

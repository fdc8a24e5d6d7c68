import { expect, type Page, test } from 'playwright/test';
import { writeKv } from './device';
import { toast } from './members';
import { closeRatingPrompt } from './rating-prompt';
import { signedIn } from './sign-in';

// Issue 5 acceptance, phone project only (see playwright.config.ts): long swipes in order, every feed route, a logged-in viewer.
const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

async function swipe(page: Page, dy: number) {
  const box = await page.getByRole('feed').boundingBox();
  if (!box) throw new Error('no feed');
  const x = box.x + box.width / 2;
  const y = box.y + box.height * (dy < 0 ? 0.7 : 0.3);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 4; i++) await page.mouse.move(x, y + (dy * i) / 4);
  await page.mouse.up();
}

test.describe('feed acceptance', () => {
  test('30 swipes up and back down show the feed in order, with never more than 3 videos', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    // The order the client received, page after page, is the order the swipes must follow.
    const titles: string[] = [];
    page.on('response', async (res) => {
      if (!/\/v1\/videos(\?|$)/.test(new URL(res.url()).pathname + new URL(res.url()).search)) return;
      // Only the feed this test is about: the first visit's own 'm' feed may still be answering.
      if (new URL(res.url()).searchParams.get('gender') !== 'm,t') return;
      const body = await res.json().catch(() => null);
      for (const v of body?.data ?? []) titles.push(v.title);
    });
    // Both genders, so the home feed holds every demo clip (the default preference is 'm' only).
    await page.goto('/');
    await writeKv(page, 'preferencesCategory', 'm,t');
    titles.length = 0;
    await page.reload();
    await expect(current(page).locator('video')).toBeVisible();
    await page.getByRole('button', { name: 'Got it' }).click();
    await page.getByRole('button', { name: 'Got it' }).click();
    const check = async (n: number) => {
      await expect(current(page)).toHaveAttribute('aria-posinset', String(n + 1));
      await expect(current(page)).toHaveAttribute('aria-label', titles[n] ?? '');
      expect(await page.locator('video').count()).toBeLessThanOrEqual(3);
    };
    await check(0);
    for (let n = 1; n <= 30; n++) {
      await swipe(page, -160);
      await check(n);
      await closeRatingPrompt(page);
    }
    // The video on screen plays, the one before it is paused.
    await expect
      .poll(() =>
        current(page)
          .locator('video')
          .evaluate((el: HTMLVideoElement) => !el.paused && el.currentTime > 0),
      )
      .toBe(true);
    for (let n = 29; n >= 0; n--) {
      await swipe(page, 160);
      await check(n);
      await closeRatingPrompt(page);
    }
    expect(await page.locator('video').count()).toBe(3);
  });

  test('every feed route opens its feed', async ({ page, request }) => {
    test.setTimeout(120_000);
    const home = (await (await request.get('/v1/videos?per_page=10')).json()).data;
    const video = home[1];
    const tag = video.tags[0];
    const routes: [string, string | null][] = [
      [`/tag/${tag.id}/feed`, null],
      [`/tag/${tag.slug}/videos/${video.id}`, video.title],
      [`/tag/${tag.slug}/recommended/${video.id}`, video.title],
      ['/discover/category/popular/feed', null],
      ['/discover/webcam-site/camriver/feed', null],
      [`/${video.user.slug}/feed`, null],
      [`/${video.user.id}/feed`, null],
      [`/video/${video.id}`, video.title],
      [`/video/${video.id}/${video.slug}`, video.title],
      ['/videos-rating/feed', null],
    ];
    for (const [route, title] of routes) {
      await page.goto(route);
      await expect(current(page).locator('video'), route).toBeVisible();
      if (title) await expect(current(page), route).toHaveAttribute('aria-label', title);
      // A tag feed opened by id is titled with the tag's name.
      if (route === routes[0]?.[0])
        await expect(page.getByRole('heading', { name: `#${tag.name}` })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Unrated videos' })).toBeVisible();
  });

  test('a logged-in viewer likes, rates and reports without an email', async ({ page, request }) => {
    const { bearer } = await signedIn(page, request);

    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    const title = await current(page).getAttribute('aria-label');
    const list = (await (await request.get('/v1/videos?per_page=50', { headers: bearer })).json()).data;
    const video = list.find((v: { title: string }) => v.title === title);

    await current(page).getByRole('button', { name: 'Like' }).click();
    await current(page).getByRole('button', { name: 'Rate video' }).click();
    await page.getByRole('button', { name: 'Love it' }).click();
    await expect(toast(page)).toHaveText('Video rated');
    // The video says so at once, without a reload.
    await expect(current(page).getByRole('button', { name: 'Video Rated' })).toBeVisible();
    await expect
      .poll(async () => {
        const res = await request.get(`/v1/videos/start/${video.id}`, { headers: bearer });
        const v = (await res.json()).data[0];
        return [v.isLiked, v.isRated];
      })
      .toEqual([true, true]);

    await current(page).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('button', { name: 'Report' }).click();
    await expect(page.getByLabel('Email')).toHaveCount(0);
    await page.getByLabel('Wrong hashtag').check();
    await page.getByLabel('Description').fill('The tags do not match the clip.');
    await page.getByRole('button', { name: 'Send report' }).click();
    await expect(toast(page)).toHaveText('Report sent');
  });
  test('rating mode: the faces sit on each unrated video and a choice rates it and moves on', async ({
    page,
    request,
  }) => {
    const { bearer } = await signedIn(page, request);

    await page.goto('/videos-rating/feed');
    await expect(page.getByRole('heading', { name: 'Unrated videos' })).toBeVisible();
    await expect(current(page)).toHaveAttribute('aria-posinset', '1');
    const title = await current(page).getAttribute('aria-label');
    await expect(page.getByText('How was this video?')).toBeVisible();
    // Rating mode asks on every video: the prompt that opens by itself elsewhere stays away.
    await page.getByRole('button', { name: 'Good' }).click();
    await expect(toast(page)).toHaveText('Video rated');
    await expect(current(page)).toHaveAttribute('aria-posinset', '2');
    await expect(page.getByRole('dialog', { name: 'Rate this video' })).toHaveCount(0);
    const rated = (
      await (await request.get('/v1/video-rating/rated?per_page=50', { headers: bearer })).json()
    ).data;
    expect(rated.map((v: { title: string }) => v.title)).toContain(title);
  });
});

// Issue 6 acceptance: the app keeps working offline and nothing a viewer does is lost, on the real built app,
// its service worker and the real server. Only the network edge is played with: the browser's offline mode,
// and answers of 503 at the network boundary.
import { expect, type Page, test } from 'playwright/test';
import { counters } from './counters';
import { readKv } from './device';
import { closeRatingPrompt } from './rating-prompt';

interface Video {
  id: number;
  userId: number;
  title: string;
}

interface QueuedPost {
  id: string;
  kind: string;
  body: { video_id?: number; type?: string };
}

const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

/** What the app keeps in IndexedDB: its outbox, and one key of its device store. */
const outbox = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<QueuedPost[]>((resolve, reject) => {
        const open = indexedDB.open('shortcams-outbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('entries').objectStore('entries').getAll();
          all.onsuccess = () => resolve(all.result as QueuedPost[]);
          all.onerror = () => reject(all.error);
        };
      }),
  );
const cacheSize = (page: Page, part: string) =>
  page.evaluate(async (p) => {
    let n = 0;
    for (const name of await caches.keys())
      if (name.includes(p)) n += (await (await caches.open(name)).keys()).length;
    return n;
  }, part);

/**
 * The rating prompt opens by itself after a random 2 to 5 videos, possibly between two steps of a test:
 * whenever it stands in the way of a click, it is dismissed first.
 */
async function dismissRatingPromptWhenItShows(page: Page) {
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'Rate this video' }), async () => {
    await page.keyboard.press('Escape');
  });
}

/** The server's counters for one video, and whether it knows this guest liked it. */
/** Opens /discover online, as a first visit, and returns the 'Most viewed all time' list it showed. */
async function openDiscover(page: Page): Promise<Video[]> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/discover');
  await page.goto('/discover');
  const list = ((await (await answer).json()).videos.viewed_all_time as Video[]).slice(0, 10);
  expect(list).toHaveLength(10);
  const carousel = page.getByRole('region', { name: 'Most viewed all time' });
  await carousel.scrollIntoViewIfNeeded();
  for (const img of await carousel.locator('img').all()) await img.scrollIntoViewIfNeeded();
  return list;
}

// Offline is the service worker's job: it serves the shell, the caches and the outbox here.
test.use({ serviceWorkers: 'allow' });

test.describe('offline', () => {
  test('the shell and discover come from the cache offline; 5 likes and 10 views made offline reach the server once each', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(240_000);
    await dismissRatingPromptWhenItShows(page);
    const list = await openDiscover(page);
    const carousel = page.getByRole('region', { name: 'Most viewed all time' });
    // First visit: the service worker takes over the page and keeps what it showed.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expect.poll(() => cacheSize(page, 'discover')).toBe(1);
    await expect.poll(() => cacheSize(page, 'images')).toBeGreaterThanOrEqual(10);
    const guestId = String(await readKv(page, 'guestId'));
    const before = await Promise.all(list.map((v) => counters(request, v, guestId)));

    await context.setOffline(true);
    const discoverAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/discover');
    await page.reload();
    expect((await discoverAnswer).fromServiceWorker()).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByText("You're offline · likes and views are saved")).toBeVisible();
    await expect(carousel.getByRole('link', { name: list[0]?.title, exact: true })).toBeVisible();
    const thumbs = carousel.locator('img');
    for (let i = 0; i < 3; i++) {
      await thumbs.nth(i).scrollIntoViewIfNeeded();
      await expect
        .poll(() => thumbs.nth(i).evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
    }

    // Into the carousel's feed: the list travels with the tap, so the feed needs no network.
    await carousel.getByRole('link', { name: list[0]?.title, exact: true }).click();
    await expect(current(page)).toHaveAttribute('aria-label', list[0]?.title ?? '');
    for (const _ of [0, 1]) await page.getByRole('button', { name: 'Got it' }).click();
    for (let i = 0; i < 10; i++) {
      await expect(current(page)).toHaveAttribute('aria-posinset', String(i + 1));
      await closeRatingPrompt(page);
      if (i < 5) {
        await current(page).getByRole('button', { name: 'Like' }).click();
        await expect(current(page).getByRole('button', { name: 'Unlike' })).toBeVisible();
      }
      // Seen offline: the view waits in the outbox with the others.
      await expect
        .poll(async () => (await outbox(page)).filter((e) => e.kind === 'video-view').length)
        .toBe(i + 1);
      if (i < 9) {
        await closeRatingPrompt(page);
        // Keys move at most one video per 500 ms (spec §9 throttle).
        await page.waitForTimeout(600);
        await page.keyboard.press('PageDown');
      }
    }
    const queued = await outbox(page);
    const viewed = (kind: string) =>
      queued
        .filter((e) => e.kind === kind)
        .map((e) => e.body.video_id)
        .sort();
    const ids = list.map((v) => v.id);
    expect(viewed('video-view')).toEqual([...ids].sort());
    expect(viewed('video-like')).toEqual(ids.slice(0, 5).sort());

    // A reload while still offline: the shell comes back, and so does everything queued.
    await closeRatingPrompt(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click();
    await page.reload();
    await expect(carousel.getByRole('link', { name: list[0]?.title, exact: true })).toBeVisible();
    expect((await outbox(page)).map((e) => e.id).sort()).toEqual(queued.map((e) => e.id).sort());
    expect(await readKv(page, 'likedVideos')).toEqual(ids.slice(0, 5));

    // Online again: each queued post goes out once, under the key it was queued with.
    const sentKeys: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/v1\/video-(like|view)$/.test(r.url()))
        sentKeys.push(r.headers()['idempotency-key'] ?? '');
    });
    await context.setOffline(false);
    await expect.poll(async () => (await outbox(page)).length, { timeout: 30_000 }).toBe(0);
    expect(sentKeys.sort()).toEqual(queued.map((e) => e.id).sort());

    const after = await Promise.all(list.map((v) => counters(request, v, guestId)));
    for (const [i, video] of list.entries()) {
      const was = before[i];
      const now = after[i];
      expect(now?.views, `views of ${video.title}`).toBe((was?.views ?? 0) + 1);
      expect(now?.likes, `likes of ${video.title}`).toBe((was?.likes ?? 0) + (i < 5 ? 1 : 0));
      expect(now?.liked, `liked ${video.title}`).toBe(i < 5);
    }
  });

  test('a video watched once plays its start again from the device, offline too', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await dismissRatingPromptWhenItShows(page);
    const list = await openDiscover(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const carousel = page.getByRole('region', { name: 'Most viewed all time' });
    const title = list[0]?.title ?? '';
    const playedSeconds = () =>
      current(page)
        .locator('video')
        .evaluate((v: HTMLVideoElement) => v.currentTime);

    // Watched online for a moment: the worker keeps its playlists and first segments as the player asks.
    await carousel.getByRole('link', { name: title, exact: true }).click();
    await expect(current(page)).toHaveAttribute('aria-label', title);
    for (const _ of [0, 1]) await page.getByRole('button', { name: 'Got it' }).click();
    await expect.poll(playedSeconds, { timeout: 30_000 }).toBeGreaterThan(1);
    await expect.poll(() => cacheSize(page, 'video-starts')).toBeGreaterThanOrEqual(3);

    // Offline, the same video from the cached discover: it plays again, where before it stayed on its poster.
    await context.setOffline(true);
    await page.goto('/discover');
    await carousel.getByRole('link', { name: title, exact: true }).click();
    await expect(current(page)).toHaveAttribute('aria-label', title);
    await expect.poll(playedSeconds, { timeout: 30_000 }).toBeGreaterThan(1);
  });

  test('a server answering 503 for a while loses nothing, and retries keep their keys', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await dismissRatingPromptWhenItShows(page);
    const list = await openDiscover(page);
    const guestId = String(await readKv(page, 'guestId'));
    const before = await Promise.all(list.slice(0, 3).map((v) => counters(request, v, guestId)));

    const refused: string[] = [];
    await page.route(/\/v1\/video-(like|view)$/, (route) => {
      refused.push(route.request().headers()['idempotency-key'] ?? '');
      return route.fulfill({ status: 503, json: { message: 'Service Unavailable' } });
    });
    const carousel = page.getByRole('region', { name: 'Most viewed all time' });
    await carousel.getByRole('link', { name: list[0]?.title, exact: true }).click();
    for (const _ of [0, 1]) await page.getByRole('button', { name: 'Got it' }).click();
    for (let i = 0; i < 3; i++) {
      await expect(current(page)).toHaveAttribute('aria-posinset', String(i + 1));
      await closeRatingPrompt(page);
      await current(page).getByRole('button', { name: 'Like' }).click();
      // Played online, so viewed; the server refuses it, the outbox keeps it.
      await expect
        .poll(async () => (await outbox(page)).filter((e) => e.kind === 'video-view').length, {
          timeout: 20_000,
        })
        .toBe(i + 1);
      if (i < 2) {
        await closeRatingPrompt(page);
        // Keys move at most one video per 500 ms (spec §9 throttle).
        await page.waitForTimeout(600);
        await page.keyboard.press('PageDown');
      }
    }
    const queued = await outbox(page);
    expect(queued).toHaveLength(6);
    expect(refused.length).toBeGreaterThan(0);

    // The server is back: the outbox's own back-off timer delivers everything, no reload, no event needed.
    const delivered: string[] = [];
    page.on('response', (res) => {
      if (/\/v1\/video-(like|view)$/.test(res.url()) && res.ok())
        delivered.push(res.request().headers()['idempotency-key'] ?? '');
    });
    // Waits for refusals still in flight, so that none of them slips through to the server unseen.
    await page.unrouteAll({ behavior: 'wait' });
    await expect.poll(async () => (await outbox(page)).length, { timeout: 90_000 }).toBe(0);
    await expect.poll(() => [...new Set(delivered)].sort()).toEqual(queued.map((e) => e.id).sort());
    for (const key of refused) expect(delivered).toContain(key);

    for (const [i, video] of list.slice(0, 3).entries()) {
      const now = await counters(request, video, guestId);
      expect(now.likes, `likes of ${video.title}`).toBe((before[i]?.likes ?? 0) + 1);
      expect(now.views, `views of ${video.title}`).toBe((before[i]?.views ?? 0) + 1);
      expect(now.liked).toBe(true);
    }
  });
});

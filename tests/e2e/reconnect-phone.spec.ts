// Issue 35: a screen whose load failed for want of the server loads again by itself once the server answers
// (no tap on Retry), and the feed in the system's media controls (Media Session). Phone project only: the
// wide layout changes nothing here.
import { expect, type Page, test } from 'playwright/test';
import { freshViewer } from './members';
import { closeRatingPrompt } from './rating-prompt';

/** The server unreachable for these paths: requests to them get no answer at all (status 0). */
async function unreachable(page: Page, paths: (path: string) => boolean) {
  const asked: string[] = [];
  const handler = (route: import('playwright/test').Route) => {
    asked.push(new URL(route.request().url()).pathname);
    return route.abort('connectionrefused');
  };
  const matcher = (url: URL) => paths(url.pathname);
  await page.route(matcher, handler);
  return {
    asked,
    /** The server answers these paths again. */
    restore: () => page.unroute(matcher, handler),
  };
}

test.describe('screens heal when the network returns', () => {
  test('a tag grid that failed shows its videos once the server answers again, probing /healthz meanwhile', async ({
    page,
    request,
  }) => {
    const tag = (await (await request.get('/v1/videos?per_page=1')).json()).data[0].tags[0];
    const videos = `/v1/tags/${tag.id}/videos`;
    const all = (await (await request.get(`${videos}?per_page=30`)).json()).data as { title: string }[];
    // The browser believes it is online all along: only the server does not answer.
    const probes: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/healthz') probes.push(r.url());
    });
    const down = await unreachable(page, (path) => path === videos || path === '/healthz');
    await page.goto(`/tag/${tag.id}`);
    const failed = page.getByRole('alert').filter({ hasText: "Couldn't load videos" });
    await expect(failed).toBeVisible();
    await expect(failed.getByRole('button', { name: 'Retry' })).toBeVisible();
    // While the screen waits, the app asks the server's cheap health check whether it answers again.
    await expect.poll(() => probes.length, { timeout: 6000 }).toBeGreaterThanOrEqual(2);
    await expect(failed).toBeVisible();

    await down.restore();
    const started = Date.now();
    // No click: the grid comes by itself, within a probe's interval (1.5 s) and the load.
    const grid = page.getByRole('list', { name: 'Videos' });
    await expect(grid.getByRole('link')).toHaveCount(all.length, { timeout: 5000 });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(failed).toBeHidden();
    await expect(page.getByRole('heading', { name: `#${tag.name}`, level: 1 })).toBeVisible();

    // Healed, nothing waits: the probing stops.
    const before = probes.length;
    await page.waitForTimeout(4000);
    expect(probes.length).toBe(before);
  });

  test("the viewer's following list that failed loads on the browser's online event, without Retry", async ({
    page,
    context,
    request,
  }) => {
    await freshViewer(request, page);
    const path = '/v1/profile/following-models';
    // /healthz stays unreachable all through: here the browser's own online event is what says "back".
    const down = await unreachable(page, (p) => p === path || p === '/healthz');
    await page.goto('/account/following');
    const failed = page.getByRole('alert').filter({ hasText: "Couldn't load who you follow" });
    await expect(failed).toBeVisible();

    await context.setOffline(true);
    await down.restore();
    await page.route('**/healthz', (route) => route.abort('connectionrefused'));
    await page.waitForTimeout(500);
    await expect(failed).toBeVisible();
    await context.setOffline(false);
    await expect(page.getByRole('heading', { name: 'You are not following any model yet' })).toBeVisible({
      timeout: 3000,
    });
    await expect(failed).toBeHidden();
  });

  test('a failure that would be the same again (an unknown tag, 404) waits for the viewer', async ({
    page,
    context,
  }) => {
    await page.goto('/tag/999999999');
    await expect(page.getByRole('alert').filter({ hasText: 'Tag not found' })).toBeVisible();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await context.setOffline(true);
    await context.setOffline(false);
    await page.waitForTimeout(3000);
    expect(asked.filter((p) => p.startsWith('/v1/tags/') || p === '/healthz')).toEqual([]);
  });
});

/** The current slot of the feed. */
const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

test.describe('media session', () => {
  test('shows the video on screen, and its next, previous, play and pause move and play the feed', async ({
    page,
  }) => {
    // The feed's action handlers, kept where the test can call them as the system's controls would.
    await page.addInitScript(() => {
      const session = navigator.mediaSession;
      const handlers: Record<string, MediaSessionActionHandler | null> = {};
      (window as unknown as { mediaHandlers: typeof handlers }).mediaHandlers = handlers;
      const original = session.setActionHandler.bind(session);
      session.setActionHandler = (action, handler) => {
        handlers[action] = handler;
        original(action, handler);
      };
    });
    const invoke = (action: MediaSessionAction) =>
      page.evaluate((a) => {
        const handler = (window as unknown as { mediaHandlers: Record<string, MediaSessionActionHandler> })
          .mediaHandlers[a];
        if (!handler) throw new Error(`no ${a} handler`);
        handler({ action: a });
      }, action);
    const metadata = () =>
      page.evaluate(() => {
        const m = navigator.mediaSession.metadata;
        return m && { title: m.title, artist: m.artist, artwork: m.artwork.map((a) => a.src) };
      });
    await page.goto('/');
    const video = current(page).locator('video');
    await expect(video).toBeVisible();
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0))
      .toBe(true);
    const first = (await current(page).getAttribute('aria-label')) ?? '';
    expect(first).not.toBe('');
    const creator = await current(page).locator('.feed-author-name').textContent();
    const meta = await metadata();
    expect(meta?.title).toBe(first);
    expect(meta?.artist).toBe(creator);
    expect(meta?.artwork).toHaveLength(1);
    expect(meta?.artwork[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\//);

    // Next track: the feed moves on as a swipe would, and the session shows the new video.
    await invoke('nexttrack');
    await expect(current(page)).toHaveAttribute('aria-posinset', '2');
    await closeRatingPrompt(page);
    const second = (await current(page).getAttribute('aria-label')) ?? '';
    expect(second).not.toBe(first);
    await expect.poll(async () => (await metadata())?.title).toBe(second);

    await invoke('previoustrack');
    await expect(current(page)).toHaveAttribute('aria-posinset', '1');
    await closeRatingPrompt(page);
    await expect.poll(async () => (await metadata())?.title).toBe(first);
    // At the top there is nothing before: previous stays put, as a swipe down would.
    await invoke('previoustrack');
    await expect(current(page)).toHaveAttribute('aria-posinset', '1');

    // Pause and play act on the video on screen.
    const onScreen = current(page).locator('video');
    await invoke('pause');
    await expect.poll(() => onScreen.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await invoke('play');
    await expect.poll(() => onScreen.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);

    // Leaving the feed (an in-app move, as the back gesture makes) clears what it set.
    await page.evaluate(() => {
      history.pushState(null, '', '/discover');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('region', { name: 'Most viewed all time' })).toBeVisible();
    await expect.poll(() => metadata()).toBeNull();
    const cleared = await page.evaluate(() =>
      Object.values((window as unknown as { mediaHandlers: object }).mediaHandlers).every((h) => h === null),
    );
    expect(cleared).toBe(true);
  });
});

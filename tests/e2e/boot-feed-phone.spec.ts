import { expect, type Page, test } from 'playwright/test';
import { readKv } from './device';

// Issue 17: index.html's inline script asks for the first screen's data (the home feed's first page, the
// discover answer) before the app's code has arrived, and the app takes that answer over instead of asking a
// second time. Phone project only.
const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

/** The app's entry file arrives `ms` late, as on a slow network: what the inline script starts must not wait. */
async function holdEntry(page: Page, ms: number) {
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

// Routing switches the HTTP cache off, so each visit downloads the entry again, and late; the service worker
// would serve it from its precache, untouched by the route.
test.use({ serviceWorkers: 'block' });

async function visit(page: Page) {
  const feedRequests: string[] = [];
  // The first page only: while the tunnel buffer fills, the feed asks for its next page early (issue 35).
  const onRequest = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname === '/v1/videos' && (url.searchParams.get('page') ?? '1') === '1')
      feedRequests.push(request.url());
  };
  page.on('request', onRequest);
  await page.goto('/');
  await expect(current(page).locator('video')).toHaveAttribute('src', /\.m3u8/);
  page.off('request', onRequest);
  const timing = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const feed = entries.find((e) => new URL(e.name).pathname === '/v1/videos');
    const entry = entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name));
    return { feedStart: feed?.startTime ?? Number.NaN, entryArrived: entry?.responseEnd ?? Number.NaN };
  });
  return { feedRequests, ...timing };
}

test('the first feed page is asked for once, before the app code has arrived', async ({ page }) => {
  await holdEntry(page, 800);

  // A first visit: the script picks the guest id, and the app keeps it as the device's.
  const first = await visit(page);
  expect(first.feedRequests).toHaveLength(1);
  expect(first.feedStart).toBeLessThan(first.entryArrived);
  const guestId = await readKv(page, 'guestId');
  expect(first.feedRequests[0]).toContain(`gender=m&guest_id=${guestId}`);

  // The next visit asks for the URL the app left for it: the same guest, still one request.
  const again = await visit(page);
  expect(again.feedRequests).toEqual([first.feedRequests[0]]);
  expect(again.feedStart).toBeLessThan(again.entryArrived);
});

test("/discover: its answer and the first carousel's thumbnails are asked for before the app code", async ({
  page,
}) => {
  await holdEntry(page, 800);
  const visitDiscover = async () => {
    const discoverRequests: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname === '/v1/discover') discoverRequests.push(request.url());
    };
    page.on('request', onRequest);
    await page.goto('/discover');
    const firstTile = page.locator('.discover-body .video-tile-media img').first();
    await expect(firstTile).toBeVisible();
    page.off('request', onRequest);
    const thumbnail = await firstTile.evaluate((img: HTMLImageElement) => img.currentSrc);
    const timing = await page.evaluate((thumbnail) => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const start = (test: (url: URL) => boolean) =>
        entries.find((e) => test(new URL(e.name)))?.startTime ?? Number.NaN;
      return {
        discoverStart: start((url) => url.pathname === '/v1/discover'),
        thumbnailStart: start((url) => url.href === thumbnail),
        entryArrived:
          entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name))?.responseEnd ?? Number.NaN,
      };
    }, thumbnail);
    return { discoverRequests, ...timing };
  };

  // A returning visitor (the home feed seen once) opens Discover for the first time: no URL is remembered for
  // it yet, and the script asks under the device's own guest id, not a guess the app would not adopt.
  await visit(page);
  const first = await visitDiscover();
  expect(first.discoverRequests).toHaveLength(1);
  expect(first.discoverRequests[0]).toContain(`gender=m&guest_id=${await readKv(page, 'guestId')}`);
  expect(first.discoverStart).toBeLessThan(first.entryArrived);
  // The picture the first screenful shows was on its way before React could have asked for it.
  expect(first.thumbnailStart).toBeLessThan(first.entryArrived);

  const again = await visitDiscover();
  expect(again.discoverRequests).toEqual([first.discoverRequests[0]]);
  expect(again.thumbnailStart).toBeLessThan(again.entryArrived);
});

test('the splash paints before the stylesheets arrive, and the app never renders without them', async ({
  page,
}) => {
  // The app's stylesheets held, as on a slow network; everything else comes at once.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/[^/]+\.css$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'commit' });
  // Painted: the splash (its style is inline), while no stylesheet has come.
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('paint').map((entry) => entry.name)))
    .toContain('first-contentful-paint');
  await expect(page.locator('#root .boot')).toBeVisible();
  // The modules arrive meanwhile, but the app waits for its styles rather than render unstyled.
  await page.waitForTimeout(1000);
  await expect(page.locator('#root .boot')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  release();
  await expect(current(page).locator('video')).toHaveAttribute('src', /\.m3u8/);
  // Styled: the tab bar sits fixed at the bottom, not where the browser's default would put it.
  const tabBar = page.getByRole('navigation', { name: 'Main' });
  await expect(tabBar).toBeVisible();
  expect(await tabBar.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
});

test('the first screen replaces the splash directly, with no loading spinner in between', async ({
  page,
}) => {
  // A screen's loading fallback (the spinner the layout shows while a screen's code loads) committed on the
  // first render: React then held the screen back until 300 ms after it, the first video's request with it.
  await page.addInitScript(() => {
    const w = window as unknown as { __fallbackShown: boolean };
    w.__fallbackShown = false;
    const FALLBACK = '.app-main > .spinner-fill';
    new MutationObserver((mutations) => {
      // The fallback comes either on its own or inside the whole layout, at the first commit.
      const nodes = mutations.flatMap((mutation) => Array.from(mutation.addedNodes));
      if (
        nodes.some(
          (node) => node instanceof Element && (node.matches(FALLBACK) || node.querySelector(FALLBACK)),
        )
      )
        w.__fallbackShown = true;
    }).observe(document, { subtree: true, childList: true });
  });
  const fallbackShown = () =>
    page.evaluate(() => (window as unknown as { __fallbackShown: boolean }).__fallbackShown);

  await page.goto('/');
  await expect(current(page).locator('video')).toHaveAttribute('src', /\.m3u8/);
  expect(await fallbackShown()).toBe(false);

  await page.goto('/discover');
  await expect(page.getByRole('heading', { name: 'Discover', level: 1 })).toBeVisible();
  expect(await fallbackShown()).toBe(false);

  await page.goto('/support');
  await expect(page.getByRole('heading', { name: 'User details', level: 1 })).toBeVisible();
  expect(await fallbackShown()).toBe(false);
});

test("each first screen's code is on its way with the entry, and no other screen's", async ({ page }) => {
  await holdEntry(page, 800);
  const feedChunk = /\/assets\/FeedScreen-[^/]+\.js$/;
  const discoverChunk = /\/assets\/DiscoverScreen-[^/]+\.js$/;
  const asked: string[] = [];
  page.on('request', (request) => asked.push(request.url()));
  /** When each screen's chunk started, null if it was never asked for, and when the entry arrived. */
  const starts = () =>
    page.evaluate(
      ({ feed, discover }) => {
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const find = (re: RegExp) => entries.find((e) => re.test(e.name));
        return {
          feed: find(new RegExp(feed))?.startTime ?? null,
          discover: find(new RegExp(discover))?.startTime ?? null,
          entryArrived: find(/\/assets\/index-[^/]+\.js$/)?.responseEnd ?? Number.NaN,
        };
      },
      { feed: feedChunk.source, discover: discoverChunk.source },
    );

  await page.goto('/');
  await expect(current(page).locator('video')).toHaveAttribute('src', /\.m3u8/);
  const home = await starts();
  expect(home.feed ?? Number.NaN).toBeLessThan(home.entryArrived);
  expect(home.discover).toBeNull();

  // Discover's first screen has no use for the feed's code: its files keep the network to themselves.
  asked.length = 0;
  await page.goto('/discover');
  await expect(page.locator('.discover-body .video-tile-media img').first()).toBeVisible();
  const discover = await starts();
  expect(discover.discover ?? Number.NaN).toBeLessThan(discover.entryArrived);
  expect(discover.feed).toBeNull();
  expect(asked.filter((url) => feedChunk.test(url))).toEqual([]);
});

test('the first video starts loading before the app code, in the element that then plays it', async ({
  page,
}) => {
  // The first video must not wait for the app code.
  await holdEntry(page, 1500);
  const playlists: string[] = [];
  page.on('request', (request) => {
    if (/\/master\.m3u8$/.test(request.url())) playlists.push(request.url());
  });
  await page.goto('/');
  const video = current(page).locator('video');
  await expect(video).toHaveAttribute('src', /\/master\.m3u8$/);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);

  const timing = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    return {
      playlist: entries.find((e) => /\/master\.m3u8$/.test(e.name))?.startTime ?? Number.NaN,
      entryArrived: entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name))?.responseEnd ?? Number.NaN,
    };
  });
  expect(timing.playlist).toBeLessThan(timing.entryArrived);
  // Taken over, not loaded a second time: one request for the video on screen, from the one element.
  const src = await video.getAttribute('src');
  expect(playlists.filter((url) => url.endsWith(src ?? '-'))).toHaveLength(1);
});

/** What `watchBootStage` notes about index.html's on-screen video. */
interface BootSeen {
  frameAt: number;
  onScreen: boolean;
  pauses: number;
  back: number;
  element?: HTMLVideoElement;
}

/**
 * What the viewer sees of index.html's element (kept on `window.__boot`): its first frame (and whether it was on
 * screen then), and any pause or jump back once the feed has it.
 */
const watchBootStage = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as { __boot: BootSeen };
    w.__boot = { frameAt: Number.NaN, onScreen: false, pauses: 0, back: 0 };
    let last = 0;
    new MutationObserver(() => {
      const video = document.querySelector<HTMLVideoElement>('.boot-stage video');
      if (!video || w.__boot.element === video) return;
      w.__boot.element = video;
      // `now`: when this frame's callbacks began, the same for the boot script's own, which lets the app's
      // files go.
      video.requestVideoFrameCallback((now) => {
        const box = video.getBoundingClientRect();
        w.__boot.frameAt = now;
        w.__boot.onScreen = box.top === 0 && box.width === innerWidth && box.height > innerHeight / 2;
      });
      video.addEventListener('pause', () => w.__boot.pauses++);
      video.addEventListener('timeupdate', () => {
        if (video.currentTime < last) w.__boot.back++;
        last = video.currentTime;
      });
    }).observe(document, { childList: true, subtree: true });
  });

/** What `watchBootStage` saw, and when the app's entry module was asked for. */
const bootSeen = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __boot: BootSeen };
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const shown = document.querySelector('[role=feed] article[aria-hidden=false] video');
    return {
      frameAt: w.__boot.frameAt,
      onScreen: w.__boot.onScreen,
      pauses: w.__boot.pauses,
      back: w.__boot.back,
      taken: w.__boot.element === shown,
      stageLeft: document.querySelector('.boot-stage') !== null,
      entryAsked: entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name))?.startTime ?? Number.NaN,
    };
  });

test('on a first visit the first video plays on screen before the app code is asked for, and plays on in the feed', async ({
  page,
}) => {
  await watchBootStage(page);
  await page.goto('/');
  const video = current(page).locator('video');
  await expect(video).toHaveAttribute('src', /\/master\.m3u8$/);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.5);
  const seen = await bootSeen(page);
  // Its first frame came on screen, where the feed's stage is, before the app's code was even asked for.
  expect(seen.onScreen).toBe(true);
  expect(seen.frameAt).toBeLessThanOrEqual(seen.entryAsked);
  // The feed plays that very element on from where it was: no pause, no jump back, nothing left behind.
  expect(seen.taken).toBe(true);
  expect(seen.pauses).toBe(0);
  expect(seen.back).toBe(0);
  expect(seen.stageLeft).toBe(false);
});

test.describe('before the age gate is answered', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('no video is downloaded', async ({ page }) => {
    const media: string[] = [];
    page.on('request', (request) => {
      if (/\.(m3u8|ts)$/.test(new URL(request.url()).pathname)) media.push(request.url());
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Adults only' })).toBeVisible();
    // The boot script's feed answer is in (its thumbnail preloaded) by the time the network is quiet.
    await page.waitForLoadState('networkidle');
    expect(media).toEqual([]);
  });
});

test('/discover opens on its sections when its answer came before the app code, never on the skeleton', async ({
  page,
}) => {
  // The entry late, as on a slow network: the boot script's answer is in long before the first render.
  await holdEntry(page, 800);
  await page.addInitScript(() => {
    const w = window as unknown as { __skeletonShown: boolean };
    w.__skeletonShown = false;
    new MutationObserver((mutations) => {
      for (const mutation of mutations)
        for (const node of Array.from(mutation.addedNodes))
          if (
            node instanceof Element &&
            (node.matches('[aria-busy=true]') || node.querySelector('[aria-busy=true]'))
          )
            w.__skeletonShown = true;
    }).observe(document, { subtree: true, childList: true });
  });
  // Once on /discover, so that the next load's boot script knows the URL to ask for.
  await page.goto('/discover');
  await expect(page.locator('.discover-body .video-tile-media img').first()).toBeVisible();
  await page.reload();
  await expect(page.locator('.discover-body .video-tile-media img').first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __skeletonShown: boolean }).__skeletonShown)).toBe(
    false,
  );
});

test.describe('a return visit, the service worker in control', () => {
  test.use({ serviceWorkers: 'allow' });

  const shownVideo = (page: Page) => current(page).locator('video');
  /** The video on screen plays `src`, and its clock runs. */
  async function expectPlaying(page: Page, src: string) {
    await expect(shownVideo(page)).toHaveAttribute('src', src);
    await expect
      .poll(() => shownVideo(page).evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeGreaterThan(0);
  }
  /** Whether the service worker's caches hold `src`. */
  const held = (page: Page, src: string) => page.evaluate((src) => caches.match(src).then(Boolean), src);
  /** The feed's answer `ms` late (every request that leaves the device); what the worker holds is not. */
  async function slowNetwork(page: Page, ms: number) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: ms,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  /** Each element index.html's script started a video in, kept to look at after the app took over. */
  const recordBootVideos = (page: Page) =>
    page.addInitScript(() => {
      const w = window as unknown as { __bootVideos: HTMLVideoElement[]; __shortcamsBootVideo: unknown };
      w.__bootVideos = [];
      let current: unknown;
      Object.defineProperty(window, '__shortcamsBootVideo', {
        configurable: true,
        get: () => current,
        set: (video) => {
          current = video;
          if (video instanceof HTMLVideoElement) w.__bootVideos.push(video);
        },
      });
    });
  /** When the master playlist `src` was first asked for, and when the feed's answer had arrived. */
  const timing = (page: Page, src: string) =>
    page.evaluate((src) => {
      const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        playlist: entries.find((e) => e.name.endsWith(src))?.startTime ?? Number.NaN,
        answer: entries.find((e) => new URL(e.name).pathname === '/v1/videos')?.responseEnd ?? Number.NaN,
      };
    }, src);

  /** A first visit that plays the first video until the worker holds its start; returns its playlist. */
  async function firstVisit(page: Page) {
    await page.goto('/');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expect
      .poll(() => shownVideo(page).evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeGreaterThan(0);
    const src = (await shownVideo(page).getAttribute('src')) ?? '';
    await expect.poll(() => held(page, src), { timeout: 15_000 }).toBe(true);
    return src;
  }

  /** The next visit, its boot elements recorded, with every request that leaves the device 800 ms late. */
  async function slowReload(page: Page) {
    await recordBootVideos(page);
    await slowNetwork(page, 800);
    await page.reload();
  }

  test('the video the feed opened on last time starts from the device before the feed answer is in', async ({
    page,
  }) => {
    const src = await firstVisit(page);
    await slowReload(page);
    await expectPlaying(page, src);
    const { playlist: asked, answer } = await timing(page, src);
    expect(asked).toBeLessThan(answer);
    // One element started, and it is the one on screen.
    expect(
      await page.evaluate(() => {
        const started = (window as unknown as { __bootVideos: HTMLVideoElement[] }).__bootVideos;
        const shown = document.querySelector('[role=feed] article[aria-hidden=false] video');
        return started.length === 1 && started[0] === shown;
      }),
    ).toBe(true);
  });

  test("the app's code waits for the first frame here too: the player's steps do not queue behind it", async ({
    page,
  }) => {
    const src = await firstVisit(page);
    await watchBootStage(page);
    await page.reload();
    await expectPlaying(page, src);
    const seen = await bootSeen(page);
    // Read from the device, but run on the main thread, where the player's next requests waited behind it.
    expect(seen.onScreen).toBe(true);
    expect(seen.frameAt).toBeLessThanOrEqual(seen.entryAsked);
    expect(seen.taken).toBe(true);
    expect(seen.pauses).toBe(0);
  });

  test('a guess the answer proves wrong is stopped, and the answer’s first video plays', async ({ page }) => {
    const first = await firstVisit(page);
    // Another video whose start this device holds, remembered as the one the feed opened on.
    const other = await page.evaluate(async () => {
      const answer = await (await fetch('/v1/videos?gender=m')).json();
      return (answer.data as { playlistUrl: string }[]).map((v) => v.playlistUrl);
    });
    const guess = other.find((url) => url !== first) ?? '';
    await page.evaluate(async (src) => {
      await (await fetch(src)).text();
      localStorage.setItem('shortcams.bootFeedVideo', JSON.stringify({ src }));
    }, guess);
    await expect.poll(() => held(page, guess)).toBe(true);

    await slowReload(page);
    await expectPlaying(page, first);
    // The guess was started (before the answer), then dropped: no source left to download from.
    const { playlist: asked, answer } = await timing(page, guess);
    expect(asked).toBeLessThan(answer);
    expect(
      await page.evaluate(() =>
        (window as unknown as { __bootVideos: HTMLVideoElement[] }).__bootVideos.map((v) =>
          v.getAttribute('src'),
        ),
      ),
    ).toEqual([null, first]);
  });
});

// The feed player on the real built app in Chromium: navigation to first video frame (cold, and with the
// service worker warm; unthrottled and on "Slow 4G"), swipe to next frame, and heap and element counts
// after 200 swipes. Frames are timed with requestVideoFrameCallback inside the page.
import { type BrowserContext, chromium, devices, type Page } from 'playwright';
import { confirmAgeOnce } from '../e2e/age-gate';
import { chromiumLaunchOptions } from '../e2e/browser';
import { startServer } from '../e2e/server';

// Chrome DevTools' "Slow 4G" preset.
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/** How long a first frame may take before the bench gives up on it (and says so) rather than hang. */
const FIRST_FRAME_GIVE_UP_MS = 30_000;

/** ms from navigation start to the first presented frame of the video on screen; NaN when none came. */
async function firstFrame(page: Page, url: string): Promise<number> {
  await page.goto(url);
  return page.evaluate(
    (giveUpMs) =>
      new Promise<number>((resolve) => {
        setTimeout(() => resolve(Number.NaN), giveUpMs);
        const wait = () => {
          const video = document.querySelector<HTMLVideoElement>(
            '[role=feed] article[aria-hidden=false] video',
          );
          if (!video) return requestAnimationFrame(wait);
          video.requestVideoFrameCallback(() => resolve(performance.now()));
        };
        wait();
      }),
    FIRST_FRAME_GIVE_UP_MS,
  );
}

async function throttle(context: BrowserContext, page: Page, on: boolean) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send(
    'Network.emulateNetworkConditions',
    on ? SLOW_4G : { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 },
  );
}

/**
 * ms from a PageDown to the first presented frame of the next video; 'prompt' when the rating prompt opened
 * on arrival and paused the video before its first frame (a viewer answers it first: not a swipe to time);
 * null when no next video plays within 5 s (the end of the list, or a video that never plays): a bench must
 * report that, not hang on it.
 */
async function swipeToFrame(
  page: Page,
  key: 'PageDown' | 'PageUp' = 'PageDown',
): Promise<number | 'prompt' | null> {
  return page.evaluate(
    (key) =>
      new Promise<number | 'prompt' | null>((resolve) => {
        const before = document.querySelector('[role=feed] article[aria-hidden=false]');
        const t0 = performance.now();
        const giveUp = setTimeout(
          () => resolve(document.querySelector('dialog[open]') ? 'prompt' : null),
          5000,
        );
        window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
        const wait = () => {
          const now = document.querySelector('[role=feed] article[aria-hidden=false]');
          const video = now?.querySelector('video');
          if (!now || now === before || !video) return requestAnimationFrame(wait);
          video.requestVideoFrameCallback(() => {
            clearTimeout(giveUp);
            resolve(performance.now() - t0);
          });
        };
        wait();
      }),
    key,
  );
}

/** Both genders, so the home feed holds every demo clip (the device default is 'm' only). */
const bothGenders = (context: BrowserContext) =>
  context.addInitScript(() => {
    const open = indexedDB.open('shortcams');
    open.onupgradeneeded = () => open.result.createObjectStore('kv');
    open.onsuccess = () => {
      const tx = open.result.transaction('kv', 'readwrite');
      tx.objectStore('kv').put('m,t', 'preferencesCategory');
    };
  });

// tsx compiles this file with esbuild's keepNames, which wraps the functions passed to page.evaluate in a
// `__name` helper that only exists in Node: give the page a harmless one.
const defineNameHelper = (context: BrowserContext) =>
  context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');

/**
 * Where Chromium plays HLS natively, hls.js never loads: hiding native support shows the path of browsers
 * without it (Firefox, older Chrome on Android), MediaSource and all.
 */
const withoutNativeHls = (context: BrowserContext) =>
  context.addInitScript(() => {
    const canPlayType = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (type: string) {
      return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type);
    };
  });

const usedHeap = (page: Page) =>
  page.evaluate(
    () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize,
  );

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? 0;

/** Swipe to first frame (p50/p90 over 40 swipes down and up the list), then 200 swipes: heap, DOM, videos. */
async function swipeFigures(context: BrowserContext, page: Page, label: string) {
  const out: Record<string, string> = {};
  const swipes: number[] = [];
  let stuck = 0;
  let prompted = 0;
  for (let i = 0; swipes.length < 40 && stuck < 6 && i < 80; i++) {
    // Time to let the neighbours buffer as a viewer watching a moment would; 12 down, 12 up, over and over.
    await page.waitForTimeout(700);
    // The rating prompt pauses the feed after 2 to 5 videos: answer it as a viewer would, by closing it.
    if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
    const ms = await swipeToFrame(page, Math.floor(i / 12) % 2 === 0 ? 'PageDown' : 'PageUp');
    if (ms === null) stuck++;
    else if (ms === 'prompt') prompted++;
    else swipes.push(ms);
  }
  out[`${label}: swipe to next first frame (p50 / p90 of ${swipes.length}, goal p90 ≤ 150 ms)`] =
    `${percentile(swipes, 50).toFixed(0)} / ${percentile(swipes, 90).toFixed(0)} ms ` +
    `(max ${Math.max(...swipes).toFixed(0)} ms` +
    `${prompted ? `; ${prompted} more swipes opened the rating prompt, which paused the video: not timed` : ''}` +
    `${stuck ? `; ${stuck} swipes showed no frame within 5 s` : ''})`;

  // Both readings after a full collection: the figure is what stays alive, not what awaits the collector.
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heapBefore = await usedHeap(page);
  let maxVideos = 0;
  let maxMse = 0;
  for (let i = 0; i < 200; i++) {
    // Down to the end of the loaded list and back up again, over and over.
    const key = Math.floor(i / 8) % 2 === 0 ? 'PageDown' : 'PageUp';
    await page.keyboard.press(key);
    await page.waitForTimeout(520);
    if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
    maxVideos = Math.max(maxVideos, await page.locator('video').count());
    maxMse = Math.max(maxMse, await page.locator('video[src^="blob:"]').count());
  }
  await cdp.send('HeapProfiler.collectGarbage');
  const heapAfter = await usedHeap(page);
  const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  out[`${label}: after 200 swipes`] =
    `JS heap ${(heapBefore / 2 ** 20).toFixed(1)} → ${(heapAfter / 2 ** 20).toFixed(1)} MiB, ` +
    `${nodes} DOM elements, at most ${maxVideos} <video> elements` +
    (maxMse > 0 ? `, at most ${maxMse} fed by hls.js (one instance per slot)` : '');
  return out;
}

export async function playerBench(): Promise<Record<string, string>> {
  const server = await startServer({ env: { DEMO_VIDEOS: '16' }, timeoutMs: 300_000 });
  const storageState = await confirmAgeOnce(server.url);
  const browser = await chromium.launch(chromiumLaunchOptions('browser'));
  const out: Record<string, string> = {};
  try {
    for (const slow of [false, true]) {
      const label = slow ? 'Slow 4G' : 'unthrottled';
      const context = await browser.newContext({ ...devices['Pixel 7'], storageState });
      await defineNameHelper(context);
      // The age gate (confirmed above) and coach hints are first-visit screens, not what this measures.
      await bothGenders(context);
      const page = await context.newPage();
      await page.goto(server.url);
      await page.evaluate(() => navigator.serviceWorker.ready);
      await throttle(context, page, slow);
      const cold = await (async () => {
        const fresh = await browser.newContext({ ...devices['Pixel 7'], storageState });
        await defineNameHelper(fresh);
        const p = await fresh.newPage();
        await throttle(fresh, p, slow);
        const ms = await firstFrame(p, server.url);
        await fresh.close();
        return ms;
      })();
      const warm = await firstFrame(page, server.url);
      out[`navigation to first frame, ${label}, cold`] = `${cold.toFixed(0)} ms`;
      out[`navigation to first frame, ${label}, warm service worker`] = `${warm.toFixed(0)} ms`;
      if (!slow) Object.assign(out, await swipeFigures(context, page, 'native HLS'));
      await context.close();
    }

    const context = await browser.newContext({ ...devices['Pixel 7'], storageState });
    await defineNameHelper(context);
    await bothGenders(context);
    await withoutNativeHls(context);
    const page = await context.newPage();
    out['hls.js, navigation to first frame, unthrottled, cold'] =
      `${(await firstFrame(page, server.url)).toFixed(0)} ms`;
    Object.assign(out, await swipeFigures(context, page, 'hls.js'));
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  return out;
}

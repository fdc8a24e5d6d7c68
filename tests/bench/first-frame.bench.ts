// `npm run bench -- "first frame vs bare video"`: the first video frame of the app's home feed against a bare
// native `<video>` page playing the same video, cold and warm, on "Slow 4G" and "Fast 4G" made real: a link
// shaped in the kernel with a delaying relay (net/harness.ts, as the network bench's), which every request of
// the page and of its service worker crosses. Nothing is intercepted and nothing is throttled through DevTools
// in the measured contexts: a `context.route()` turns Chromium's HTTP cache off for its context (a bare
// page's warm visit then downloads everything again), and DevTools' throttling leaves the service worker's
// own fetches at full speed.
//
// Profiles, as Chrome DevTools' presets name them: "Slow 4G" 1.6 Mbit/s down, 750 kbit/s up, 150 ms round
// trip; "Fast 4G" 9 Mbit/s down, 1.5 Mbit/s up, 60 ms; no loss, no jitter. Subjects, interleaved run by run,
// each in a fresh context: the app's home feed (`/`), then a static page written into the served copy of the
// build (/netbench/first-frame-<id>.html: `<video src=<master playlist> muted autoplay playsinline>`, same
// origin, same server, same headers) playing the video the app's feed answer put first in that run. Cold: the
// context's first navigation. Warm: a second one in the same context, after the first page was left for
// about:blank and the link went quiet (the app: once its service worker is ready and controls the page; the
// bare page: its HTTP cache). First frame: navigation start to the first `requestVideoFrameCallback` of the
// video on screen, registered from an init script as soon as the element is in the page (both subjects alike).
// Beside it: the bytes that crossed the link up to that frame, and where each playlist and segment answer came
// from (network, HTTP cache, service worker), as a CDP session that only listens sees them.
//
// Needs root (it skips, saying why, otherwise). BENCH_RUNS (5) runs per subject and profile; DIST_DIR a build to
// serve instead of dist/; BENCH_DATA_DIR a seeded demo to reuse; BENCH_TIMELINE=1 prints each visit's requests.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { type BrowserContext, devices, type Page } from 'playwright';
import { writeBarePage } from './net/bare-page';
import { type Harness, type LinkProfile, ORIGIN, withHarness } from './net/harness';
import { median } from './net/median';

const PROFILES: LinkProfile[] = [
  { name: 'Slow 4G', rttMs: 150, jitterMs: 0, rateKbit: 1600, upRateKbit: 750, lossPercent: 0 },
  { name: 'Fast 4G', rttMs: 60, jitterMs: 0, rateKbit: 9000, upRateKbit: 1500, lossPercent: 0 },
];

/** The issue's goal: the app's first frame at most this many times the bare page's, cold and warm. */
const GOAL_RATIO = 1.0;
/** How long a first frame may take before the bench gives up on it (and says so) rather than hang. */
const FIRST_FRAME_GIVE_UP_MS = 30_000;
/** Before the warm visit the link must have carried less than this for QUIET_MS (at most QUIET_CAP_MS). */
const QUIET_BYTES = 4096;
const QUIET_MS = 1000;
const QUIET_CAP_MS = 20_000;
/** Seeded on a first start (as the player bench's: 16 clips). */
const DEMO_VIDEOS = 16;

/**
 * The app's video on screen: the feed slot's, or on a phone the one index.html's boot script plays where that
 * slot will be before the app's code has arrived (and which the slot then takes over).
 */
const APP_VIDEO = '[role=feed] article[aria-hidden=false] video, .boot-stage video';
const BARE_VIDEO = 'video';
const HLS_TYPE = 'application/vnd.apple.mpegurl';

type Subject = 'app' | 'bare';

interface Visit {
  ms: number;
  /** Bytes that crossed the link downwards from the navigation to the first frame. */
  bytes: number;
  /** The page's playlist and segment answers up to the first frame, by where they came from: `HTTP cache 206: 2`. */
  media: Record<string, number>;
}

interface Run {
  profile: string;
  subject: Subject;
  run: number;
  cold: Visit;
  warm: Visit;
  notes: string[];
}

const CSS =
  'html,body{margin:0;height:100%;background:#000}video{width:100vw;height:100vh;object-fit:cover}\n';

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A file of the served build, with the .br and .gz twins the build gives each text file. */
function writeServed(served: string, name: string, text: string) {
  const file = path.join(served, 'netbench', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text, { level: 9 }));
}

/** The bare page of one video: nothing but a native `<video>` (and a stylesheet: the CSP allows no inline style). */
function writeFirstFramePage(served: string, id: number, playlist: string): string {
  const name = `first-frame-${id}.html`;
  writeServed(
    served,
    name,
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bare video</title>
<link rel="stylesheet" href="/netbench/first-frame.css">
</head>
<body><video src="${escapeAttr(playlist)}" muted autoplay playsinline></video></body>
</html>
`,
  );
  return `/netbench/${name}`;
}

/**
 * Init script: from the document's start, a frame callback on the video on screen as soon as it is in the
 * page (and on each that takes its place); `__firstFrame` resolves with the first one's time.
 */
function watchFirstFrame(selector: string) {
  if (window !== window.top) return;
  const registered = new WeakSet<HTMLVideoElement>();
  let observer: MutationObserver | undefined;
  (window as unknown as { __firstFrame: Promise<number> }).__firstFrame = new Promise<number>((resolve) => {
    const look = () => {
      const video = document.querySelector<HTMLVideoElement>(selector);
      if (!video || registered.has(video)) return;
      registered.add(video);
      video.requestVideoFrameCallback(() => {
        // A frame of a video no longer on screen does not count: it may come on screen again.
        if (!video.matches(selector)) {
          registered.delete(video);
          return;
        }
        observer?.disconnect();
        resolve(performance.now());
      });
    };
    observer = new MutationObserver(look);
    observer.observe(document, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-hidden', 'src'],
    });
    look();
  });
}

const isMedia = (url: string) => /\.(m3u8|ts|m4s|mp4)$/.test(new URL(url).pathname);

/**
 * Where the page's media answers come from, as DevTools sees them. Observation only: a CDP session that
 * listens changes neither the cache nor the network (Playwright has Network enabled on every page anyway).
 */
async function watchMedia(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let tally: Record<string, number> = {};
  cdp.on('Network.responseReceived', ({ response }) => {
    if (!isMedia(response.url)) return;
    const source = response.fromServiceWorker
      ? 'service worker'
      : response.fromDiskCache
        ? 'HTTP cache'
        : response.fromPrefetchCache
          ? 'prefetch cache'
          : 'network';
    const key = `${source} ${response.status}`;
    tally[key] = (tally[key] ?? 0) + 1;
  });
  return () => {
    const seen = tally;
    tally = {};
    return seen;
  };
}

/**
 * BENCH_TIMELINE=1: where a visit's time went, on stderr. The document, the feed's answer and each media request
 * with when it was asked for, sent and answered (first and last byte), in ms from navigation start; and the
 * page's own marks (performance.mark), for probing the boot script.
 */
async function timeline(page: Page, frameMs: number): Promise<string> {
  const rows = await page.evaluate(() =>
    performance
      .getEntries()
      .filter(
        (e) =>
          e.entryType === 'navigation' ||
          e.entryType === 'mark' ||
          /\.m3u8$|\.ts$|\/v1\/videos$/.test(new URL(e.name, location.href).pathname),
      )
      .map((e) => {
        if (e.entryType === 'mark') return `mark ${e.name} at ${e.startTime.toFixed(0)}`;
        const r = e as PerformanceResourceTiming;
        const name = new URL(r.name).pathname.split('/').slice(-2).join('/');
        return (
          `${name}: asked ${r.startTime.toFixed(0)}, sent ${r.requestStart.toFixed(0)}, answered ` +
          `${r.responseStart.toFixed(0)}-${r.responseEnd.toFixed(0)}, ${r.transferSize} B`
        );
      }),
  );
  return [`    first frame at ${frameMs.toFixed(0)}`, ...rows.map((row) => `      ${row}`)].join('\n');
}

/** ms from navigation start to the first frame of the video on screen (NaN: none in time), and what it took. */
async function visit(
  harness: Harness,
  page: Page,
  url: string,
  media: () => Record<string, number>,
): Promise<Visit> {
  media();
  const before = harness.link.downloadedBytes();
  await page.goto(url, { waitUntil: 'commit', timeout: 90_000 });
  const ms = await page.evaluate(
    (giveUpMs) =>
      Promise.race([
        (window as unknown as { __firstFrame?: Promise<number> }).__firstFrame ?? Number.NaN,
        new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), giveUpMs)),
      ]),
    FIRST_FRAME_GIVE_UP_MS,
  );
  if (process.env.BENCH_TIMELINE) console.error(await timeline(page, ms));
  return { ms, bytes: harness.link.downloadedBytes() - before, media: media() };
}

/** Waits until the link carried less than QUIET_BYTES for QUIET_MS; answers how long that took. */
async function quietLink(harness: Harness): Promise<number> {
  const start = Date.now();
  let last = harness.link.downloadedBytes();
  let quietSince = Date.now();
  while (Date.now() - start < QUIET_CAP_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = harness.link.downloadedBytes();
    if (now - last >= QUIET_BYTES) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= QUIET_MS) break;
  }
  return Date.now() - start;
}

async function newContext(harness: Harness, selector: string): Promise<BrowserContext> {
  const context = await harness.browser.newContext({
    ...devices['Pixel 7'],
    storageState: harness.storageState,
    baseURL: ORIGIN,
  });
  // tsx compiles with esbuild's keepNames, which wraps functions given to the page in a `__name` helper that
  // only exists in Node.
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
  await context.addInitScript(watchFirstFrame, selector);
  return context;
}

interface FeedAnswer {
  data: { id: number; playlistUrl: string | null }[];
}

/** Cold, then warm, in one fresh context. The app's run also answers the first video of its feed answer. */
async function measure(
  harness: Harness,
  subject: Subject,
  url: string,
): Promise<{ cold: Visit; warm: Visit; notes: string[]; first?: { id: number; playlist: string } }> {
  const context = await newContext(harness, subject === 'app' ? APP_VIDEO : BARE_VIDEO);
  const notes: string[] = [];
  try {
    const page = await context.newPage();
    const media = await watchMedia(page);
    let first: { id: number; playlist: string } | undefined;
    if (subject === 'app') {
      page.on('response', (response) => {
        const u = new URL(response.url());
        if (first || u.pathname !== '/v1/videos' || response.request().method() !== 'GET') return;
        if (!response.ok() || (u.searchParams.get('page') ?? '1') !== '1') return;
        response.json().then(
          (body: FeedAnswer) => {
            const video = body.data.find((v) => v.playlistUrl);
            if (!first && video?.playlistUrl) first = { id: video.id, playlist: video.playlistUrl };
          },
          () => undefined,
        );
      });
    }
    const cold = await visit(harness, page, url, media);
    if (subject === 'app') {
      // The return visit of a viewer whose first one installed the worker: it is ready and controls the page
      // (whose first visit's files it was then handed: src/main.tsx, WARM_CACHES).
      const state = await page.evaluate(
        (ms) =>
          Promise.race([
            navigator.serviceWorker.ready.then(
              () =>
                new Promise<string>((resolve) => {
                  const check = () =>
                    navigator.serviceWorker.controller ? resolve('controls') : setTimeout(check, 100);
                  check();
                }),
            ),
            new Promise<string>((resolve) =>
              setTimeout(
                () => resolve(navigator.serviceWorker.controller ? 'controls' : 'not in control'),
                ms,
              ),
            ),
          ]),
        60_000,
      );
      if (state !== 'controls') notes.push(`service worker ${state} after 60 s`);
    }
    await page.goto('about:blank');
    const waited = await quietLink(harness);
    if (waited >= QUIET_CAP_MS) notes.push(`link still busy after ${QUIET_CAP_MS / 1000} s`);
    const warm = await visit(harness, page, url, media);
    return { cold, warm, notes, ...(first ? { first } : {}) };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** The browser's own answer for HLS in a `<video>` (no page needed). */
async function nativeHls(harness: Harness): Promise<string> {
  const context = await harness.browser.newContext();
  try {
    const page = await context.newPage();
    return await page.evaluate((type) => document.createElement('video').canPlayType(type), HLS_TYPE);
  } finally {
    await context.close();
  }
}

/** `1234 ms (1100, 1234, 1400)`: the median, then every run from fastest to slowest ("no frame": a give-up). */
const spread = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const runs = sorted.map((x) => (Number.isFinite(x) ? x.toFixed(0) : 'no frame')).join(', ');
  return `${median(xs).toFixed(0)} ms (${runs})`;
};

const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} kB`;

const tallyText = (tally: Record<string, number>) =>
  Object.entries(tally)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ') || 'none';

const addTallies = (tallies: Record<string, number>[]) => {
  const sum: Record<string, number> = {};
  for (const t of tallies) for (const [k, n] of Object.entries(t)) sum[k] = (sum[k] ?? 0) + n;
  return sum;
};

export async function firstFrameVsBareBench(): Promise<Record<string, string>> {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5);
  const out: Record<string, string> = {};
  const results: Run[] = [];
  const began = Date.now();
  const done = await withHarness(
    {
      title: 'the first-frame bench',
      label: 'ffbench',
      demoVideos: DEMO_VIDEOS,
      // As the player bench always ran: the shipped ads (none of them comes before the first video).
      quietAds: false,
      prepare(served) {
        writeServed(served, 'first-frame.css', CSS);
        // The hls.js page, for a Chromium without HLS of its own.
        writeBarePage(served);
      },
    },
    async (harness) => {
      const native = await nativeHls(harness);
      out['bare page'] = native
        ? `static <video src=master.m3u8 muted autoplay playsinline>: Chromium's own HLS ` +
          `(canPlayType('${HLS_TYPE}') = '${native}')`
        : `Chromium has no HLS of its own (canPlayType '${HLS_TYPE}' = ''): /netbench/bare.html, ` +
          'one <video> fed by hls.js with its defaults';
      // The first video of a new guest's feed, where an app run did not say which one it had.
      const fallback = async () => {
        const answer = (await (
          await fetch(`${harness.serverDirect}/v1/videos?gender=m`)
        ).json()) as FeedAnswer;
        const video = answer.data.find((v) => v.playlistUrl);
        if (!video?.playlistUrl) throw new Error('the feed has no playable video');
        return { id: video.id, playlist: video.playlistUrl };
      };
      const bareUrl = (video: { id: number; playlist: string }) =>
        native
          ? writeFirstFramePage(harness.served, video.id, video.playlist)
          : `/netbench/bare.html#${encodeURIComponent(JSON.stringify([video.playlist]))}`;

      for (const profile of PROFILES) {
        await harness.applyProfile(profile);
        for (let n = 1; n <= runs; n++) {
          const app = await measure(harness, 'app', '/');
          const video = app.first ?? (await fallback());
          const bare = await measure(harness, 'bare', bareUrl(video));
          for (const [subject, m] of [
            ['app', app],
            ['bare', bare],
          ] as const) {
            results.push({
              profile: profile.name,
              subject,
              run: n,
              cold: m.cold,
              warm: m.warm,
              notes: m.notes,
            });
            // Progress on stderr: a full run takes minutes, and a stuck step shows where it is.
            const ms = (v: Visit) => (Number.isFinite(v.ms) ? `${v.ms.toFixed(0)} ms` : 'no frame');
            console.error(
              `  ${profile.name} run ${n} ${subject}${subject === 'bare' ? ` (video ${video.id})` : ''}: ` +
                `cold ${ms(m.cold)} (${kb(m.cold.bytes)} over the link; media ${tallyText(m.cold.media)}), ` +
                `warm ${ms(m.warm)} (${kb(m.warm.bytes)}; media ${tallyText(m.warm.media)})` +
                `${m.notes.length ? `; ${m.notes.join('; ')}` : ''}`,
            );
          }
        }
        const stats = await harness.stopRelay();
        if (stats) console.error(`  ${profile.name} relay: ${stats}`);
      }
    },
  );
  if ('skipped' in done) return done;

  for (const profile of PROFILES) {
    const pick = (subject: Subject, f: (r: Run) => number) =>
      results.filter((r) => r.profile === profile.name && r.subject === subject).map(f);
    for (const phase of ['cold', 'warm'] as const) {
      const app = pick('app', (r) => r[phase].ms);
      const bare = pick('bare', (r) => r[phase].ms);
      const ratio = median(app) / median(bare);
      const verdict = Number.isFinite(ratio) ? (ratio <= GOAL_RATIO ? 'met' : 'MISSED') : 'no figure';
      out[
        `first frame ${profile.name} ${phase}: app vs bare <video> (median (runs), goal ≤ ${GOAL_RATIO.toFixed(1)}x)`
      ] = `${spread(app)} vs ${spread(bare)}: ${ratio.toFixed(2)}x, ${verdict}`;
      out[`bytes over the link to the first frame, ${profile.name} ${phase} (median): app vs bare`] =
        `${kb(median(pick('app', (r) => r[phase].bytes)))} vs ${kb(median(pick('bare', (r) => r[phase].bytes)))}`;
      const tallies = (subject: Subject) =>
        tallyText(
          addTallies(
            results
              .filter((r) => r.profile === profile.name && r.subject === subject)
              .map((r) => r[phase].media),
          ),
        );
      out[`media answers to the first frame, ${profile.name} ${phase} (all runs)`] =
        `app ${tallies('app')}; bare ${tallies('bare')}`;
    }
  }
  out.link =
    'kernel: tbf rate (down on the host end, up in the namespace), in namespace nbench-<pid>; a relay in the ' +
    'namespace adds the round trip; Chromium and its service worker in the namespace, Pixel 7 emulation; no ' +
    'route interception, no DevTools throttling; app then bare in each run pair, a fresh context each';
  out.took = `${((Date.now() - began) / 60_000).toFixed(1)} min (${runs} run${runs > 1 ? 's' : ''} per subject and profile)`;
  return out;
}

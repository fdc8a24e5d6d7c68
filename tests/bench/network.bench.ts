// `npm run bench -- network` (issue 35): the feed on a real lossy link. Chromium runs inside a network
// namespace of the bench's own and reaches the real server through a link shaped in the kernel (tbf for the
// rate, nftables for the loss: net/link.ts) and a delaying relay (round trip and jitter: net/relay.ts). Two
// subjects, interleaved run by run in fresh browser contexts: the app's home feed, and a bare page playing the
// same playlists in the same order with hls.js (net/bare-page.ts). A viewer watches each video to its end (in
// the tunnel profile: for 6 s at most) and moves to the next (net/recorder.ts), and the page records first
// frame, stalls, and what played when.
//
// Profiles: "3G" (300 ms RTT, 1.5 Mbit/s, 1 % loss), "bad 4G" (150 ms RTT, 4 Mbit/s, 3 % loss, 50 ms jitter),
// "tunnel" (40 ms, 20 Mbit/s, then 100 % loss for 60 s, then the good link again); once, on the good link,
// the app's Cache Storage after 200 quick swipes. Needs root (it skips, saying why, otherwise).
//
// NETWORK_BENCH_RUNS (3) runs per subject and profile; NETWORK_BENCH_PROFILES="3G,tunnel,cache" only those
// (substrings of the names; "cache" is the 200 swipes); NETWORK_BENCH_WATCH_S (40) seconds watched per run on
// 3G and bad 4G; NETWORK_BENCH_TUNNEL_BEFORE_S (25) seconds of good link before the tunnel;
// NETWORK_BENCH_TUNNEL_DWELL_S (6) seconds the tunnel's viewer watches of a video before swiping;
// NETWORK_BENCH_APP_HLSJS=1 hides Chromium's native HLS from the app (it then plays with hls.js, as the bare
// page does); DIST_DIR a build to serve instead of dist/; BENCH_DATA_DIR a seeded demo to reuse;
// NETWORK_BENCH_LOG a file for the raw recordings (default: one in the temp folder, named at the end).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, devices, type Page } from 'playwright';
import { AGE_CONFIRM_BUTTON } from '../e2e/age-gate';
import { closeRatingPrompt } from '../e2e/rating-prompt';
import { writeBarePage } from './net/bare-page';
import { type Harness, type LinkProfile, ORIGIN, withHarness } from './net/harness';
import { median } from './net/median';
import { installRecorder, type Mode, type Recording } from './net/recorder';

interface Profile extends LinkProfile {
  tunnel?: boolean;
}

const GOOD: Profile = {
  name: 'tunnel',
  rttMs: 40,
  jitterMs: 0,
  rateKbit: 20_000,
  lossPercent: 0,
  tunnel: true,
};
const PROFILES: Profile[] = [
  { name: '3G', rttMs: 300, jitterMs: 0, rateKbit: 1500, lossPercent: 1 },
  { name: 'bad 4G', rttMs: 150, jitterMs: 50, rateKbit: 4000, lossPercent: 3 },
  GOOD,
];

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const RUNS = num('NETWORK_BENCH_RUNS', 3);
const WATCH_S = num('NETWORK_BENCH_WATCH_S', 40);
const TUNNEL_BEFORE_S = num('NETWORK_BENCH_TUNNEL_BEFORE_S', 25);
const TUNNEL_S = 60;
/** After the link returns, how long to wait for a new video to play before calling it "none". */
const AFTER_TUNNEL_CAP_S = 45;
/** A viewer who sees nothing move on a video for this long swipes on. */
const GIVE_UP_S = 15;
/** A video counts as watched in the tunnel when it reached its end there, or this much of it played there. */
const WATCHED_IN_TUNNEL_S = 5;
/**
 * In the tunnel profile the viewer swipes on after this much of a video (or at its end), as viewers of short
 * clips do: watching each of the demo's 5–15 s clips whole, 60 s hold about 6 of them whatever the app does,
 * and the issue's "8 in 60 s" assumes a viewer who swipes. On 3G and bad 4G each video plays whole, which
 * asks more of the link.
 */
const TUNNEL_DWELL_S = num('NETWORK_BENCH_TUNNEL_DWELL_S', 6);
const SWIPES = 200;
/** The demo the server seeds on a first start (the default feed shows the 'm' ones: 15 of 24). */
const DEMO_VIDEOS = num('NETWORK_BENCH_DEMO_VIDEOS', 24);
/** The swipe throttle of the feed is 500 ms (SWIPE.throttleMs in src/features/feed/player/window.ts). */
const SWIPE_EVERY_MS = 550;

const TARGETS = {
  firstFrameRatio: 1.0,
  stalledRatio: 0.5,
  tunnelWatched: 8,
  tunnelLongestGapS: 1,
  cacheMB: 150,
};

const wanted = (name: string) => {
  const filter = (process.env.NETWORK_BENCH_PROFILES ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return filter.length === 0 || filter.some((f) => name.toLowerCase().includes(f));
};

interface Diagnostics {
  failed: Record<string, number>;
  /** A few paths of each kind of failure (in the raw recordings). */
  failedPaths: Record<string, string[]>;
  slow: string[];
  consoleErrors: string[];
}

interface Run {
  profile: string;
  subject: Mode;
  run: number;
  recording: Recording | null;
  error?: string;
  diagnostics: Diagnostics;
  list?: string[];
}

interface Figures {
  firstFrameS: number;
  stalls: number;
  stalledPerMin: number;
  longestStallS: number;
  startGapS: number;
  watched: number;
  gaveUp: number;
  playedS: number;
  tunnelWatched: number;
  tunnelLongestGapS: number;
  returnToNewS: number;
  returnToResumeS: number;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function figuresOf(rec: Recording): Figures {
  const firsts = rec.videos.flatMap((v) => (v.firstPlayingAt === null ? [] : [v.firstPlayingAt]));
  const stalls = rec.videos.flatMap((v) => v.stalls.map(([s, e]) => (e ?? v.gaveUpAt ?? rec.now) - s));
  const playedS = sum(rec.videos.map((v) => v.played));
  const ws = rec.marks.windowStart;
  const we = rec.marks.windowEnd;
  const tunnel = ws !== undefined && we !== undefined;
  const returns = rec.videos.flatMap((v) =>
    tunnel && v.firstPlayingAt !== null && v.firstPlayingAt >= we ? [v.firstPlayingAt - we] : [],
  );
  return {
    firstFrameS: firsts.length ? Math.min(...firsts) / 1000 : Number.NaN,
    stalls: stalls.length,
    stalledPerMin: playedS > 0 ? sum(stalls) / 1000 / (playedS / 60) : Number.NaN,
    longestStallS: stalls.length ? Math.max(...stalls) / 1000 : 0,
    startGapS: median(rec.videos.flatMap((v) => (v.startGap === null ? [] : [v.startGap / 1000]))),
    watched: rec.videos.filter((v) => v.endedAt !== null).length,
    gaveUp: rec.videos.filter((v) => v.gaveUpAt !== null).length,
    playedS,
    tunnelWatched: tunnel
      ? rec.videos.filter(
          (v) =>
            (v.endedAt !== null && v.endedAt >= ws && v.endedAt < we) ||
            v.playedInWindow >= WATCHED_IN_TUNNEL_S,
        ).length
      : Number.NaN,
    // Stalls, waits for a video to start and a given-up video alike: the longest time nothing moved.
    tunnelLongestGapS: tunnel
      ? Math.max(0, ...rec.dead.filter(([s, e]) => s < we && e > ws).map(([s, e]) => (e - s) / 1000))
      : Number.NaN,
    returnToNewS: returns.length ? Math.min(...returns) / 1000 : Number.NaN,
    returnToResumeS: tunnel && rec.marks.resumed !== undefined ? (rec.marks.resumed - we) / 1000 : Number.NaN,
  };
}

/** `1.23 (1.10–1.40)`, with how many runs had no value. */
function spread(xs: number[], digits = 1): string {
  const shown = xs.filter(Number.isFinite);
  const missing = xs.length - shown.length;
  if (shown.length === 0) return xs.length ? `none (${xs.length} runs)` : '—';
  const med = median(shown).toFixed(digits);
  const range =
    shown.length > 1 ? ` (${Math.min(...shown).toFixed(digits)}–${Math.max(...shown).toFixed(digits)})` : '';
  return `${med}${range}${missing ? `, ${missing}× none` : ''}`;
}

function printTable(rows: string[][]) {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const line = (r: string[]) => `  ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' │ ')}`;
  console.log(line(rows[0] ?? []));
  console.log(`  ${widths.map((w) => '─'.repeat(w)).join('─┼─')}`);
  for (const r of rows.slice(1)) console.log(line(r));
}

const kindOf = (url: string) => {
  const { pathname } = new URL(url);
  if (pathname.endsWith('.m3u8')) return 'playlist';
  if (/\.(ts|m4s|mp4)$/.test(pathname)) return 'segment';
  if (pathname.startsWith('/v1/')) return `api ${pathname.split('/').slice(0, 3).join('/')}`;
  if (pathname === '/healthz') return 'health check /healthz';
  if (pathname.startsWith('/media/')) return 'image';
  return 'app file';
};

function watchNetwork(page: Page): Diagnostics {
  const diagnostics: Diagnostics = { failed: {}, failedPaths: {}, slow: [], consoleErrors: [] };
  page.on('requestfailed', (request) => {
    const key = `${kindOf(request.url())}: ${request.failure()?.errorText ?? 'failed'}`;
    diagnostics.failed[key] = (diagnostics.failed[key] ?? 0) + 1;
    const paths = diagnostics.failedPaths[key] ?? [];
    if (paths.length < 5) paths.push(new URL(request.url()).pathname);
    diagnostics.failedPaths[key] = paths;
  });
  page.on('requestfinished', (request) => {
    const { responseEnd } = request.timing();
    if (responseEnd > 5000) {
      diagnostics.slow.push(`${kindOf(request.url())} ${(responseEnd / 1000).toFixed(1)} s`);
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && diagnostics.consoleErrors.length < 20) {
      diagnostics.consoleErrors.push(message.text().slice(0, 200));
    }
  });
  page.on('pageerror', (error) =>
    diagnostics.consoleErrors.push(`pageerror: ${error.message.slice(0, 200)}`),
  );
  return diagnostics;
}

/** Rejects when the page does not answer in time (a hung renderer must not hang the bench). */
async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const record = (page: Page) =>
  withTimeout(
    page.evaluate(() => window.__nb?.record() ?? null),
    15_000,
    'recording',
  );

const mark = (page: Page, name: string) =>
  withTimeout(
    page.evaluate((n) => window.__nb?.mark(n) ?? 0, name),
    15_000,
    `mark ${name}`,
  );

async function newContext(bench: Harness, mode: Mode | null, dwellS?: number): Promise<BrowserContext> {
  const context = await bench.browser.newContext({
    ...devices['Pixel 7'],
    storageState: bench.storageState,
    baseURL: ORIGIN,
  });
  // tsx compiles with esbuild's keepNames, which wraps functions given to the page in a `__name` helper that
  // only exists in Node (as in player.bench.ts).
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
  if (mode === 'app' && process.env.NETWORK_BENCH_APP_HLSJS === '1') {
    await context.addInitScript(() => {
      const canPlayType = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (type: string) {
        return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type);
      };
    });
  }
  if (mode) {
    const options = { mode, giveUpMs: GIVE_UP_S * 1000, dwellMs: dwellS ? dwellS * 1000 : undefined };
    await context.addInitScript(installRecorder, options);
  }
  return context;
}

interface FeedPage {
  page: number;
  body: { data: { id: number; playlistUrl: string | null }[]; links: { next: string | null } };
}

/** The playlists the app was given, in its order, then more pages of the same session (for a bare run that watches more). */
async function bareList(bench: Harness, pages: FeedPage[]): Promise<string[]> {
  const sorted = [...pages].sort((a, b) => a.page - b.page);
  const seen = new Set<number>();
  const list: string[] = [];
  const add = (data: FeedPage['body']['data']) => {
    for (const video of data) {
      if (seen.has(video.id) || !video.playlistUrl) continue;
      seen.add(video.id);
      list.push(video.playlistUrl);
    }
  };
  for (const p of sorted) add(p.body.data);
  let next = sorted.at(-1)?.body.links.next ?? (sorted.length ? null : '/v1/videos?gender=m');
  while (next && list.length < 40) {
    const answer = (await (await fetch(new URL(next, bench.serverDirect))).json()) as FeedPage['body'];
    add(answer.data);
    next = answer.links.next;
  }
  return list;
}

/**
 * One run: a fresh context opens the subject and the viewer watches. Lossy profiles: WATCH_S seconds from the
 * first frame. Tunnel: TUNNEL_BEFORE_S seconds of good link, 60 s of 100 % loss, then until a video that had not
 * played yet plays (or AFTER_TUNNEL_CAP_S).
 */
async function watch(
  bench: Harness,
  profile: Profile,
  subject: Mode,
  n: number,
  list: string[],
): Promise<Run> {
  const context = await newContext(bench, subject, profile.tunnel ? TUNNEL_DWELL_S : undefined);
  const page = await context.newPage();
  const diagnostics = watchNetwork(page);
  const feedPages: FeedPage[] = [];
  if (subject === 'app') {
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname !== '/v1/videos' || response.request().method() !== 'GET' || !response.ok()) return;
      response.json().then(
        (body: FeedPage['body']) => feedPages.push({ page: Number(url.searchParams.get('page') ?? 1), body }),
        () => undefined,
      );
    });
  }
  const result: Run = { profile: profile.name, subject, run: n, recording: null, diagnostics };
  const otherDialogs = new Set<string>();
  const driverNotes: string[] = [];
  let phase: 'before' | 'tunnel' | 'after' = 'before';
  let tunnelAt = 0;
  try {
    const url = subject === 'app' ? '/' : `/netbench/bare.html#${encodeURIComponent(JSON.stringify(list))}`;
    await page.goto(url, { waitUntil: 'commit', timeout: 90_000 });
    const started = Date.now();
    for (;;) {
      await page.waitForTimeout(500);
      const rec = await record(page);
      if (!rec) throw new Error('the recorder is not in the page');
      result.recording = rec;
      const firsts = rec.videos.flatMap((v) => (v.firstPlayingAt === null ? [] : [v.firstPlayingAt]));
      const first = firsts.length ? Math.min(...firsts) : null;
      if (rec.dialog) {
        // The rating prompt opens after 2 to 5 videos: closed as the e2e specs close it. Anything else: Escape.
        await closeRatingPrompt(page).catch(() => undefined);
        if ((await record(page))?.dialog) {
          otherDialogs.add(rec.dialog);
          await page.keyboard.press('Escape');
        }
      }
      if (subject === 'app' && first === null) {
        const gate = page.getByRole('button', { name: AGE_CONFIRM_BUTTON });
        if (await gate.isVisible()) {
          driverNotes.push('the age gate showed despite the stored answer: confirmed');
          await gate.click();
        }
      }
      const sinceFirst = first === null ? 0 : rec.now - first;
      if (!profile.tunnel) {
        if (sinceFirst >= WATCH_S * 1000 || rec.now >= (WATCH_S + 30) * 1000) break;
        continue;
      }
      if (
        phase === 'before' &&
        (sinceFirst >= TUNNEL_BEFORE_S * 1000 || rec.now >= (TUNNEL_BEFORE_S + 30) * 1000)
      ) {
        bench.link.setLoss(100);
        tunnelAt = Date.now();
        await mark(page, 'windowStart');
        phase = 'tunnel';
      } else if (phase === 'tunnel' && Date.now() - tunnelAt >= TUNNEL_S * 1000) {
        bench.link.setLoss(profile.lossPercent);
        await mark(page, 'windowEnd');
        phase = 'after';
      } else if (phase === 'after') {
        const back = rec.marks.windowEnd ?? rec.now;
        const fresh = rec.videos.find((v) => v.firstPlayingAt !== null && v.firstPlayingAt >= back);
        const freshAt = fresh?.firstPlayingAt ?? Number.POSITIVE_INFINITY;
        if (rec.now - freshAt > 2000 || rec.now - back >= AFTER_TUNNEL_CAP_S * 1000) break;
      }
      if (Date.now() - started > 10 * 60_000) throw new Error('run did not finish in 10 min');
    }
    result.recording = await record(page);
  } catch (error) {
    result.error = (error as Error).message.split('\n')[0];
  } finally {
    for (const name of otherDialogs) driverNotes.push(`closed a dialog "${name}" with Escape`);
    result.recording?.notes.push(...driverNotes);
    if (phase === 'tunnel') bench.link.setLoss(profile.lossPercent);
    await context.close().catch(() => undefined);
  }
  if (subject === 'app') result.list = await bareList(bench, feedPages).catch(() => []);
  return result;
}

function describe(run: Run): string {
  const head = `  ${run.profile} run ${run.run} ${run.subject}:`;
  if (!run.recording) return `${head} no recording (${run.error})`;
  const f = figuresOf(run.recording);
  const parts = [
    `first frame ${f.firstFrameS.toFixed(2)} s`,
    `${f.stalls} stalls (${f.stalledPerMin.toFixed(1)} s/min, longest ${f.longestStallS.toFixed(1)} s)`,
    `${f.watched} videos to their end, ${f.gaveUp} given up, ${f.playedS.toFixed(0)} s played`,
  ];
  if (Number.isFinite(f.tunnelWatched)) {
    parts.push(
      `tunnel: ${f.tunnelWatched} watched, longest still ${f.tunnelLongestGapS.toFixed(1)} s, ` +
        `link back → playing ${Number.isFinite(f.returnToResumeS) ? `${f.returnToResumeS.toFixed(1)} s` : 'never'}, ` +
        `→ a new video ${Number.isFinite(f.returnToNewS) ? `${f.returnToNewS.toFixed(1)} s` : 'none'}`,
    );
  }
  const failed = Object.entries(run.diagnostics.failed).map(([k, c]) => `${c}× ${k}`);
  if (failed.length) parts.push(`failed requests: ${failed.join(', ')}`);
  if (run.diagnostics.slow.length) parts.push(`slow (> 5 s): ${run.diagnostics.slow.slice(0, 6).join(', ')}`);
  if (run.recording.notes.length) parts.push(run.recording.notes.slice(0, 8).join('; '));
  const errors = run.recording.videos.flatMap((v) => v.errors);
  if (errors.length) parts.push(`media errors: ${[...new Set(errors)].join('; ')}`);
  if (run.error) parts.push(`stopped: ${run.error}`);
  return `${head} ${parts.join('; ')}`;
}

interface CacheFigures {
  bytes: number;
  entries: number;
  perCache: Record<string, number>;
  usage: number;
  furthest: number;
  error?: string;
}

/** On the good link: the app, 200 swipes at the feed's own pace (down to the end of its list and back), then its Cache Storage. */
async function cacheAfterSwipes(bench: Harness): Promise<CacheFigures> {
  const context = await newContext(bench, null);
  const page = await context.newPage();
  const figures: CacheFigures = { bytes: 0, entries: 0, perCache: {}, usage: 0, furthest: 0 };
  try {
    await page.goto('/', { waitUntil: 'commit', timeout: 90_000 });
    const current = page.locator('[role=feed] article[aria-hidden=false]');
    await current.locator('video').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(2000);
    const position = async () => Number((await current.getAttribute('aria-posinset').catch(() => null)) ?? 0);
    let key: 'ArrowDown' | 'ArrowUp' = 'ArrowDown';
    let unmoved = 0;
    for (let i = 0; i < SWIPES; i++) {
      const before = await position();
      await page.keyboard.press(key);
      await page.waitForTimeout(SWIPE_EVERY_MS);
      await closeRatingPrompt(page).catch(() => undefined);
      const after = await position();
      figures.furthest = Math.max(figures.furthest, after);
      // Twice in place: the end of the list (or its start): turn round.
      unmoved = after === before ? unmoved + 1 : 0;
      if (unmoved >= 2) {
        key = key === 'ArrowDown' ? 'ArrowUp' : 'ArrowDown';
        unmoved = 0;
      }
    }
    await page.waitForTimeout(3000);
    Object.assign(
      figures,
      await withTimeout(
        page.evaluate(async () => {
          const perCache: Record<string, number> = {};
          let bytes = 0;
          let entries = 0;
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            let size = 0;
            for (const request of await cache.keys()) {
              const response = await cache.match(request);
              if (!response) continue;
              size += (await response.blob()).size;
              entries++;
            }
            perCache[name] = size;
            bytes += size;
          }
          const estimate = await navigator.storage.estimate();
          return { bytes, entries, perCache, usage: estimate.usage ?? 0 };
        }),
        120_000,
        'cache size',
      ),
    );
  } catch (error) {
    figures.error = (error as Error).message.split('\n')[0];
  } finally {
    await context.close().catch(() => undefined);
  }
  return figures;
}

/** The page is a secure context and the service worker controls it after a reload (relay.ts: why 127.0.0.1). */
async function serviceWorkerCheck(bench: Harness): Promise<string> {
  const context = await newContext(bench, null);
  const page = await context.newPage();
  try {
    await page.goto('/', { timeout: 90_000 });
    const ready = await page.evaluate(() =>
      Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
      ]),
    );
    await page.reload({ timeout: 90_000 });
    const state = await page.evaluate(() => ({
      secure: isSecureContext,
      controller: navigator.serviceWorker.controller?.scriptURL ?? null,
    }));
    return state.controller && ready
      ? `registered; after a reload ${state.controller} controls ${ORIGIN}/ (isSecureContext ${state.secure})`
      : `NOT in control (ready: ${ready}, isSecureContext ${state.secure}, controller ${state.controller})`;
  } catch (error) {
    return `check failed: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    await context.close().catch(() => undefined);
  }
}

export async function networkBench(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const runs: Run[] = [];
  const began = Date.now();
  let cache: CacheFigures | undefined;
  const logFile =
    process.env.NETWORK_BENCH_LOG ?? path.join(os.tmpdir(), `shortcams-netbench-${Date.now()}.json`);
  const done = await withHarness(
    {
      title: 'the network bench',
      label: 'netbench',
      demoVideos: DEMO_VIDEOS,
      quietAds: true,
      prepare: writeBarePage,
    },
    async (bench) => {
      await bench.applyProfile(GOOD);
      out['service worker (good link)'] = await serviceWorkerCheck(bench);
      console.error(`  service worker: ${out['service worker (good link)']}`);

      for (const profile of PROFILES.filter((p) => wanted(p.name))) {
        await bench.applyProfile(profile);
        for (let n = 1; n <= RUNS; n++) {
          const app = await watch(bench, profile, 'app', n, []);
          console.error(describe(app));
          runs.push(app);
          const bare = await watch(
            bench,
            profile,
            'bare',
            n,
            app.list?.length ? app.list : await bareList(bench, []),
          );
          console.error(describe(bare));
          runs.push(bare);
        }
        const stats = await bench.stopRelay();
        if (stats) console.error(`  ${profile.name} relay: ${stats}`);
      }

      if (wanted('cache')) {
        await bench.applyProfile(GOOD);
        cache = await cacheAfterSwipes(bench);
        console.error(
          `  cache after ${SWIPES} swipes: ${(cache.bytes / 2 ** 20).toFixed(1)} MiB in ${cache.entries} entries ` +
            `${JSON.stringify(cache.perCache)}, storage usage ${(cache.usage / 2 ** 20).toFixed(1)} MiB, ` +
            `furthest video ${cache.furthest}${cache.error ? `, stopped: ${cache.error}` : ''}`,
        );
      }
    },
  );
  if ('skipped' in done) return done;

  fs.writeFileSync(logFile, JSON.stringify({ runs, cache }, null, 1));
  printResults(runs, cache);
  out.link =
    'kernel: tbf rate both ways, nft random loss both ways, in namespace nbench-<pid>; a relay in the ' +
    'namespace adds the round trip and jitter; Chromium in the namespace, Pixel 7 emulation, fresh context per run';
  out.subjects =
    `app (${process.env.NETWORK_BENCH_APP_HLSJS === '1' ? 'hls.js forced' : "Chromium's native HLS, as shipped"}) ` +
    'vs bare page (hls.js defaults, same playlists in the same order); app then bare in each run pair';
  out['raw recordings'] = logFile;
  out.took = `${((Date.now() - began) / 60_000).toFixed(1)} min (${RUNS} run${RUNS > 1 ? 's' : ''} per subject and profile)`;
  return out;
}

function printResults(runs: Run[], cache: CacheFigures | undefined) {
  const rows: string[][] = [
    ['profile', 'figure', 'app: median (min–max)', 'bare: median (min–max)', 'target', ''],
  ];
  const pick = (profile: string, subject: Mode, f: (x: Figures) => number) =>
    runs
      .filter((r) => r.profile === profile && r.subject === subject)
      .map((r) => (r.recording ? f(figuresOf(r.recording)) : Number.NaN));
  const verdict = (ok: boolean | null) => (ok === null ? '' : ok ? 'met' : 'MISSED');
  for (const profile of PROFILES.filter((p) => runs.some((r) => r.profile === p.name))) {
    const row = (
      figure: string,
      f: (x: Figures) => number,
      target = '',
      ok: boolean | null = null,
      digits = 1,
    ) =>
      rows.push([
        profile.name,
        figure,
        spread(pick(profile.name, 'app', f), digits),
        spread(pick(profile.name, 'bare', f), digits),
        target,
        verdict(ok),
      ]);
    const med = (subject: Mode, f: (x: Figures) => number) => median(pick(profile.name, subject, f));
    const ratio = (f: (x: Figures) => number) => med('app', f) / med('bare', f);
    const ratioText = (f: (x: Figures) => number) => {
      const r = ratio(f);
      return Number.isFinite(r) ? ` (now ${r.toFixed(2)}×)` : '';
    };
    const firstFrame = (x: Figures) => x.firstFrameS;
    const stalled = (x: Figures) => x.stalledPerMin;
    if (!profile.tunnel) {
      const okFirst = Number.isFinite(ratio(firstFrame))
        ? ratio(firstFrame) <= TARGETS.firstFrameRatio
        : false;
      row(
        'first frame, s',
        firstFrame,
        `app ≤ ${TARGETS.firstFrameRatio.toFixed(1)}× bare${ratioText(firstFrame)}`,
        okFirst,
        2,
      );
      row('stalls per run', (x) => x.stalls, '', null, 0);
      const appStalled = med('app', stalled);
      const bareStalled = med('bare', stalled);
      const okStalled =
        Number.isFinite(appStalled) && Number.isFinite(bareStalled)
          ? appStalled <= TARGETS.stalledRatio * bareStalled
          : false;
      row(
        'stalled s per min watched',
        stalled,
        `app ≤ ${TARGETS.stalledRatio}× bare${ratioText(stalled)}`,
        okStalled,
        2,
      );
      row('longest stall, s', (x) => x.longestStallS);
      row('swipe to playing, s (median)', (x) => x.startGapS, '', null, 2);
      row('videos to their end', (x) => x.watched, '', null, 0);
      row('videos given up (15 s still)', (x) => x.gaveUp, '', null, 0);
    } else {
      row('first frame (good link), s', firstFrame, '', null, 2);
      const watchedIn = (x: Figures) => x.tunnelWatched;
      row(
        `videos watched in the ${TUNNEL_S} s tunnel`,
        watchedIn,
        `app ≥ ${TARGETS.tunnelWatched}`,
        med('app', watchedIn) >= TARGETS.tunnelWatched,
        0,
      );
      const gap = (x: Figures) => x.tunnelLongestGapS;
      row(
        'longest stall/wait in the tunnel, s',
        gap,
        `app ≤ ${TARGETS.tunnelLongestGapS} s`,
        med('app', gap) <= TARGETS.tunnelLongestGapS,
      );
      row('link back → a new video playing, s', (x) => x.returnToNewS);
      row('link back → any video playing again, s', (x) => x.returnToResumeS);
      row('stalls per run', (x) => x.stalls, '', null, 0);
    }
  }
  if (cache) {
    const mb = cache.bytes / 1e6;
    rows.push([
      'good link',
      `Cache Storage after ${SWIPES} swipes (over ${cache.furthest} videos), MB`,
      cache.error
        ? `failed: ${cache.error}`
        : `${mb.toFixed(1)} (storage usage ${(cache.usage / 1e6).toFixed(1)})`,
      '—',
      `≤ ${TARGETS.cacheMB} MB`,
      cache.error ? '' : verdict(mb <= TARGETS.cacheMB),
    ]);
  }
  console.log('');
  printTable(rows);
}

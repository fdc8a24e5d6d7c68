// Fills the tunnel buffer while the viewer watches: one download at a time, only while the video on screen
// has enough buffered ahead (its gate, given by the feed), and never on Save-Data or against the setting.
// A new call to keepAhead replaces the plan; the download under way finishes into the cache either way.
// Loaded once the feed shows (useTunnel imports it on demand): not part of the first screen's code.
import type { Video } from '../../contract/video';
import { TUNNEL } from './limits';
import { TUNNEL_CACHE } from './names';
import { evictions, type KeptVideo, lowestVariant, segmentsToKeep, wanted } from './plan';
import { connectionInfo, type KeepSetting, mayKeep } from './setting';
import { dropKept, listKept, putKept, touchKept } from './store';

export interface KeepPlan {
  feed: string;
  videos: readonly Video[];
  current: number;
  setting: KeepSetting;
  /** Whether the video on screen has buffered enough that a download beside it costs it nothing. */
  ready: () => boolean;
  /** Keep the video on screen too (not where the browser's own player is downloading it: see `wanted`). */
  withCurrent: boolean;
}

let plan: KeepPlan | null = null;
let running = false;
let lastShown: number | null = null;
/** Back-off after a failed download (the link went, the server is busy): the loop waits, it does not spin. */
const RETRY_MS = 5_000;
const GATE_POLL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the plan in force lets a download start now; rejects if the plan changed meanwhile. */
async function gate(mine: KeepPlan): Promise<void> {
  for (;;) {
    if (plan !== mine) throw new Error('plan changed');
    if (navigator.onLine && mayKeep(mine.setting, connectionInfo()) && mine.ready()) return;
    await sleep(GATE_POLL_MS);
  }
}

const absolute = (uri: string, base: string) => new URL(uri, base).href;

/** A whole answer or an error: a partial or failed file must never be kept in its place. */
async function fetchWhole(url: string, signal: AbortSignal): Promise<Response> {
  // Low priority: the video on screen and its neighbours go first (the keeper also waits for them).
  const response = await fetch(url, { signal, credentials: 'same-origin', priority: 'low' });
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return response;
}

/**
 * Stores `video`'s lowest rendition (whole, or its first 30 s), its master playlist and its poster, then
 * names it in the manifest. `beforeEach` runs before each download: the keeper waits there until the video on
 * screen has enough buffered, so a kept file never takes the link from it.
 */
async function keepVideo(
  video: Video,
  feed: string,
  order: number,
  { signal, beforeEach }: { signal: AbortSignal; beforeEach: () => Promise<void> },
): Promise<KeptVideo | null> {
  if (!video.playlistUrl) return null;
  const cache = await caches.open(TUNNEL_CACHE);
  let bytes = 0;
  const urls: string[] = [];
  const store = async (url: string, response: Response) => {
    // Stored as it came: a copy rebuilt from its body would keep a Content-Encoding header over a body
    // already decoded, and Chromium's own HLS player then fails to parse the playlist (measured).
    bytes += (await response.clone().blob()).size;
    urls.push(url);
    await cache.put(url, response);
  };
  const text = async (url: string) => {
    await beforeEach();
    const response = await fetchWhole(url, signal);
    const body = await response.clone().text();
    return { response, body };
  };

  const masterUrl = absolute(video.playlistUrl, window.location.href);
  const master = await text(masterUrl);
  const variant = lowestVariant(master.body);
  if (!variant) return null;
  const variantUrl = absolute(variant, masterUrl);
  const playlist = await text(variantUrl);
  for (const segment of segmentsToKeep(playlist.body)) {
    const url = absolute(segment, variantUrl);
    const known = await cache.match(url);
    if (known) {
      bytes += (await known.blob()).size;
      urls.push(url);
      continue;
    }
    await beforeEach();
    await store(url, await fetchWhole(url, signal));
  }
  // The poster, and the creator's avatar beside the caption: an offline slot looks as it did online.
  for (const image of [video.thumbnailUrl, video.user.avatar]) {
    if (!image) continue;
    const url = absolute(image, window.location.href);
    if (urls.includes(url)) continue;
    await beforeEach();
    await fetchWhole(url, signal)
      .then((response) => store(url, response))
      .catch(() => undefined);
  }
  // The playlists last: the worker answers a kept master from here, so it must not point at missing files.
  await store(variantUrl, playlist.response);
  await store(masterUrl, master.response);
  const now = Date.now();
  const entry: KeptVideo = {
    id: video.id,
    feed,
    video,
    urls,
    bytes,
    order,
    keptAt: now,
    usedAt: now,
    watched: false,
  };
  await putKept(entry);
  return entry;
}

async function run(): Promise<void> {
  running = true;
  try {
    while (plan) {
      const mine = plan;
      if (!mayKeep(mine.setting, connectionInfo())) return;
      const want = wanted(mine.videos, mine.current, { withCurrent: mine.withCurrent });
      const kept = await listKept();
      const protect = new Set(want.map((v) => v.id));
      await dropKept(evictions(kept, TUNNEL.budgetBytes, protect), kept);
      const keptIds = new Set(kept.map((e) => e.id));
      const next = want.find((v) => !keptIds.has(v.id));
      if (!next) {
        // Nothing left to do for this plan: wait for the next one.
        if (plan === mine) return;
        continue;
      }
      const controller = new AbortController();
      try {
        await keepVideo(next, mine.feed, mine.videos.indexOf(next), {
          signal: controller.signal,
          beforeEach: () => gate(mine),
        });
      } catch {
        if (plan !== mine) continue;
        await sleep(RETRY_MS);
      }
    }
  } finally {
    running = false;
  }
}

/**
 * The feed's current state: keep the video on screen and the next ones. Also records that the one shown
 * before was watched, so eviction lets it go before the unwatched ones.
 */
export function keepAhead(next: KeepPlan): void {
  askToPersist();
  const shown = next.videos[next.current]?.id ?? null;
  if (shown !== lastShown) {
    if (lastShown !== null) void touchKept(lastShown, true).catch(() => undefined);
    if (shown !== null) void touchKept(shown, false).catch(() => undefined);
    lastShown = shown;
  }
  plan = next;
  if (!running) void run().catch(() => undefined);
}

let persistAsked = false;
/**
 * Kept videos are worth keeping through storage pressure once the app is installed (issue 35): the browser
 * then grants persistence without a prompt (Chromium) or remembers the installed app's data (Safari). Asked
 * once per page; a browser tab is not asked, as Firefox would show the viewer a permission prompt.
 */
function askToPersist() {
  if (persistAsked || !window.matchMedia?.('(display-mode: standalone)').matches) return;
  persistAsked = true;
  void navigator.storage?.persist?.().catch(() => false);
}

/** The feed went away: nothing more is fetched for it. */
export function stopKeeping(): void {
  plan = null;
}

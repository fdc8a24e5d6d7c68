// The tunnel buffer on the device: files in Cache Storage (TUNNEL_CACHE, read by the service worker), and a
// manifest in IndexedDB saying what each kept video holds. A file is stored before the manifest names it, so
// a manifest entry always means a playable copy; a half-kept video left by a closed tab only costs its bytes
// until the next eviction or Clear.
import { clear, createStore, del, get, set, type UseStore, values } from 'idb-keyval';
import type { Video } from '../../contract/video';
import { TUNNEL_CACHE } from './names';
import { type KeptVideo, lowestVariant, segmentsToKeep } from './plan';

let manifestStore: UseStore | undefined;
const manifest = () => {
  manifestStore ??= createStore('shortcams-tunnel', 'videos');
  return manifestStore;
};

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: readonly KeptVideo[] = [];
let loaded = false;

function publish(entries: readonly KeptVideo[]) {
  snapshot = entries;
  for (const listener of listeners) listener();
}

async function reload(): Promise<readonly KeptVideo[]> {
  const entries = await values<KeptVideo>(manifest()).catch(() => [] as KeptVideo[]);
  publish(entries);
  return entries;
}

/** The kept videos as last read; `subscribe` tells when they change (for useSyncExternalStore). */
export const keptSnapshot = () => snapshot;
export function subscribeKept(listener: Listener): () => void {
  listeners.add(listener);
  // The first subscriber reads the manifest; later changes come through publish.
  if (!loaded) {
    loaded = true;
    void reload();
  }
  return () => listeners.delete(listener);
}

/** Every kept video, fresh from IndexedDB. */
export const listKept = (): Promise<readonly KeptVideo[]> => reload();

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
export async function keepVideo(
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
  if (video.thumbnailUrl) {
    const poster = absolute(video.thumbnailUrl, window.location.href);
    await beforeEach();
    await store(poster, await fetchWhole(poster, signal)).catch(() => undefined);
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
  await set(video.id, entry, manifest());
  await reload();
  return entry;
}

/** Notes that a kept video was shown (`watched`: the viewer moved on from it), for least-recently-used eviction. */
export async function touchKept(id: number, watched: boolean): Promise<void> {
  const entry = await get<KeptVideo>(id, manifest()).catch(() => undefined);
  if (!entry) return;
  await set(id, { ...entry, usedAt: Date.now(), watched: entry.watched || watched }, manifest());
  await reload();
}

/** Lets kept videos go: their manifest entries first (so none is offered half-deleted), then their files. */
export async function dropKept(ids: readonly number[], entries: readonly KeptVideo[]): Promise<void> {
  if (ids.length === 0) return;
  const drop = new Set(ids);
  const keepUrls = new Set(entries.filter((e) => !drop.has(e.id)).flatMap((e) => e.urls));
  const cache = await caches.open(TUNNEL_CACHE);
  for (const id of ids) await del(id, manifest());
  await reload();
  const gone = entries.filter((e) => drop.has(e.id)).flatMap((e) => e.urls);
  // A poster or segment shared with a video still kept stays.
  await Promise.all(gone.filter((url) => !keepUrls.has(url)).map((url) => cache.delete(url)));
}

/** The settings' Clear: everything kept goes. */
export async function clearKept(): Promise<void> {
  await clear(manifest());
  await caches.delete(TUNNEL_CACHE);
  await reload();
}

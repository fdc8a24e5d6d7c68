// The tunnel buffer's manifest: what each kept video holds, in IndexedDB; its files are in Cache Storage
// (TUNNEL_CACHE, read by the service worker), put there by keeper.ts. A file is stored before the manifest
// names it, so a manifest entry always means a playable copy; a half-kept video left by a closed tab only
// costs its bytes until the next eviction or Clear. Small, and loaded with the feed; keeper.ts loads later.
import { clear, createStore, del, get, set, type UseStore, values } from 'idb-keyval';
import { TUNNEL_CACHE } from './names';
import type { KeptVideo } from './plan';

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

/** Names a fully stored video in the manifest: from then on an offline feed offers it. */
export async function putKept(entry: KeptVideo): Promise<void> {
  await set(entry.id, entry, manifest());
  await reload();
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

// The device's small key-values (preferences, liked videos, guest id...) in IndexedDB through idb-keyval. In
// this layer because the persisted atoms (persisted.ts) keep themselves here; the rest of the app and the
// service worker reach it through src/offline/kv.ts, beside the outbox's own database.
import { createStore, get, set, type UseStore } from 'idb-keyval';

let kvStore: UseStore | undefined;

// Created lazily: module import must not touch IndexedDB (tests install fake-indexeddb first; SSR has none).
export const kv = () => {
  kvStore ??= createStore('shortcams', 'kv');
  return kvStore;
};

/** The keys of spec §3 ("stored locally"), with their types. */
export interface KvSchema {
  preferenceAutoscroll: boolean;
  preferenceSelectedTags: { id: number; name: string }[];
  /** Comma-joined gender codes; default 'm'. */
  preferencesCategory: string;
  likedVideos: number[];
  guestId: string;
  tutorialStep: number;
  isMuted: boolean;
  currentVideo: { id: number; slug: string } | null;
  ageConfirmed: boolean;
  /** "Keep videos for offline"; null until the viewer chooses (the default depends on the browser). */
  keepOffline: 'wifi' | 'always' | 'never' | null;
}

// Async on purpose: where IndexedDB is missing (some private modes) opening it throws at once, and callers
// must get a rejected promise they can ignore, not an exception in the middle of a state update.
export const readKv = async <K extends keyof KvSchema>(key: K) => get<KvSchema[K]>(key, kv());
export const writeKv = async <K extends keyof KvSchema>(key: K, value: KvSchema[K]) => set(key, value, kv());

/** Tests only (through src/offline/kv.ts): forget the store, as a page reload would. */
export function resetKvStoreForTests() {
  kvStore = undefined;
}

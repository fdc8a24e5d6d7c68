// The device's small key-values (preferences, liked videos, guest id...) in IndexedDB through idb-keyval. In
// this layer because the persisted atoms (persisted.ts) keep themselves here and the API client sends the
// guest id; the rest of the app and the service worker reach it through src/offline/kv.ts, beside the outbox's
// own database.
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

let guestId: Promise<string> | undefined;

/**
 * index.html's boot script asks for the first screen's data with the guest id before any module has run, and
 * it cannot wait for IndexedDB: so the device's id is mirrored in localStorage. On a first visit the script
 * picks one and leaves it there; once the app knows the id, it writes it back, so that a returning visitor
 * opening a screen for the first time (no URL remembered for it yet) is asked for under their own id.
 */
const BOOT_GUEST_KEY = 'shortcams.bootGuestId';

type BootStorage = { getItem(key: string): string | null; setItem(key: string, value: string): void };
// The service worker shares this module and has no localStorage.
const bootStorage = () => (globalThis as { localStorage?: BootStorage }).localStorage;

function bootGuestId(): string | undefined {
  try {
    const id = bootStorage()?.getItem(BOOT_GUEST_KEY);
    return id && /^[0-9a-f-]{36}$/i.test(id) ? id : undefined;
  } catch {
    // No storage (the service worker, a private mode): an id of our own.
    return undefined;
  }
}

function mirrorGuestId(id: string) {
  try {
    bootStorage()?.setItem(BOOT_GUEST_KEY, id);
  } catch {
    // No storage: the boot script then guesses, and the app asks again under the right id.
  }
}

/** The guest's id, generated once per device and kept (spec §3: guestId). */
export function getGuestId(): Promise<string> {
  guestId ??= (async () => {
    const known = await readKv('guestId').catch(() => undefined);
    const id = known ?? bootGuestId() ?? crypto.randomUUID();
    if (!known) await writeKv('guestId', id).catch(() => undefined);
    mirrorGuestId(id);
    return id;
  })();
  return guestId;
}

/** Tests only (through src/offline/kv.ts): forget the store and the id, as a page reload would. */
export function resetKvStoreForTests() {
  guestId = undefined;
  kvStore = undefined;
}

// Everything the app remembers on the device lives in IndexedDB through idb-keyval: one database for small
// key-values (preferences, liked videos, guest id...) and one for the outbox, so a wipe of one never touches
// the other. The key-values are src/state/kv.ts's, since the persisted atoms keep themselves there and a
// layer imports no higher one (src/README.md); this module is the device stores' one door for the rest.
import { createStore, type UseStore } from 'idb-keyval';
import { readKv, resetKvStoreForTests, writeKv } from '../state/kv';

export { type KvSchema, kv, readKv } from '../state/kv';

let outboxStore: UseStore | undefined;

// Created lazily: module import must not touch IndexedDB (tests install fake-indexeddb first; SSR has none).
export const outboxDb = () => {
  outboxStore ??= createStore('shortcams-outbox', 'entries');
  return outboxStore;
};

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

/** Tests only: forget module-level caches, as a page reload would. */
export function resetKvCachesForTests() {
  guestId = undefined;
  resetKvStoreForTests();
  outboxStore = undefined;
}

// Everything the app remembers on the device lives in IndexedDB through idb-keyval: one database for small
// key-values (preferences, liked videos, guest id...) and one for the outbox, so a wipe of one never touches
// the other. The key-values, with the guest id, are src/state/kv.ts's, since the persisted atoms keep
// themselves there and the API client sends the id, and a layer imports no higher one (src/README.md); this
// module is the device stores' one door for the rest, the service worker included.
import { createStore, type UseStore } from 'idb-keyval';
import { resetKvStoreForTests } from '../state/kv';

export { getGuestId, type KvSchema, kv, readKv } from '../state/kv';

let outboxStore: UseStore | undefined;

// Created lazily: module import must not touch IndexedDB (tests install fake-indexeddb first; SSR has none).
export const outboxDb = () => {
  outboxStore ??= createStore('shortcams-outbox', 'entries');
  return outboxStore;
};

/** Tests only: forget module-level caches, as a page reload would. */
export function resetKvCachesForTests() {
  resetKvStoreForTests();
  outboxStore = undefined;
}

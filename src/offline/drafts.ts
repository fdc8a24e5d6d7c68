// What a person typed into a form and has not sent yet, kept on the device so that a reload, a crash or a
// closed tab loses nothing (the form kit's `draft` option). Its own database: a cleared draft store never
// touches preferences or the outbox. Values are stored by structured clone, so photos (File, Blob) keep too.
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

let store: UseStore | undefined;
const drafts = () => {
  store ??= createStore('shortcams-drafts', 'drafts');
  return store;
};

export type Draft = Record<string, unknown>;

// Async wrappers: where IndexedDB is missing, opening it throws at once; callers get a rejection to ignore.
export const readDraft = async (key: string) => get<Draft>(key, drafts());
export const writeDraft = async (key: string, value: Draft) => set(key, value, drafts());
export const deleteDraft = async (key: string) => del(key, drafts());

/** Tests only: forget the open store, as a page reload would. */
export function resetDraftStoreForTests() {
  store = undefined;
}

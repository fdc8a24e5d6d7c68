import { createStore } from 'jotai';

/** One store, shared by React and by code outside it (service worker registration, later the outbox). */
export const appStore = createStore();

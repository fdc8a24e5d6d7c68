import { atom } from 'jotai';

/** Set when a new service worker waits; calling it activates that worker and reloads the page. */
export const swUpdateAtom = atom<(() => Promise<void>) | null>(null);

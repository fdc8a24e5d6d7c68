import { atom } from 'jotai';

/**
 * Whether the browser believes it has a network. `navigator.onLine` can say "online" behind a dead Wi-Fi,
 * never the reverse: so "offline" is certain, and the outbox, not this flag, decides whether sends worked.
 */
export const onlineAtom = atom(typeof navigator === 'undefined' ? true : navigator.onLine);

onlineAtom.onMount = (set) => {
  const update = () => set(navigator.onLine);
  update();
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  return () => {
    window.removeEventListener('online', update);
    window.removeEventListener('offline', update);
  };
};

/**
 * The last look at the link (src/api/link.ts), which the feed takes at each new video: `navigator.onLine`
 * stays true in a tunnel (every packet lost). `checking` until it answers; `down` when it got no answer,
 * until the network returns.
 */
export const linkCheckAtom = atom<'up' | 'checking' | 'down'>('up');

/** The link is down: videos not on the device wait with a calm line. */
export const linkDownAtom = atom((get) => !get(onlineAtom) || get(linkCheckAtom) === 'down');

/** The link answered just now: a kept video may climb above its kept, lowest rendition. */
export const linkUpAtom = atom((get) => get(onlineAtom) && get(linkCheckAtom) === 'up');

/** The last API answer was the device's copy (the service worker's, the network did not answer). */
export const offlineCopyAtom = atom(false);

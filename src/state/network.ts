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

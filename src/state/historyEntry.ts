// What a screen showed, kept with its history entry for this page load, so that back (or forward) to it finds
// it as the viewer left it: the words typed in a search box, and the scroll.
//
// The scroll: the browser's own restoration runs right after popstate, when a screen whose answer is asked
// for again is still a spinner (and React renders navigations as transitions), so it finds a short page and
// leaves the viewer at the top, or not, by a race.
import { type Dispatch, type SetStateAction, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useRealNavigationType } from './panel';

const states = new Map<string, unknown>();

/** What a screen keeps under `name` with the history entry on show (see useEntryState). */
export function useEntryStore() {
  const { key } = useLocation();
  return {
    get: (name: string): unknown => states.get(`${key}\u0000${name}`),
    set: (name: string, value: unknown) => states.set(`${key}\u0000${name}`, value),
  };
}

/**
 * useState whose value stays with the history entry: a new visit starts from `initial`, a return finds the
 * value as it was left. `name` tells a screen's states apart.
 */
export function useEntryState<T>(name: string, initial: T): [T, Dispatch<SetStateAction<T>>] {
  const store = useEntryStore();
  const [value, setValue] = useState<T>(() => (store.get(name) as T | undefined) ?? initial);
  useEffect(() => {
    store.set(name, value);
  });
  return [value, setValue];
}

const scrolls = new Map<string, number>();

/**
 * Remembers the scroll when the screen goes, and on a return to its history entry (back or forward) puts
 * it back once `ready` (the content is rendered, as tall as when the viewer left).
 */
export function useKeptScroll(ready: boolean): void {
  const { key } = useLocation();
  const returning = useRealNavigationType() === 'POP';
  const done = useRef(!returning);

  // A layout effect, so its cleanup runs within the commit that takes the screen away: a passive cleanup
  // of a transition's commit may come after a frame, and so after the scroll event of the page shrinking
  // to the next screen's height. Kept from the scroll events, not read at the end, for the same reason.
  useLayoutEffect(() => {
    let y = window.scrollY;
    const onScroll = () => {
      y = window.scrollY;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      scrolls.set(key, y);
    };
  }, [key]);

  // Before paint, so the top of the page never flashes.
  useLayoutEffect(() => {
    if (!ready || done.current) return;
    done.current = true;
    const y = scrolls.get(key);
    if (y === undefined) return;
    // Parts laid out only when near the screen (content-visibility: auto) stand in at a guessed height until
    // a frame has shown them, and the scroll would land that far off: the screen's CSS lays them out for
    // real while this attribute is on (`:root[data-kept-scroll]`), for the frame that shows them once, from
    // when on the browser remembers their height.
    const root = document.documentElement;
    root.dataset.keptScroll = '';
    window.scrollTo(0, y);
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => delete root.dataset.keptScroll);
    });
    return () => {
      cancelAnimationFrame(frame);
      delete root.dataset.keptScroll;
    };
  }, [ready, key]);
}

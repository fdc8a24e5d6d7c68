// The window's scroll of each history entry in this page load, for screens whose content comes back after
// the back button has been handled. The browser's own restoration runs right after popstate, when such a
// screen is still a spinner (its answer is asked for again, and React renders navigations as transitions),
// so it finds a short page and leaves the viewer at the top, or not, by a race.
import { useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useRealNavigationType } from './panel';

const kept = new Map<string, number>();

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
      kept.set(key, y);
    };
  }, [key]);

  // Before paint, so the top of the page never flashes.
  useLayoutEffect(() => {
    if (!ready || done.current) return;
    done.current = true;
    const y = kept.get(key);
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

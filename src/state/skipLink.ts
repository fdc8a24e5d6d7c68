import { atom } from 'jotai';

/**
 * What the page's "Skip to …" link leads to: a feed on screen says so (its first stop is the video, not the
 * sidebars or the navigation); every other screen skips to its content.
 */
export const feedOnScreenAtom = atom(false);

/** Moves the keyboard focus to the video on screen, or else to the screen's content. */
export function focusMainContent() {
  const video = document.querySelector<HTMLElement>('[role=feed] article[aria-hidden=false]');
  const target = video ?? document.getElementById('content');
  target?.focus();
}

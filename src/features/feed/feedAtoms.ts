import { atom } from 'jotai';
import type { Video } from '../../contract';

export interface FeedList {
  /** FeedSource.key of the list held; a screen for another source starts over. */
  key: string;
  videos: Video[];
  /** links.next of the last page loaded; null once the end is reached. */
  next: string | null;
  status: 'loading' | 'ready' | 'error';
  error?: string;
  /** Whether asking again can help: a lost network or a busy server, not a list that does not exist. */
  retryable?: boolean;
  /** The videos kept on the device, shown because the network did not answer (src/offline/tunnel). */
  offline?: boolean;
}

/** The list the player walks through, kept app-wide so going to a profile and back resumes in place. */
export const feedListAtom = atom<FeedList>({ key: '', videos: [], next: null, status: 'loading' });

/** Index of the video on screen. */
export const feedIndexAtom = atom(0);

/** True while the next page is on its way: the feed is aria-busy. */
export const feedLoadingMoreAtom = atom(false);

const VIEWED_KEY = 'shortcams:viewed';
/** The last ones are enough: a session does not swipe back thousands of videos. */
const VIEWED_KEPT = 2000;

function readViewed(): ReadonlySet<number> {
  try {
    const ids: unknown = JSON.parse(sessionStorage.getItem(VIEWED_KEY) ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id) => typeof id === 'number') : []);
  } catch {
    return new Set();
  }
}

const viewedBaseAtom = atom<ReadonlySet<number>>(readViewed());

/**
 * Videos this session has already posted a view for, so swiping back and forth does not post again, nor does
 * a reload (README: once per video per session). Kept in sessionStorage: the tab's session, as a reload
 * keeps it and a new tab starts afresh.
 */
export const viewedVideosAtom = atom(
  (get) => get(viewedBaseAtom),
  (_get, set, next: ReadonlySet<number>) => {
    set(viewedBaseAtom, next);
    try {
      sessionStorage.setItem(VIEWED_KEY, JSON.stringify([...next].slice(-VIEWED_KEPT)));
    } catch {
      // Storage full or refused (private mode): the record lasts as long as the page.
    }
  },
);

/**
 * Changes one video of the list in place (a like, a rating), so every slot and a later return to the list
 * show the viewer's own doing rather than the server's answer from before it.
 */
export const patchVideoAtom = atom(null, (get, set, id: number, patch: Partial<Video>) => {
  const list = get(feedListAtom);
  if (!list.videos.some((v) => v.id === id)) return;
  set(feedListAtom, { ...list, videos: list.videos.map((v) => (v.id === id ? { ...v, ...patch } : v)) });
});

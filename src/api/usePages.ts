import { useCallback, useEffect, useRef, useState } from 'react';
import { useEffectEvent } from '../state/effectEvent';
import { useEntryStore } from '../state/historyEntry';
import { isRetryable, useHealing } from './reconnect';

/** One page of a list call: `{ data, links: { next } }`. */
export interface ListPage<T> {
  data: T[];
  links: { next: string | null };
}

interface Pages<T> {
  /** The first page's URL and attempt these pages belong to: a new URL, or a retry, starts over. */
  tag: string;
  status: 'loading' | 'ready' | 'error';
  items: T[];
  next: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
  /** Whether the later page that failed may load if asked again (isRetryable): then it does on reconnect. */
  moreRetryable?: boolean;
  error?: unknown;
}

const fresh = <T>(tag: string): Pages<T> => ({
  tag,
  status: 'loading',
  items: [],
  next: null,
  loadingMore: false,
  moreFailed: false,
});

export interface ListOptions {
  /**
   * Keep the pages with the history entry: back from a video opened in the list, the list is as the viewer
   * left it (and can scroll back there) without a request. For lists whose items the screens opened from
   * them do not change (a rating list must load again: its video was just rated).
   */
  keep?: boolean;
}

/**
 * Any paged list (videos, channel cards): the first page from `firstUrl`, then each links.next as handed out,
 * without duplicates (by id). A failed first page offers `retry`; a failed later page stops there (spec §8:
 * list failures stop loading) until `loadMore` is asked again, or the network returns (src/api/reconnect.ts).
 * `fetchPage` parses one page of the list.
 */
export function usePages<T extends { id: number }>(
  firstUrl: string,
  fetchPage: (url: string, signal: AbortSignal) => Promise<ListPage<T>>,
  { keep = false }: ListOptions = {},
) {
  const [attempt, setAttempt] = useState(0);
  const tag = `${attempt}\u0000${firstUrl}`;
  const entry = useEntryStore();
  const keptName = `pages\u0000${firstUrl}`;
  const [pages, setPages] = useState<Pages<T>>(() => {
    const kept = keep ? (entry.get(keptName) as Pages<T> | undefined) : undefined;
    return kept ? { ...kept, tag } : fresh(tag);
  });
  // Back to a kept list: its pages are shown as they were, not loaded again. Not cleared at that first run:
  // React's strict mode runs it twice.
  const keptTag = useRef(pages.status === 'ready' ? tag : null);
  const more = useRef<AbortController | null>(null);
  // The latest parser, without restarting the list when a caller passes a new function each render.
  const fetchLatest = useEffectEvent(fetchPage);

  useEffect(() => {
    // A page still on its way when the screen goes is asked for again, from the kept end, on the return.
    if (keep && pages.status === 'ready' && pages.tag === tag)
      entry.set(keptName, { ...pages, loadingMore: false });
  });

  useEffect(() => {
    if (tag === keptTag.current) return;
    more.current?.abort();
    const controller = new AbortController();
    fetchLatest(firstUrl, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setPages({ ...fresh(tag), status: 'ready', items: page.data, next: page.links.next });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setPages({ ...fresh(tag), status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [tag, firstUrl]);

  useEffect(() => () => more.current?.abort(), []);

  // Until the first page of this URL (or this retry) is in, earlier pages are not this list's.
  const current = pages.tag === tag ? pages : fresh<T>(tag);
  const { next, status, loadingMore } = current;
  const loadMore = useCallback(() => {
    if (status !== 'ready' || next === null || loadingMore) return;
    const controller = new AbortController();
    more.current = controller;
    setPages((p) => ({ ...p, loadingMore: true, moreFailed: false }));
    fetchLatest(next, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setPages((p) => {
          if (p.tag !== tag || p.next !== next) return p;
          const known = new Set(p.items.map((item) => item.id));
          return {
            ...p,
            items: [...p.items, ...page.data.filter((item) => !known.has(item.id))],
            next: page.links.next,
            loadingMore: false,
          };
        });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setPages((p) => ({
            ...p,
            loadingMore: false,
            moreFailed: true,
            moreRetryable: isRetryable(error),
          }));
      },
    );
  }, [tag, next, status, loadingMore]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Back online (issue 35), a failed first page loads again as `retry` would, a failed later page as
  // `loadMore` would; a 404 and the like would fail the same way, and wait for the viewer.
  useHealing(status === 'error' && isRetryable(current.error), retry);
  useHealing(current.moreFailed && current.moreRetryable === true, loadMore);
  return { ...current, loadMore, retry };
}

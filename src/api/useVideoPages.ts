import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Video } from '../contract';
import { fetchFeedPage } from './videos';

interface Pages {
  /** The first page's URL and attempt these pages belong to: a new URL, or a retry, starts over. */
  tag: string;
  status: 'loading' | 'ready' | 'error';
  videos: Video[];
  next: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
  error?: unknown;
}

const fresh = (tag: string): Pages => ({
  tag,
  status: 'loading',
  videos: [],
  next: null,
  loadingMore: false,
  moreFailed: false,
});

/**
 * A paged video list (`{ data, links: { next } }`) for a grid: the first page from `firstUrl`, then each
 * links.next as handed out, without duplicates. A failed first page offers `retry`; a failed later page stops
 * there (spec §8: list failures stop loading) until `loadMore` is asked again.
 */
export function useVideoPages(firstUrl: string) {
  const [attempt, setAttempt] = useState(0);
  const tag = `${attempt}\u0000${firstUrl}`;
  const [pages, setPages] = useState<Pages>(() => fresh(tag));
  const more = useRef<AbortController | null>(null);
  const loadFirst = useEffectEvent((signal: AbortSignal) => fetchFeedPage(firstUrl, signal));

  useEffect(() => {
    more.current?.abort();
    const controller = new AbortController();
    loadFirst(controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setPages({ ...fresh(tag), status: 'ready', videos: page.data, next: page.links.next });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setPages({ ...fresh(tag), status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [tag]);

  useEffect(() => () => more.current?.abort(), []);

  // Until the first page of this URL (or this retry) is in, earlier pages are not this list's.
  const current = pages.tag === tag ? pages : fresh(tag);
  const { next, status, loadingMore } = current;
  const loadMore = useCallback(() => {
    if (status !== 'ready' || next === null || loadingMore) return;
    const controller = new AbortController();
    more.current = controller;
    setPages((p) => ({ ...p, loadingMore: true, moreFailed: false }));
    fetchFeedPage(next, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setPages((p) => {
          if (p.tag !== tag || p.next !== next) return p;
          const known = new Set(p.videos.map((v) => v.id));
          return {
            ...p,
            videos: [...p.videos, ...page.data.filter((v) => !known.has(v.id))],
            next: page.links.next,
            loadingMore: false,
          };
        });
      },
      () => {
        if (!controller.signal.aborted) setPages((p) => ({ ...p, loadingMore: false, moreFailed: true }));
      },
    );
  }, [tag, next, status, loadingMore]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...current, loadMore, retry };
}

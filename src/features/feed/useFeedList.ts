import { useAtom, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/errors';
import { ApiError } from '../../api/http';
import { fetchFeedPage } from '../../api/videos';
import type { Video } from '../../contract';
import { useEffectEvent } from '../../state/effectEvent';
import { useRealNavigationType } from '../../state/panel';
import { feedIndexAtom, feedListAtom, feedLoadingMoreAtom } from './feedAtoms';
import type { FeedSource, FeedStart } from './sources';

const merge = (known: Video[], page: Video[]) => {
  // Pages are keyset-stable on the server; the filter only guards a list handed over by a grid.
  const seen = new Set(known.map((v) => v.id));
  return [...known, ...page.filter((v) => !seen.has(v.id))];
};

/** No answer, a timeout, too many requests or a server fault may pass; a 4xx answer will be the same again. */
function retryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/**
 * Owns the list behind a feed screen: starts it (from the grid's hand-over or the first page), and loads the
 * next page on demand. Returns `loadMore`, safe to call repeatedly: one request at a time.
 */
export function useFeedList(source: FeedSource, start: FeedStart | undefined, generation = 0) {
  const [list, setList] = useAtom(feedListAtom);
  const setIndex = useSetAtom(feedIndexAtom);
  const [loadingMore, setLoadingMore] = useAtom(feedLoadingMoreAtom);
  const inFlight = useRef<AbortController | null>(null);
  const [attempt, setAttempt] = useState(0);
  const listKey = `${source.key}#${generation}#${attempt}`;
  // Coming back (history POP) from a profile opened by a swipe resumes the same list at the same video.
  const resume = useRealNavigationType() === 'POP' && list.key === listKey && list.status === 'ready';
  const resumeRef = useRef(resume);
  // Navigation state is read once per list, when it starts: it is a hand-over, not an input that changes.
  const handOver = useEffectEvent(() => start);

  useEffect(() => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoadingMore(false);
    if (resumeRef.current) return () => controller.abort();
    const start = handOver();
    if (start && start.list.length > 0) {
      setList({ key: listKey, videos: start.list, next: start.next ?? null, status: 'ready' });
      setIndex(Math.min(Math.max(start.index, 0), start.list.length - 1));
      return () => controller.abort();
    }
    setList({ key: listKey, videos: [], next: null, status: 'loading' });
    setIndex(0);
    fetchFeedPage(source.firstUrl, controller.signal).then(
      (page) => setList({ key: listKey, videos: page.data, next: page.links.next, status: 'ready' }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setList({
          key: listKey,
          videos: [],
          next: null,
          status: 'error',
          error: errorText(error),
          retryable: retryable(error),
        });
      },
    );
    return () => controller.abort();
  }, [listKey, source.firstUrl, setList, setIndex, setLoadingMore]);

  const loadMore = useCallback(() => {
    if (loadingMore || list.status !== 'ready' || !list.next || list.key !== listKey) return;
    const controller = new AbortController();
    inFlight.current = controller;
    setLoadingMore(true);
    const url = list.next;
    fetchFeedPage(url, controller.signal).then(
      (page) => {
        setList((current) =>
          current.key === listKey
            ? { ...current, videos: merge(current.videos, page.data), next: page.links.next }
            : current,
        );
        setLoadingMore(false);
      },
      () => {
        // Keep links.next: the next attempt (the next swipe near the end) retries the same page.
        if (!controller.signal.aborted) setLoadingMore(false);
      },
    );
  }, [list, listKey, loadingMore, setList, setLoadingMore]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { list: list.key === listKey ? list : null, loadMore, retry, loadingMore };
}

import { useAtom, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../../api/errors';
import { fromOfflineCopy } from '../../api/http';
import { isRetryable, useHealing } from '../../api/reconnect';
import { fetchFeedPage } from '../../api/videos';
import type { Video } from '../../contract';
import { listKept } from '../../offline/tunnel/store';
import { useEffectEvent } from '../../state/effectEvent';
import { offlineCopyAtom } from '../../state/network';
import { useRealNavigationType } from '../../state/panel';
import { feedIndexAtom, feedListAtom, feedLoadingMoreAtom } from './feedAtoms';
import type { FeedSource, FeedStart } from './sources';

const merge = (known: Video[], page: Video[]) => {
  // Pages are keyset-stable on the server; the filter only guards a list handed over by a grid.
  const seen = new Set(known.map((v) => v.id));
  return [...known, ...page.filter((v) => !seen.has(v.id))];
};

/** The videos kept on the device for this feed first (src/offline/tunnel), or none. */
const keptFor = (feed: string) =>
  Promise.all([listKept(), import('../../offline/tunnel/plan')]).then(
    ([entries, { offlineList }]) => offlineList(entries, feed),
    () => [] as Video[],
  );

/**
 * Owns the list behind a feed screen: starts it (from the grid's hand-over or the first page), and loads the
 * next page on demand. Returns `loadMore`, safe to call repeatedly: one request at a time.
 */
export function useFeedList(source: FeedSource, start: FeedStart | undefined, generation = 0) {
  const [list, setList] = useAtom(feedListAtom);
  const setIndex = useSetAtom(feedIndexAtom);
  const [loadingMore, setLoadingMore] = useAtom(feedLoadingMoreAtom);
  // The app's "offline" mark: what plays came from the device.
  const setOfflineCopy = useSetAtom(offlineCopyAtom);
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
    // No network: the videos kept on the device play instead (issue 35), before any saved copy of the page,
    // whose other videos could not play; an error only when nothing is kept.
    const offline = async (fallback: () => void) => {
      const kept = await keptFor(source.key);
      if (controller.signal.aborted) return;
      if (kept.length === 0) fallback();
      else {
        setList({ key: listKey, videos: kept, next: null, status: 'ready', offline: true });
        setOfflineCopy(true);
      }
    };
    fetchFeedPage(source.firstUrl, controller.signal).then(
      (page) => {
        const ready = () =>
          setList({ key: listKey, videos: page.data, next: page.links.next, status: 'ready' });
        if (fromOfflineCopy(page)) void offline(ready);
        else ready();
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failed = () =>
          setList({
            key: listKey,
            videos: [],
            next: null,
            status: 'error',
            error: errorText(error),
            retryable: isRetryable(error),
          });
        if (isRetryable(error)) void offline(failed);
        else failed();
      },
    );
    return () => controller.abort();
  }, [listKey, source.firstUrl, source.key, setList, setIndex, setLoadingMore, setOfflineCopy]);

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

  // Back online: a failed feed loads again; an offline one goes on from the video on screen, with the
  // network's first page after the kept videos (the viewer is not sent back to the first).
  const current = list.key === listKey ? list : null;
  useHealing(current?.status === 'error' && current.retryable === true, retry);
  useHealing(current?.offline === true, () => {
    const controller = new AbortController();
    inFlight.current = controller;
    fetchFeedPage(source.firstUrl, controller.signal).then(
      (page) => {
        if (fromOfflineCopy(page)) return;
        setList((now) =>
          now.key === listKey
            ? { ...now, videos: merge(now.videos, page.data), next: page.links.next, offline: false }
            : now,
        );
      },
      () => undefined,
    );
  });

  return { list: current, loadMore, retry, loadingMore };
}

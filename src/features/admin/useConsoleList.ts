import { useCallback, useEffect, useRef, useState } from 'react';
import { useEffectEvent } from '../../state/effectEvent';
import { useConsole } from './session';

export interface ConsolePage<T> {
  data: T[];
  links: { next: string | null };
}

interface ListState<T> {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  next: string | null;
  error?: unknown;
  loadingMore: boolean;
  moreError?: unknown;
  /** A reload under way while the last answer stays on screen (after a decision made elsewhere). */
  refreshing: boolean;
}

const initial = <T>(): ListState<T> => ({
  status: 'loading',
  items: [],
  next: null,
  loadingMore: false,
  refreshing: false,
});

/**
 * A queue or list of the console: its first page for `key` (a new key starts over), then each links.next as
 * the server handed it out. Decided items leave with `remove`, without asking the server again; `reload`
 * asks for the first page again and keeps showing the list meanwhile, so the operator's place is not lost.
 */
export function useConsoleList<T>(
  key: string,
  fetchPage: (token: string, next: string | null) => Promise<ConsolePage<T>>,
  idOf: (item: T) => number,
) {
  const { call } = useConsole();
  const [state, setState] = useState<ListState<T>>(initial);
  // Answers for an older key or an older reload are dropped.
  const generation = useRef(0);
  const load = useEffectEvent((next: string | null) => call((token) => fetchPage(token, next)));
  const id = useEffectEvent(idOf);

  const first = useCallback((keep: boolean) => {
    const mine = ++generation.current;
    setState((s) => (keep && s.status === 'ready' ? { ...s, refreshing: true } : initial<T>()));
    load(null).then(
      (page) => {
        if (generation.current !== mine) return;
        setState({ ...initial<T>(), status: 'ready', items: page.data, next: page.links.next });
      },
      (error: unknown) => {
        if (generation.current !== mine) return;
        setState({ ...initial<T>(), status: 'error', error });
      },
    );
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key is what starts the list over.
  useEffect(() => {
    first(false);
    return () => {
      generation.current++;
    };
  }, [key, first]);

  const loadMore = useCallback(() => {
    if (state.status !== 'ready' || !state.next || state.loadingMore) return;
    const mine = generation.current;
    const next = state.next;
    setState((s) => ({ ...s, loadingMore: true, moreError: undefined }));
    load(next).then(
      (page) => {
        if (generation.current !== mine) return;
        setState((s) => {
          const known = new Set(s.items.map(id));
          return {
            ...s,
            items: [...s.items, ...page.data.filter((item) => !known.has(id(item)))],
            next: page.links.next,
            loadingMore: false,
          };
        });
      },
      (error: unknown) => {
        if (generation.current !== mine) return;
        setState((s) => ({ ...s, loadingMore: false, moreError: error }));
      },
    );
  }, [state.status, state.next, state.loadingMore]);

  // Every item of the loaded pages decided: the next page, if there is one, takes their place.
  useEffect(() => {
    if (
      state.status === 'ready' &&
      state.items.length === 0 &&
      state.next &&
      !state.loadingMore &&
      !state.moreError
    )
      loadMore();
  }, [state.status, state.items.length, state.next, state.loadingMore, state.moreError, loadMore]);

  const remove = useCallback(
    (itemId: number) => setState((s) => ({ ...s, items: s.items.filter((item) => id(item) !== itemId) })),
    [],
  );
  const update = useCallback(
    (itemId: number, change: (item: T) => T) =>
      setState((s) => ({ ...s, items: s.items.map((item) => (id(item) === itemId ? change(item) : item)) })),
    [],
  );
  const reload = useCallback(() => first(true), [first]);
  const retry = useCallback(() => first(false), [first]);

  return { ...state, loadMore, remove, update, reload, retry };
}

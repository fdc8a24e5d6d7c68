import { useEffect, useRef } from 'react';
import { searchDiscover } from '../../api/discover';
import { errorText } from '../../api/errors';
import type { SearchResponse } from '../../contract';
import { useEntryState } from '../../state/historyEntry';

/** Spec §9: results follow typing after 300 ms; the search counts as finished after 2 s without typing. */
export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_FINAL_MS = 2000;
/** The server answers empty lists below this, so the client does not ask. */
export const SEARCH_MIN_CHARS = 2;

export type SearchState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; data: SearchResponse }
  | { status: 'error'; message: string };

/**
 * Live search for the discover box: a quick request after 300 ms (is_final false) and the logged one after
 * 2 s (is_final true); typing again cancels both and anything still in flight.
 */
export function useDiscoverSearch(text: string): SearchState {
  const query = text.trim();
  const active = query.length >= SEARCH_MIN_CHARS;
  const [settled, setSettled] = useEntryState<{ query: string; state: SearchState } | null>(
    'discoverSearchResults',
    null,
  );
  // Back to the screen, the results it showed are shown again, not asked for (or logged) a second time. Not
  // cleared at that first run: React's strict mode runs it twice.
  const keptQuery = useRef(settled?.state.status === 'done' ? settled.query : undefined);

  useEffect(() => {
    if (!active || query === keptQuery.current) return;
    keptQuery.current = undefined;
    const controller = new AbortController();
    const run = (isFinal: boolean) =>
      searchDiscover(query, isFinal, controller.signal).then(
        (data) => setSettled({ query, state: { status: 'done', data } }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = errorText(error);
          // A failed final call keeps the results the quick one already showed.
          setSettled((current) =>
            isFinal && current?.query === query && current.state.status === 'done'
              ? current
              : { query, state: { status: 'error', message } },
          );
        },
      );
    const quick = window.setTimeout(() => void run(false), SEARCH_DEBOUNCE_MS);
    const final = window.setTimeout(() => void run(true), SEARCH_FINAL_MS);
    return () => {
      window.clearTimeout(quick);
      window.clearTimeout(final);
      controller.abort();
    };
  }, [query, active, setSettled]);

  if (!active) return { status: 'idle' };
  return settled?.query === query ? settled.state : { status: 'loading' };
}

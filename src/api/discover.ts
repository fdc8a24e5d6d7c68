import {
  type DiscoverResponse,
  discoverResponseSchema,
  type SearchResponse,
  searchResponseSchema,
} from '../contract';
import { apiFetch } from './http';
import { toQuery } from './query';

/** GET /v1/discover: the same for every viewer of a gender choice; the service worker keeps a copy. */
export function fetchDiscover(gender: string | undefined, signal?: AbortSignal): Promise<DiscoverResponse> {
  return apiFetch(`/v1/discover${toQuery({ gender })}`, { schema: discoverResponseSchema, signal });
}

/**
 * POST /v1/discover/search?query=: `isFinal` once the viewer stopped typing (2 s), so the server logs
 * finished searches only.
 */
export function searchDiscover(
  query: string,
  isFinal: boolean,
  signal?: AbortSignal,
): Promise<SearchResponse> {
  return apiFetch(`/v1/discover/search${toQuery({ query })}`, {
    method: 'POST',
    body: { is_final: isFinal },
    schema: searchResponseSchema,
    signal,
  });
}

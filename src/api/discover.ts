import {
  type DiscoverResponse,
  discoverResponseSchema,
  type SearchResponse,
  searchResponseSchema,
} from '../contract/discover';
import { rememberBootRequest, takeBootRequest } from './boot';
import { apiFetch } from './http';
import { toQuery } from './query';

const GENDER = /^[mt](,[mt])?$/;

/** The gender filter of a preferencesCategory value, or none when it is not a valid one. */
export const discoverGender = (category: string) => (GENDER.test(category) ? category : undefined);

const discoverUrl = (gender: string | undefined) => `/v1/discover${toQuery({ gender })}`;

let early: { url: string; answer: Promise<DiscoverResponse>; value?: DiscoverResponse } | undefined;

/**
 * Starts GET /v1/discover at app start when the app opens on /discover, beside the screen's own code
 * download; the screen's first load takes this answer over instead of asking again.
 */
export function prefetchDiscover(gender: string | undefined): Promise<DiscoverResponse> {
  const url = discoverUrl(gender);
  // index.html's script may have sent this very request already (see boot.ts): apiFetch takes it over then.
  const answer = apiFetch(url, { schema: discoverResponseSchema, adopt: takeBootRequest() });
  const started: NonNullable<typeof early> = { url, answer };
  answer.then(
    (value) => {
      started.value = value;
    },
    () => undefined,
  );
  early = started;
  return answer;
}

/**
 * The app-start answer for this gender if it has already arrived (usually: index.html's script asked for it
 * before the app's code came), taken over so the screen's first render shows Discover rather than a
 * skeleton for one frame, an extra commit and layout on a slow phone's way to its first picture.
 */
export function takeArrivedDiscover(gender: string | undefined): DiscoverResponse | undefined {
  const url = discoverUrl(gender);
  if (early?.url !== url || !early.value) return undefined;
  const { value } = early;
  early = undefined;
  void rememberBootRequest('discover', url);
  return value;
}

/** GET /v1/discover: the same for every viewer of a gender choice; the service worker keeps a copy. */
export function fetchDiscover(gender: string | undefined, signal?: AbortSignal): Promise<DiscoverResponse> {
  const url = discoverUrl(gender);
  // The next visit's boot script asks for this answer before the app's code has loaded (src/api/boot.ts).
  void rememberBootRequest('discover', url);
  if (early?.url === url) {
    const { answer } = early;
    early = undefined;
    return answer;
  }
  return apiFetch(url, { schema: discoverResponseSchema, signal });
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

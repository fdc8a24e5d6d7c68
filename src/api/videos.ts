import type * as v from 'valibot';
import {
  tagListSchema,
  type VideoDeleteResponse,
  type VideoList,
  videoDeleteResponseSchema,
  videoListSchema,
} from '../contract/video';
import { takeBootRequest } from './boot';
import { apiFetch } from './http';
import { toQuery } from './query';

let early: { url: string; answer: Promise<VideoList> } | undefined;

/**
 * Starts a feed's first page at app start (the home feed, on `/`), beside the screen's code download; the
 * feed's first load of the same URL takes this answer over instead of asking again.
 */
export function prefetchFeedPage(url: string) {
  // index.html's script may have sent this very request already (see boot.ts): apiFetch takes it over then.
  const answer = apiFetch(url, { schema: videoListSchema, adopt: takeBootRequest() });
  answer.catch(() => undefined);
  early = { url, answer };
}

/** Any feed page: the first page's URL or a links.next the server handed out (never built by the client). */
export function fetchFeedPage(url: string, signal?: AbortSignal): Promise<VideoList> {
  if (early?.url === url) {
    const { answer } = early;
    early = undefined;
    return abortable(answer, signal);
  }
  return apiFetch(url, { schema: videoListSchema, signal });
}

/** The caller's signal still cancels, for an answer it did not start itself. */
function abortable<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new DOMException('Aborted', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/**
 * GET /v1/videos/{id}/delete (spec §7: a GET, bearer): the owner or a manager of their studio. The answer's
 * status is `deleting`; the video is gone from every list at once and its files follow.
 */
export function deleteVideo(id: number, signal?: AbortSignal): Promise<VideoDeleteResponse> {
  return apiFetch(`/v1/videos/${id}/delete`, { schema: videoDeleteResponseSchema, signal });
}

/** POST /v1/video-rating/rate: users only (1 worst .. 5 best); re-rating replaces the earlier choice. */
export function postVideoRating(videoId: number, rating: number): Promise<unknown> {
  return apiFetch('/v1/video-rating/rate', { method: 'POST', body: { video_id: videoId, rating } });
}

export interface ReportInput {
  video_id: number;
  reason: string;
  message: string;
  email?: string;
}

/** POST /v1/report-video: 201 on success; guests must give an email. */
export function postVideoReport(input: ReportInput): Promise<unknown> {
  return apiFetch('/v1/report-video', { method: 'POST', body: input });
}

/** GET /v1/tags: search from 2 characters, 100 per page (spec §9). */
export function fetchTags(
  params: { search?: string; per_page?: number; gender?: string; page?: number },
  signal?: AbortSignal,
): Promise<v.InferOutput<typeof tagListSchema>> {
  return apiFetch(`/v1/tags${toQuery(params)}`, { schema: tagListSchema, signal });
}

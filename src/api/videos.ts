import type * as v from 'valibot';
import { tagListSchema, type VideoList, videoListSchema } from '../contract';
import { apiFetch } from './http';
import { toQuery } from './query';

export type HomeFeedParams = {
  /** Gender letters, comma joined: "m", "t" or "m,t". */
  gender?: string;
  /** Tag ids, comma joined. */
  tags?: string;
  page?: number;
};

export function fetchHomeFeed(params: HomeFeedParams = {}, signal?: AbortSignal): Promise<VideoList> {
  return apiFetch(`/v1/videos${toQuery(params)}`, { schema: videoListSchema, signal });
}

/** Any feed page: the first page's URL or a links.next the server handed out (never built by the client). */
export function fetchFeedPage(url: string, signal?: AbortSignal): Promise<VideoList> {
  return apiFetch(url, { schema: videoListSchema, signal });
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

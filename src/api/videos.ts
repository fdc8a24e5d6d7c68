import { type VideoList, videoListSchema } from '../contract';
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

/** POST /v1/video-like: add or remove this viewer's like. */
export function postVideoLike(videoId: number, liked: boolean): Promise<unknown> {
  return apiFetch('/v1/video-like', {
    method: 'POST',
    body: { video_id: videoId, type: liked ? 'add' : 'remove' },
  });
}

/** POST /v1/video-view: the server counts one view per viewer and video (README, API rules). */
export function postVideoView(videoId: number): Promise<unknown> {
  return apiFetch('/v1/video-view', { method: 'POST', body: { video_id: videoId } });
}

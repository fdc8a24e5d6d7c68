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

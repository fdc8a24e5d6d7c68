import {
  channelListSchema,
  followResponseSchema,
  type PublicUser,
  publicUserResponseSchema,
} from '../contract';
import { apiFetch } from './http';

export async function fetchUser(idOrSlug: string | number, signal?: AbortSignal): Promise<PublicUser> {
  const { data } = await apiFetch(`/v1/users/${encodeURIComponent(String(idOrSlug))}`, {
    schema: publicUserResponseSchema,
    signal,
  });
  return data;
}

/** POST /v1/follow-model: follow or unfollow; the answer carries the new state and follower count. */
export function postFollow(modelId: number, follow: boolean, signal?: AbortSignal) {
  return apiFetch('/v1/follow-model', {
    method: 'POST',
    body: { model_id: modelId, action: follow ? 'follow' : 'unfollow' },
    schema: followResponseSchema,
    signal,
  });
}

/** GET /v1/users/{slug}/videos: the first page of a profile's videos grid (30 a page, then links.next). */
export const userVideosPath = (idOrSlug: string | number) =>
  `/v1/users/${encodeURIComponent(String(idOrSlug))}/videos?page=1`;

/** GET /v1/users?type=channel&gender=m (spec §7): the first page of channel cards, live first. */
export const CHANNELS_PATH = '/v1/users?type=channel&gender=m&page=1';

/** One page of channel cards: the first page's URL or a links.next the server handed out. */
export function fetchChannelPage(url: string, signal?: AbortSignal) {
  return apiFetch(url, { schema: channelListSchema, signal });
}

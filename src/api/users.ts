import { followResponseSchema, type PublicUser, publicUserResponseSchema } from '../contract';
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

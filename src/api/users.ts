import { type PublicUser, publicUserResponseSchema } from '../contract';
import { apiFetch } from './http';

export async function fetchUser(idOrSlug: string | number, signal?: AbortSignal): Promise<PublicUser> {
  const { data } = await apiFetch(`/v1/users/${encodeURIComponent(String(idOrSlug))}`, {
    schema: publicUserResponseSchema,
    signal,
  });
  return data;
}

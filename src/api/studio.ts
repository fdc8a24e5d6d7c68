import { studioResponseSchema, trackingResponseSchema } from '../contract';
import { ApiError, apiFetch } from './http';

export type Studio = { name: string };

/** GET /v1/profile/studio: the creator's studio, or null when they are in none (404). */
export async function fetchStudio(signal?: AbortSignal): Promise<Studio | null> {
  try {
    return await apiFetch('/v1/profile/studio', { schema: studioResponseSchema, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** POST /v1/profile/join-studio: 200 with the studio's name; every refusal is 'Invalid key'. */
export function joinStudio(key: string, signal?: AbortSignal): Promise<Studio> {
  return apiFetch('/v1/profile/join-studio', {
    method: 'POST',
    body: { key },
    schema: studioResponseSchema,
    signal,
  });
}

/** POST /v1/profile/leave-studio (no body). */
export async function leaveStudio(signal?: AbortSignal): Promise<void> {
  await apiFetch('/v1/profile/leave-studio', { method: 'POST', schema: trackingResponseSchema, signal });
}

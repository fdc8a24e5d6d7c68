import {
  followingModelsResponseSchema,
  type GenderPreference,
  type OwnProfile,
  ownProfileResponseSchema,
  type ProfileDetailsInput,
  type ProfileImageField,
  type ProfileLinksInput,
  profileUpdateResponseSchema,
} from '../contract';
import { apiFetch } from './http';

/** GET /v1/profile: the signed-in account, with what only its owner sees (email, verification, studio). */
export async function fetchOwnProfile(signal?: AbortSignal): Promise<OwnProfile> {
  const { data } = await apiFetch('/v1/profile', { schema: ownProfileResponseSchema, signal });
  return data;
}

/** POST /v1/profile with details, gender, password or colour; a 403 means the session is gone (spec §6). */
export function updateProfile(
  body: Partial<ProfileDetailsInput> | Record<string, unknown>,
  signal?: AbortSignal,
) {
  return apiFetch('/v1/profile', {
    method: 'POST',
    body,
    schema: profileUpdateResponseSchema,
    signal,
    loginOn: [403],
  });
}

/**
 * POST /v1/profile `{preference}`: the genders the account watches, so another device follows. A background
 * save: no redirect to /login when it fails, the device keeps the choice either way.
 */
export function savePreference(preference: GenderPreference, signal?: AbortSignal) {
  return apiFetch('/v1/profile', {
    method: 'POST',
    body: { preference },
    schema: profileUpdateResponseSchema,
    signal,
    timeoutMs: 15_000,
  });
}

/** POST /v1/profile with links to add or delete; a 402 sends the creator to /login (spec §8). */
export function updateLinks(links: ProfileLinksInput['links'], signal?: AbortSignal) {
  return apiFetch('/v1/profile', {
    method: 'POST',
    body: { links },
    schema: profileUpdateResponseSchema,
    signal,
    loginOn: [402],
  });
}

/**
 * POST /v1/profile as multipart: a new avatar (`profile_photo`) or cover (`profile_cover`), already cropped
 * to its box on the device; the server re-encodes it. A 403 means the session is gone (spec §6).
 */
export function updateProfileImage(field: ProfileImageField, image: Blob, signal?: AbortSignal) {
  const form = new FormData();
  form.append(field, image, field === 'profile_photo' ? 'avatar.jpg' : 'cover.jpg');
  return apiFetch('/v1/profile', {
    method: 'POST',
    body: form,
    schema: profileUpdateResponseSchema,
    signal,
    loginOn: [403],
  });
}

/** GET /v1/profile/liked-videos: the first page of a plain user's liked videos (own profile, bearer). */
export const LIKED_VIDEOS_PATH = '/v1/profile/liked-videos?page=1';

/** GET /v1/profile/following-models: the creators the signed-in user follows, live ones first. */
export async function fetchFollowingModels(signal?: AbortSignal) {
  const { data } = await apiFetch('/v1/profile/following-models', {
    schema: followingModelsResponseSchema,
    signal,
  });
  return data.map((entry) => entry.model);
}

// Calls of server/routes/uploads.ts. The bytes themselves travel by tus (tus-js-client, driven by the upload
// queue in src/offline/uploads); these are the JSON calls around them.
import type * as v from 'valibot';
import { type UploadResult, uploadDetailsResponseSchema, uploadResultSchema } from '../contract';
import type { UploadDetailsInput } from '../contract/upload-details';
import { apiFetch } from './http';

/** Where resumable uploads are created (tus creation). */
export const UPLOADS_PATH = '/v1/uploads';

/**
 * The outcome of a finished tus upload (GET /v1/uploads/{id}/video): the video, its first frame and its
 * status now. A refused or failed video answers 422 with the reason (`errors.video[0]`); 409 while bytes are
 * missing; 404 once the video is deleted.
 */
export function fetchUploadOutcome(uploadUrl: string, signal?: AbortSignal): Promise<UploadResult> {
  const path = new URL(uploadUrl, window.location.origin).pathname;
  return apiFetch(`${path}/video`, { schema: uploadResultSchema, signal, timeoutMs: 20_000 });
}

export type UploadDetailsAnswer = v.InferOutput<typeof uploadDetailsResponseSchema>;

/** POST /v1/videos/upload-details: title, tags (comma joined), nsfw and schedule of an uploaded video. */
export function submitUploadDetails(
  details: UploadDetailsInput,
  signal?: AbortSignal,
): Promise<UploadDetailsAnswer> {
  return apiFetch('/v1/videos/upload-details', {
    method: 'POST',
    body: details,
    schema: uploadDetailsResponseSchema,
    signal,
    timeoutMs: 20_000,
  });
}

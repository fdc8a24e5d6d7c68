// Uploads (spec §4 'Upload', §9 limits): the limits, tag names and what an upload answers. The details a
// creator types (POST /v1/videos/upload-details) have their own module, upload-details.ts, which is imported
// directly, not through this folder's index: its code then loads with the upload screens, not with the shell
// of every page.
import * as v from 'valibot';
import { videoStatusSchema } from './common';
import { videoSchema } from './video';

/** Spec §9: at most 30 minutes and 2 GB (2 GiB, as file pickers count). */
export const VIDEO_MAX_SECONDS = 30 * 60;
export const VIDEO_MAX_BYTES = 2 * 1024 ** 3;

/** A byte limit as file pickers word it (binary units): 2147483648 → "2 GB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/**
 * The key two tags share when they are "the same tag": case, accents and separators do not count
 * ("Neon_Lights" and "neon-lights" are one tag). Letters of every script are kept, so "日本" has a slug.
 */
export function tagSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Comma-joined tags as the client sends them; blanks around commas and empty items are formatting. */
export const splitTags = (joined: string): string[] =>
  joined
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** What both upload paths answer once the file is stored and its first frame is out. */
export const uploadResultSchema = v.object({
  message: v.string(),
  videoId: v.number(),
  /** URL of the first frame, for the details step. */
  screenshot: v.string(),
  status: videoStatusSchema,
  /** Playable and waiting for an operator before it goes public (UPLOAD_REVIEW=before). */
  inReview: v.optional(v.boolean()),
  /** Why the operators did not approve it (status `rejected`). */
  statusReason: v.optional(v.nullable(v.string())),
});
export type UploadResult = v.InferOutput<typeof uploadResultSchema>;

/** POST /v1/videos/upload-details answers the video as every list shows it. */
export const uploadDetailsResponseSchema = v.object({ message: v.string(), data: videoSchema });

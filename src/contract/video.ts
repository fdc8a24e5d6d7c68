import * as v from 'valibot';
import {
  genderFilterField,
  idListSchema,
  listOf,
  listQuery,
  pageField,
  perPageField,
  videoStatusSchema,
} from './common';

export const tagSchema = v.object({
  id: v.number(),
  name: v.string(),
  slug: v.string(),
});
export type Tag = v.InferOutput<typeof tagSchema>;

/** The author as embedded in a video: enough for the overlay avatar, LIVE badge and profile link. */
export const videoAuthorSchema = v.object({
  id: v.number(),
  slug: v.string(),
  name: v.string(),
  avatar: v.nullable(v.string()),
  isLive: v.picklist([0, 1]),
  /** The link of a live creator marked live (their room): the feed's live chip opens it. */
  liveLink: v.optional(v.nullable(v.object({ id: v.number(), name: v.string(), url: v.string() }))),
});

export const videoSchema = v.object({
  id: v.number(),
  slug: v.string(),
  title: v.string(),
  tags: v.array(tagSchema),
  user: videoAuthorSchema,
  userId: v.number(),
  thumbnailUrl: v.nullable(v.string()),
  /** The poster at grid size, for grids, carousels and sidebars; absent or null: use thumbnailUrl. */
  tileUrl: v.optional(v.nullable(v.string())),
  /** Seconds. */
  duration: v.number(),
  viewCount: v.number(),
  likeCount: v.number(),
  isLiked: v.boolean(),
  isRated: v.boolean(),
  isVertical: v.boolean(),
  status: videoStatusSchema,
  /** Why the video is in error (or was rejected); only for its creator and their studio's managers. */
  statusReason: v.optional(v.nullable(v.string())),
  /**
   * Playable, and waiting for an operator before it goes out (UPLOAD_REVIEW=before); only for its creator and
   * their studio's managers.
   */
  inReview: v.optional(v.boolean()),
  /** HLS master playlist (or an mp4 for legacy sources). */
  playlistUrl: v.nullable(v.string()),
  redirectToTag: v.nullable(v.string()),
});
export type Video = v.InferOutput<typeof videoSchema>;

export const videoListSchema = listOf(videoSchema);
export type VideoList = v.InferOutput<typeof videoListSchema>;

/** GET /v1/videos/{id}/delete: the video is hidden at once (status deleting); a job removes it later. */
export const videoDeleteResponseSchema = v.object({
  message: v.string(),
  data: v.object({ id: v.number(), status: v.literal('deleting') }),
});
export type VideoDeleteResponse = v.InferOutput<typeof videoDeleteResponseSchema>;

/** Query of every feed list: gender letters comma joined (m,t), tag ids comma joined, page from 1. */
export const feedQuerySchema = listQuery({
  gender: genderFilterField,
  tags: v.optional(idListSchema),
  page: pageField,
  per_page: perPageField,
  /** Opaque position from links.next; clients never build it themselves. */
  cursor: v.optional(v.pipe(v.string(), v.maxLength(16_000))),
});
export type FeedQuery = v.InferOutput<typeof feedQuerySchema>;

/** GET /v1/tags. */
export const tagListQuerySchema = listQuery({
  gender: genderFilterField,
  search: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(64),
      v.check((s) => !s.includes('\u0000')),
    ),
  ),
  page: pageField,
  per_page: perPageField,
  cursor: v.optional(v.pipe(v.string(), v.maxLength(1000))),
});

export const tagListSchema = listOf(tagSchema);

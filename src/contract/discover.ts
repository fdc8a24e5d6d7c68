import * as v from 'valibot';
import { noNul } from './common';
import { tagSchema, videoSchema } from './video';

/** A creator card in discover carousels. */
export const creatorCardSchema = v.object({
  id: v.number(),
  slug: v.string(),
  name: v.string(),
  avatar: v.nullable(v.string()),
  isLive: v.picklist([0, 1]),
  type: v.picklist(['model', 'channel']),
});
export type CreatorCard = v.InferOutput<typeof creatorCardSchema>;

export const webcamSiteSchema = v.object({
  name: v.string(),
  slug: v.string(),
  icon: v.nullable(v.string()),
});
export type WebcamSite = v.InferOutput<typeof webcamSiteSchema>;

/** GET /v1/discover */
export const discoverResponseSchema = v.object({
  liveUsers: v.array(creatorCardSchema),
  latestUsers: v.array(creatorCardSchema),
  videos: v.object({
    liked_weekly: v.array(videoSchema),
    liked_all_time: v.array(videoSchema),
    viewed_weekly: v.array(videoSchema),
    viewed_all_time: v.array(videoSchema),
  }),
  webcam_sites: v.array(webcamSiteSchema),
});
export type DiscoverResponse = v.InferOutput<typeof discoverResponseSchema>;

/** POST /v1/discover/search?query= : the query string carries the text, the body who asks and why. */
export const searchQuerySchema = v.object({
  query: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(100, 'Search is too long.'), noNul('Invalid search.')),
    '',
  ),
});

export const searchBodySchema = v.object({
  guest_id: v.optional(v.nullable(v.string())),
  /** true once the user stopped typing (2 s debounce): only these are logged for analytics. */
  is_final: v.optional(
    v.pipe(
      v.union([v.boolean(), v.picklist([0, 1, '0', '1', 'true', 'false'])]),
      v.transform((x) => x === true || x === 1 || x === '1' || x === 'true'),
    ),
    false,
  ),
});

export const searchResponseSchema = v.object({
  users: v.array(creatorCardSchema),
  tags: v.array(tagSchema),
  videos: v.array(videoSchema),
});
export type SearchResponse = v.InferOutput<typeof searchResponseSchema>;

/**
 * The ranked carousels of the discover page (spec §2), in page order: the key in the discover answer, the
 * category slug of their feed (/discover/category/{slug}/feed) and the title both show.
 */
export const discoverGroups = [
  { key: 'liked_weekly', slug: 'most-liked-this-week', title: 'Most liked this week' },
  { key: 'liked_all_time', slug: 'most-liked-all-time', title: 'Most liked all time' },
  { key: 'viewed_weekly', slug: 'most-viewed-this-week', title: 'Most viewed this week' },
  { key: 'viewed_all_time', slug: 'most-viewed-all-time', title: 'Most viewed all time' },
] as const satisfies readonly { key: keyof DiscoverResponse['videos']; slug: string; title: string }[];

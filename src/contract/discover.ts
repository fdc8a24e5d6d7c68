import * as v from 'valibot';
import { videoSchema } from './video';

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

import * as v from 'valibot';

/** Guests identify themselves with a locally generated id (a UUID); users with their bearer token. */
export const guestIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/, 'Invalid guest id.'));

const id = (message: string) =>
  v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))], message),
    v.number(),
    v.integer(message),
    v.minValue(1, message),
    // Ids are PostgreSQL integers; a larger number can name nothing and must not reach the database.
    v.maxValue(2_147_483_647, message),
  );

/** The viewer part every tracking post carries; user_id is informative only, the token decides. */
const viewerFields = {
  user_id: v.optional(v.nullable(v.union([v.number(), v.string()]))),
  guest_id: v.optional(v.nullable(guestIdSchema)),
};

/** POST /v1/video-like */
export const videoLikeSchema = v.object({
  video_id: id('Missing video id.'),
  type: v.picklist(['add', 'remove'], 'Type must be add or remove.'),
  ...viewerFields,
});
export type VideoLikeInput = v.InferOutput<typeof videoLikeSchema>;

/** POST /v1/video-view */
export const videoViewSchema = v.object({ video_id: id('Missing video id.'), ...viewerFields });
export type VideoViewInput = v.InferOutput<typeof videoViewSchema>;

/** Spec §9: 1 bottom cams, 3 menu, 5 other, 7 floating Live Cams button. */
export const eventIds = [1, 3, 5, 7] as const;

/** POST /v1/event */
export const eventSchema = v.object({
  event_id: v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.transform(Number))]),
    v.picklist(eventIds, 'Unknown event.'),
  ),
  ...viewerFields,
});
export type EventInput = v.InferOutput<typeof eventSchema>;

/** POST /v1/link-click */
export const linkClickSchema = v.object({
  link_id: id('Missing link id.'),
  is_live: v.optional(v.union([v.boolean(), v.picklist([0, 1])])),
  link_location: v.optional(v.pipe(v.string(), v.maxLength(32)), 'profile'),
  ...viewerFields,
});
export type LinkClickInput = v.InferOutput<typeof linkClickSchema>;

/** POST /v1/profile-view */
export const profileViewSchema = v.object({ profile_id: id('Missing profile id.'), ...viewerFields });
export type ProfileViewInput = v.InferOutput<typeof profileViewSchema>;

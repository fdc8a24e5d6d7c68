import * as v from 'valibot';
import { idSchema as id, noNul } from './common';

/** Guests identify themselves with a locally generated id (a UUID); users with their bearer token. */
export const guestIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{8,64}$/, 'Invalid guest id.'));

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

/** POST /v1/video-view */
export const videoViewSchema = v.object({ video_id: id('Missing video id.'), ...viewerFields });

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

/** POST /v1/link-click */
export const linkClickSchema = v.object({
  link_id: id('Missing link id.'),
  is_live: v.optional(v.union([v.boolean(), v.picklist([0, 1])])),
  link_location: v.optional(v.pipe(v.string(), v.maxLength(32)), 'profile'),
  ...viewerFields,
});

/** POST /v1/profile-view */
export const profileViewSchema = v.object({ profile_id: id('Missing profile id.'), ...viewerFields });

/** POST /v1/video-rating/rate: users only; 1 (worst) to 5 (best), the emoji scale of spec §9. */
export const videoRatingSchema = v.object({
  video_id: id('Missing video id.'),
  rating: v.pipe(
    v.optional(v.unknown(), null),
    v.transform((x) => (typeof x === 'string' && /^\d$/.test(x) ? Number(x) : x)),
    v.number('Choose a rating from 1 to 5.'),
    v.integer('Choose a rating from 1 to 5.'),
    v.minValue(1, 'Choose a rating from 1 to 5.'),
    v.maxValue(5, 'Choose a rating from 1 to 5.'),
  ),
});

/** Spec §5, spelled exactly as the spec (and the existing client) spell them. */
export const reportReasons = [
  'innapropiate',
  'copyright',
  'wrong-hashtag',
  'spam',
  'hateful-content',
  'rape-sexual-assault',
  'violence',
  'death',
  'deepfake',
  'drugs',
  'underage',
  'consent',
  'other',
] as const;
export type ReportReason = (typeof reportReasons)[number];

export const reportMessages = {
  missingVideo: 'Missing video id.',
  missingEmail: 'Missing email.',
  invalidEmail: 'Invalid email.',
  missingReason: 'Please choose a reason.',
  missingMessage: 'Description is required.',
  sent: 'Report sent',
  tooMany: 'You sent too many reports. Please try again later.',
} as const;

/** The longest description of a report: the box takes no more, and the server refuses more. */
export const REPORT_MESSAGE_MAX = 2000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/**
 * POST /v1/report-video. Guests must leave an email so a moderator can answer; a logged-in user is
 * reachable through the account, so the email is optional then (but still checked when given).
 */
export const reportVideoSchema = (opts: { guest: boolean }) =>
  v.object({
    video_id: id(reportMessages.missingVideo),
    email: opts.guest
      ? v.pipe(
          v.optional(v.unknown(), ''),
          v.string(reportMessages.missingEmail),
          v.trim(),
          v.nonEmpty(reportMessages.missingEmail),
          v.maxLength(254, reportMessages.invalidEmail),
          v.regex(EMAIL, reportMessages.invalidEmail),
          noNul(reportMessages.invalidEmail),
        )
      : v.optional(
          v.nullable(
            v.union(
              [
                v.literal(''),
                v.pipe(
                  v.string(),
                  v.trim(),
                  v.maxLength(254),
                  v.regex(EMAIL, reportMessages.invalidEmail),
                  noNul(reportMessages.invalidEmail),
                ),
              ],
              reportMessages.invalidEmail,
            ),
          ),
        ),
    reason: v.pipe(v.optional(v.unknown(), ''), v.picklist(reportReasons, reportMessages.missingReason)),
    message: v.pipe(
      v.optional(v.unknown(), ''),
      v.string(reportMessages.missingMessage),
      v.trim(),
      v.nonEmpty(reportMessages.missingMessage),
      v.maxLength(REPORT_MESSAGE_MAX, `Description cannot exceed ${REPORT_MESSAGE_MAX} characters.`),
      noNul(reportMessages.missingMessage),
    ),
    guest_id: v.optional(v.nullable(guestIdSchema)),
  });

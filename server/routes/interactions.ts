// Likes, views, ratings and reports. Every counter on videos (like_count, view_count, rating_count,
// rating_sum) changes in the same transaction as the row it summarises, so they can never drift apart.
// Likes and views are written in batches (videos/interaction-writes.ts), since a watching crowd sends many.
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  messages,
  reportMessages,
  reportReasons,
  reportVideoSchema,
  videoLikeSchema,
  videoRatingSchema,
  videoViewSchema,
} from '../../src/contract';
import { canManageCreator } from '../auth/permissions';
import type { AppDeps } from '../deps';
import {
  ERR,
  guestOrUser,
  invalid,
  noViewer,
  type Operation,
  rateLimited,
  replayable,
  staleBearer,
  unauthenticated,
  videoNotFound,
} from '../http/doc';
import { HttpError, notFound } from '../http/errors';
import { idempotencyClaim, idempotent, sendOutcome } from '../http/idempotency';
import { limitGuestAction, reportLimit } from '../http/rate-limit';
import { parse } from '../http/validate';
import { callerKey, identifiedViewer, requireUser, viewerOf } from '../http/viewer';
import { VIEW_WINDOW_HOURS, writeInteraction } from '../videos/interaction-writes';
import * as q from '../videos/interactions-queries';
import { visibleVideoId } from '../videos/listing';

const OWN_VIDEO = 'You cannot rate your own video.';

export default async function interactionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const { guestsPerAddress, guestActionsPerAddress, guestWindowMs } = deps.config;
  const guestRule =
    `Guests, per client address and ${Math.round(guestWindowMs / 60_000)} minutes: likes and views of at ` +
    `most ${guestsPerAddress} distinct \`guest_id\`s, and at most ${guestActionsPerAddress} guest likes and ` +
    'views in all (a household or a carrier NAT stays far below; a script minting guest ids does not). ' +
    `Past either: 429 \`${messages.server.tooManyGuests}\`. Users count by their account, not here.`;
  const guestLimited = {
    description: `Too many guest likes and views from this address (see above).`,
    ...ERR,
  };

  const likeDoc = replayable({
    summary: 'Like or unlike a video',
    auth: 'optional',
    body: videoLikeSchema,
    description:
      `${guestOrUser} ${noViewer} \`type\` sets the state: \`add\` twice is ` +
      'one like, `remove` of nothing changes nothing; `likeCount` moves only when the like really appears ' +
      `or goes, in the same transaction. ${guestRule}`,
    responses: {
      200: {
        description: 'The state after the call.',
        schema: v.object({
          data: v.object({ videoId: v.number(), isLiked: v.boolean(), likeCount: v.number() }),
        }),
      },
      401: staleBearer,
      404: videoNotFound,
      422: invalid,
      429: guestLimited,
    },
  });
  app.post('/v1/video-like', { config: { doc: likeDoc } }, async (request, reply) => {
    const input = parse(videoLikeSchema, request.body);
    const viewer = await identifiedViewer(request, deps);
    const { key } = viewer;
    if (!viewer.user) await limitGuestAction(request, deps, 'video-like', viewer.guestId);
    const videoId = await visibleVideoId(db, viewer, input.video_id);
    const claim = await idempotencyClaim(deps, request, 'video-like');
    const outcome = await writeInteraction(db, {
      kind: 'like',
      add: input.type === 'add',
      videoId,
      viewerKey: key,
      userId: viewer.user?.id ?? null,
      guestId: viewer.guestId ?? null,
      claim,
    });
    return sendOutcome(reply, outcome);
  });

  const viewDoc = replayable({
    summary: 'Count a view of a video',
    auth: 'optional',
    body: videoViewSchema,
    description:
      `A view counts once per viewer per video per ${VIEW_WINDOW_HOURS} hours (viewer: the user, else ` +
      '`guest_id`, else the client address): loops, swipes back and replays are one view, a return later in ' +
      'the day is another. `counted` tells whether this call counted; `viewCount` moves in the same ' +
      `transaction. ${guestOrUser} ${guestRule}`,
    responses: {
      200: {
        description: 'Whether it counted, and the count after the call.',
        schema: v.object({
          data: v.object({ videoId: v.number(), counted: v.boolean(), viewCount: v.number() }),
        }),
      },
      404: videoNotFound,
      422: invalid,
      429: guestLimited,
    },
  });
  app.post('/v1/video-view', { config: { doc: viewDoc } }, async (request, reply) => {
    const input = parse(videoViewSchema, request.body);
    const viewer = await viewerOf(request, deps);
    // A client without any id still gets its views counted, keyed by address so a reload loop cannot
    // inflate them.
    const key = callerKey(viewer, request);
    if (!viewer.user) await limitGuestAction(request, deps, 'video-view', viewer.guestId);
    const videoId = await visibleVideoId(db, viewer, input.video_id);
    const claim = await idempotencyClaim(deps, request, 'video-view');
    const outcome = await writeInteraction(db, {
      kind: 'view',
      videoId,
      viewerKey: key,
      userId: viewer.user?.id ?? null,
      guestId: viewer.guestId ?? null,
      claim,
    });
    return sendOutcome(reply, outcome);
  });

  const rateDoc: Operation = {
    summary: 'Rate a video from 1 (worst) to 5 (best)',
    auth: 'required',
    body: videoRatingSchema,
    description:
      'A rating is a logged-in user’s opinion of a video on the five-emoji scale of the client: 1 is the ' +
      'worst, 5 the best, 3 neutral (the home feed ranking counts each star away from 3). Guests get 401; ' +
      `the creator and their studio’s managers get 403 \`${OWN_VIDEO}\`. Rating again replaces the earlier ` +
      'rating (`ratingCount` unchanged, the sum moves by the difference), so a replay changes nothing and ' +
      'the call needs no Idempotency-Key. `ratingAverage` is rounded to two decimals.',
    responses: {
      200: {
        description: 'The rating and the video’s totals after the call.',
        schema: v.object({
          data: v.object({
            videoId: v.number(),
            rating: v.number(),
            isRated: v.literal(true),
            ratingCount: v.number(),
            ratingAverage: v.number(),
          }),
        }),
      },
      401: unauthenticated,
      403: { description: `\`${OWN_VIDEO}\``, ...ERR },
      404: videoNotFound,
      422: invalid,
    },
  };
  app.post('/v1/video-rating/rate', { config: { doc: rateDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    const input = parse(videoRatingSchema, request.body);
    const viewer = await viewerOf(request, deps);
    const videoId = await visibleVideoId(db, viewer, input.video_id);
    // A rating is a viewer's opinion: the creator and whoever manages them (studio) would only skew it.
    const video = await q.videoCreator(db, videoId);
    if (video && (await canManageCreator(db, user, video.userId))) {
      throw new HttpError(403, OWN_VIDEO);
    }
    const totals = await q.rateVideo(db, videoId, user.id, input.rating);
    const count = totals?.ratingCount ?? 0;
    return {
      data: {
        videoId,
        rating: input.rating,
        isRated: true,
        ratingCount: count,
        ratingAverage: count ? Math.round(((totals?.ratingSum ?? 0) / count) * 100) / 100 : 0,
      },
    };
  });

  const report = replayable({
    summary: 'Report a video to the moderators',
    auth: 'optional',
    // The guest form; a user may leave out `email` (the account's is used).
    body: reportVideoSchema({ guest: true }),
    description:
      'Guests must give an email so a moderator can answer; users may. `reason` is one of ' +
      `${reportReasons.map((r) => `\`${r}\``).join(', ')} (spelled as the spec spells them); \`message\` is ` +
      'required. Only a public video can be reported (one its creator geo-blocks for the reporter too): ' +
      'one not public (held for review, scheduled, in error, being deleted) answers 404 like a missing one.',
    responses: {
      201: {
        description: `\`{message: '${reportMessages.sent}', data: {id}}\``,
        schema: v.object({ message: v.string(), data: v.object({ id: v.number() }) }),
      },
      404: { description: `\`${messages.video.notFound}\``, ...ERR },
      422: invalid,
      429: rateLimited(deps.config.reportRateLimit, deps.config.rateLimitWindowMs),
    },
  });
  app.post(
    '/v1/report-video',
    { config: { ...reportLimit(deps, 'report-video'), doc: report } },
    async (request, reply) => {
      const viewer = await viewerOf(request, deps);
      const input = parse(reportVideoSchema({ guest: !viewer.user }), request.body);
      // Only a public video can be reported (geo-blocking aside: the reporter may have seen it elsewhere).
      // One that is held, scheduled, in error or being deleted answers as a missing one, or the answer would
      // tell that it exists.
      const videoId = await q.publicVideoId(db, input.video_id);
      if (videoId === undefined) throw notFound(messages.video.notFound);
      return idempotent(deps, request, reply, 'report-video', async (tx) => {
        const id = await q.insertReport(tx, {
          videoId,
          userId: viewer.user?.id ?? null,
          guestId: viewer.guestId,
          email: input.email || viewer.user?.email || null,
          reason: input.reason,
          message: input.message,
        });
        return { status: 201, body: { message: reportMessages.sent, data: { id } } };
      });
    },
  );
}

// Fire-and-forget counters the client's outbox sends and replays. Each runs inside idempotent(): the
// client's outbox id is the Idempotency-Key, so a replay is acknowledged with the first answer and never
// counted twice. All answer 201 {status:'ok'}; a post that is acknowledged but deliberately not counted
// (your own profile) answers the same, so the outbox can drop it.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import {
  eventIds,
  eventSchema,
  linkClickSchema,
  profileViewSchema,
  trackingResponseSchema,
} from '../../src/contract';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { limitKey } from '../http/address';
import { type DocResponse, ERR, guestOrUser, invalid, noViewer, replayable, staleBearer } from '../http/doc';
import { notFound } from '../http/errors';
import { idempotent } from '../http/idempotency';
import { TRACKING_TOO_MANY, trackingLimit } from '../http/rate-limit';
import { parse } from '../http/validate';
import { identifiedViewer } from '../http/viewer';
import { countKeyOf, firstInWindow } from '../tracking/counting';
import { activeUser } from '../videos/visibility';

const OK = { status: 201, body: { status: 'ok' } } as const;

/** The reference entry of a counter: `target` names what a 404 means, for posts that name something. */
function counterDoc(
  deps: AppDeps,
  summary: string,
  body: v.GenericSchema,
  opts: { target?: string; extra?: string } = {},
) {
  const minutes = Math.round(deps.config.clickWindowMs / 60_000);
  const responses: Record<number, DocResponse> = {
    201: { description: 'Acknowledged: `{status: "ok"}`.', schema: trackingResponseSchema },
    401: staleBearer,
    422: invalid,
    429: {
      description: `More than ${deps.config.trackingRateLimit} posts from one address within ${Math.round(deps.config.rateLimitWindowMs / 60_000)} minutes: \`${TRACKING_TOO_MANY}\``,
      ...ERR,
    },
  };
  if (opts.target) responses[404] = { description: opts.target, ...ERR };
  return replayable({
    summary,
    auth: 'optional',
    body,
    description:
      `${guestOrUser} ${noViewer}${opts.extra ?? ''} Every post is kept; one viewer (the account, or for a guest ` +
      `the client's network) counts once per target within ${minutes} minutes.`,
    responses,
  });
}

export default async function trackingRoutes(app: FastifyInstance, deps: AppDeps) {
  const window = deps.config.clickWindowMs;
  const network = (request: FastifyRequest) => limitKey(request.ip, deps.config.ipv6LimitPrefix);

  const eventDoc = counterDoc(
    deps,
    `Count a click on a Live Cams entry point (events ${eventIds.join(', ')})`,
    eventSchema,
  );
  app.post(
    '/v1/event',
    { config: { ...trackingLimit(deps, 'event'), doc: eventDoc } },
    async (request, reply) => {
      const input = parse(eventSchema, request.body);
      const viewer = await identifiedViewer(request, deps);
      const countKey = countKeyOf(viewer, network(request));
      return idempotent(deps, request, reply, 'event', async (tx) => {
        const counted = await firstInWindow(
          tx,
          t.events,
          eq(t.events.eventId, input.event_id),
          countKey,
          window,
        );
        await tx.insert(t.events).values({
          eventId: input.event_id,
          userId: viewer.user?.id ?? null,
          guestId: viewer.guestId ?? null,
          countKey,
          counted,
        });
        return OK;
      });
    },
  );

  const clickDoc = counterDoc(deps, 'Count a click on a creator link', linkClickSchema, {
    target: 'No such link.',
  });
  app.post(
    '/v1/link-click',
    { config: { ...trackingLimit(deps, 'link-click'), doc: clickDoc } },
    async (request, reply) => {
      const input = parse(linkClickSchema, request.body);
      const viewer = await identifiedViewer(request, deps);
      const countKey = countKeyOf(viewer, network(request));
      return idempotent(deps, request, reply, 'link-click', async (tx) => {
        const [link] = await tx.select({ id: t.links.id }).from(t.links).where(eq(t.links.id, input.link_id));
        if (!link) throw notFound();
        const counted = await firstInWindow(
          tx,
          t.linkClicks,
          eq(t.linkClicks.linkId, link.id),
          countKey,
          window,
        );
        await tx.insert(t.linkClicks).values({
          linkId: link.id,
          userId: viewer.user?.id ?? null,
          guestId: viewer.guestId ?? null,
          isLive: input.is_live === true || input.is_live === 1,
          linkLocation: input.link_location,
          countKey,
          counted,
        });
        return OK;
      });
    },
  );

  const profileViewDoc = counterDoc(deps, 'Count a profile view', profileViewSchema, {
    target: 'No such profile.',
    extra: ' Views of your own profile are acknowledged but not counted.',
  });
  app.post(
    '/v1/profile-view',
    { config: { ...trackingLimit(deps, 'profile-view'), doc: profileViewDoc } },
    async (request, reply) => {
      const input = parse(profileViewSchema, request.body);
      const viewer = await identifiedViewer(request, deps);
      const countKey = countKeyOf(viewer, network(request));
      return idempotent(deps, request, reply, 'profile-view', async (tx) => {
        const [profile] = await tx
          .select({ id: t.users.id })
          .from(t.users)
          .where(and(eq(t.users.id, input.profile_id), activeUser()));
        if (!profile) throw notFound();
        if (viewer.user?.id !== profile.id) {
          const target = eq(t.profileViews.profileId, profile.id);
          await tx.insert(t.profileViews).values({
            profileId: profile.id,
            userId: viewer.user?.id ?? null,
            guestId: viewer.guestId ?? null,
            countKey,
            counted: await firstInWindow(tx, t.profileViews, target, countKey, window),
          });
        }
        return OK;
      });
    },
  );
}

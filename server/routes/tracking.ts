// Fire-and-forget counters the client's outbox sends and replays. Each runs inside idempotent(): the
// client's outbox id is the Idempotency-Key, so a replay is acknowledged with the first answer and never
// counted twice. All answer 201 {status:'ok'}; a post that is acknowledged but deliberately not counted
// (your own profile) answers the same, so the outbox can drop it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import {
  eventIds,
  eventSchema,
  linkClickSchema,
  profileViewSchema,
  trackingResponseSchema,
} from '../../src/contract';
import type { AppDeps } from '../deps';
import { limitKey } from '../http/address';
import { type DocResponse, ERR, guestOrUser, invalid, noViewer, replayable, staleBearer } from '../http/doc';
import { notFound } from '../http/errors';
import { idempotent } from '../http/idempotency';
import { TRACKING_TOO_MANY, trackingLimit } from '../http/rate-limit';
import { parse } from '../http/validate';
import { identifiedViewer } from '../http/viewer';
import {
  countKeyOf,
  type Poster,
  recordEvent,
  recordLinkClick,
  recordProfileView,
} from '../tracking/counting';

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

  const eventDoc = counterDoc(
    deps,
    `Count a click on a Live Cams entry point (events ${eventIds.join(', ')})`,
    eventSchema,
  );
  /** Who posts, and the key they count under: the account, or a guest's network. */
  const posterOf = async (request: FastifyRequest): Promise<Poster> => {
    const viewer = await identifiedViewer(request, deps);
    return { viewer, countKey: countKeyOf(viewer, limitKey(request.ip, deps.config.ipv6LimitPrefix)) };
  };

  app.post(
    '/v1/event',
    { config: { ...trackingLimit(deps, 'event'), doc: eventDoc } },
    async (request, reply) => {
      const input = parse(eventSchema, request.body);
      const poster = await posterOf(request);
      return idempotent(deps, request, reply, 'event', async (tx) => {
        await recordEvent(tx, input.event_id, poster, window);
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
      const poster = await posterOf(request);
      const click = {
        linkId: input.link_id,
        isLive: input.is_live === true || input.is_live === 1,
        linkLocation: input.link_location,
      };
      return idempotent(deps, request, reply, 'link-click', async (tx) => {
        if (!(await recordLinkClick(tx, click, poster, window))) throw notFound();
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
      const poster = await posterOf(request);
      return idempotent(deps, request, reply, 'profile-view', async (tx) => {
        if (!(await recordProfileView(tx, input.profile_id, poster, window))) throw notFound();
        return OK;
      });
    },
  );
}

// Follows and what a logged-in user collects: followed creators and liked videos.
import type { FastifyInstance } from 'fastify';
import {
  followInputSchema,
  followingModelsResponseSchema,
  followResponseSchema,
  pageQuerySchema,
  socialMessages,
} from '../../src/contract';
import type { AppDeps } from '../deps';
import * as q from '../follows/queries';
import { ERR, invalid, type Operation, unauthenticated, videoPage } from '../http/doc';
import { HttpError, notFound } from '../http/errors';
import { nextLink } from '../http/page-link';
import { parse } from '../http/validate';
import { requireUser, viewerOf } from '../http/viewer';
import { presentVideos } from '../videos/present';

const PER_PAGE = 30;

export default async function followRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const followDoc: Operation = {
    summary: 'Follow or unfollow a model or channel',
    auth: 'required',
    body: followInputSchema,
    description:
      'Idempotent: **201** only when a follow was created; **200** when already following, after an ' +
      'unfollow, and for an unfollow with nothing to remove. Following yourself or a plain user: 422.',
    responses: {
      200: { description: 'No new follow (already following, or unfollowed).', schema: followResponseSchema },
      201: { description: 'Follow created.', schema: followResponseSchema },
      401: unauthenticated,
      404: { description: 'Unknown or geo-blocked creator.', ...ERR },
      422: invalid,
    },
  };
  /**
   * Idempotent both ways, so a double tap or a replay never errors: 201 only when a follow row was
   * created; 200 when it already existed, when it was removed, or when there was nothing to remove.
   */
  app.post('/v1/follow-model', { config: { doc: followDoc } }, async (request, reply) => {
    const user = await requireUser(request, deps);
    const input = parse(followInputSchema, request.body);
    if (input.model_id === user.id) {
      throw new HttpError(422, socialMessages.followSelf, { model_id: [socialMessages.followSelf] });
    }
    const viewer = await viewerOf(request, deps);
    const target = await q.followTarget(db, input.model_id, viewer);
    if (!target) throw notFound();
    if (target.type === 'user') {
      throw new HttpError(422, socialMessages.followTarget, { model_id: [socialMessages.followTarget] });
    }
    let created = false;
    if (input.action === 'follow') {
      created = await q.follow(db, user.id, target.id);
    } else {
      await q.unfollow(db, user.id, target.id);
    }
    const totalFollowers = await q.followerCount(db, target.id);
    return reply.status(created ? 201 : 200).send({ isFollowing: input.action === 'follow', totalFollowers });
  });

  const followingDoc: Operation = {
    summary: 'Followed creators, live first, then latest follow first',
    auth: 'required',
    description: 'Creators who geo-block the viewer are left out.',
    responses: {
      200: { description: 'The list.', schema: followingModelsResponseSchema },
      401: unauthenticated,
    },
  };
  app.get('/v1/profile/following-models', { config: { doc: followingDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    const viewer = await viewerOf(request, deps);
    const rows = await q.followedCreators(db, user.id, viewer);
    return {
      data: rows.map((m) => ({
        model: {
          id: m.id,
          slug: m.slug,
          name: m.name,
          avatar: deps.storage.url(m.avatarPath),
          isLive: m.isLive ? 1 : 0,
        },
      })),
    };
  });

  const likedDoc: Operation = {
    summary: `Public videos the user liked, newest like first, ${PER_PAGE} per page`,
    auth: 'required',
    query: pageQuerySchema,
    description:
      'Pages by number (`page`). Videos no longer public or geo-blocked for the viewer are left out.',
    responses: {
      200: videoPage,
      401: unauthenticated,
      422: invalid,
    },
  };
  app.get('/v1/profile/liked-videos', { config: { doc: likedDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    const query = parse(pageQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const page = query.page ?? 1;
    const rows = await q.likedVideos(db, user.id, viewer, {
      limit: PER_PAGE + 1,
      offset: (page - 1) * PER_PAGE,
    });
    const videos = rows.slice(0, PER_PAGE);
    return {
      data: await presentVideos(db, deps.storage, videos, {
        liked: new Set(videos.map((v) => v.id)),
        rated: new Set(),
      }),
      links: {
        next: nextLink(
          '/v1/profile/liked-videos',
          request.query as Record<string, unknown>,
          page,
          rows.length > PER_PAGE,
        ),
      },
    };
  });
}

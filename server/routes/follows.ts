// Follows and what a logged-in user collects: followed creators and liked videos.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  followInputSchema,
  followingModelsResponseSchema,
  followResponseSchema,
  pageQuerySchema,
  socialMessages,
} from '../../src/contract';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { ERR, invalid, type Operation, unauthenticated, videoPage } from '../http/doc';
import { HttpError, notFound } from '../http/errors';
import { nextLink } from '../http/page-link';
import { parse } from '../http/validate';
import { requireUser, viewerOf } from '../http/viewer';
import { presentVideos } from '../videos/present';
import { activeUser, notGeoBlocked, publicVideo } from '../videos/visibility';

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
    const [target] = await db
      .select({ id: t.users.id, type: t.users.type })
      .from(t.users)
      .where(and(eq(t.users.id, input.model_id), activeUser(), notGeoBlocked(viewer, t.users.id)));
    if (!target) throw notFound();
    if (target.type === 'user') {
      throw new HttpError(422, socialMessages.followTarget, { model_id: [socialMessages.followTarget] });
    }
    let created = false;
    if (input.action === 'follow') {
      const rows = await db
        .insert(t.follows)
        .values({ followerId: user.id, modelId: target.id })
        .onConflictDoNothing()
        .returning({ id: t.follows.modelId });
      created = rows.length > 0;
    } else {
      await db
        .delete(t.follows)
        .where(and(eq(t.follows.followerId, user.id), eq(t.follows.modelId, target.id)));
    }
    const [count] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(t.follows)
      .where(eq(t.follows.modelId, target.id));
    return reply
      .status(created ? 201 : 200)
      .send({ isFollowing: input.action === 'follow', totalFollowers: count?.n ?? 0 });
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
    const rows = await db
      .select({
        id: t.users.id,
        slug: t.users.slug,
        name: t.users.name,
        avatarPath: t.users.avatarPath,
        isLive: t.users.isLive,
      })
      .from(t.follows)
      .innerJoin(t.users, eq(t.users.id, t.follows.modelId))
      .where(and(eq(t.follows.followerId, user.id), activeUser(), notGeoBlocked(viewer, t.users.id)))
      .orderBy(desc(t.users.isLive), desc(t.follows.createdAt), desc(t.users.id));
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
    const rows = await db
      .select({ video: t.videos })
      .from(t.videoLikes)
      .innerJoin(t.videos, eq(t.videos.id, t.videoLikes.videoId))
      .where(
        and(
          eq(t.videoLikes.viewerKey, `u:${user.id}`),
          publicVideo(),
          notGeoBlocked(viewer, t.videos.userId),
        ),
      )
      .orderBy(desc(t.videoLikes.createdAt), desc(t.videos.id))
      .limit(PER_PAGE + 1)
      .offset((page - 1) * PER_PAGE);
    const videos = rows.slice(0, PER_PAGE).map((r) => r.video);
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

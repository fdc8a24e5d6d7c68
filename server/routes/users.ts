import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  channelListSchema,
  idOf,
  pageQuerySchema,
  publicUserResponseSchema,
  userListQuerySchema,
} from '../../src/contract';
import { canManageCreator } from '../auth/permissions';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { ERR, invalid, type Operation, videoPage } from '../http/doc';
import { notFound } from '../http/errors';
import { nextLink } from '../http/page-link';
import { parse } from '../http/validate';
import { type Viewer, viewerOf } from '../http/viewer';
import { presentLink, presentUser, presentVideos } from '../videos/present';
import { activeUser, notGeoBlocked, publicVideo } from '../videos/visibility';

const idOrSlug = v.object({ id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)) });
const PER_PAGE = 30;

/**
 * The user behind `/v1/users/{id}` (numeric id or slug, any case), or 404. A creator who geo-blocks the
 * viewer does not exist for that viewer: the same 404 as an unknown id, so blocking reveals nothing.
 */
export async function findVisibleUser(db: Db, params: unknown, viewer: Viewer) {
  if (!v.is(idOrSlug, params)) throw notFound();
  const key = params.id;
  // Digits within the id range name an id; anything else (a username of digits too) a slug.
  const id = idOf(key);
  const where = id !== undefined ? eq(t.users.id, id) : sql`lower(${t.users.slug}) = lower(${key})`;
  const [user] = await db
    .select()
    .from(t.users)
    // A creator travelling in a country they block still sees their own profile.
    .where(
      and(where, activeUser(), or(notGeoBlocked(viewer, t.users.id), eq(t.users.id, viewer.user?.id ?? 0))),
    );
  if (!user) throw notFound();
  return user;
}

/** Video flags for the viewer, limited to the page being shown. */
async function likedAmong(db: Db, viewer: Viewer, ids: number[]): Promise<Set<number>> {
  if (!viewer.key || ids.length === 0) return new Set();
  const rows = await db
    .select({ id: t.videoLikes.videoId })
    .from(t.videoLikes)
    .where(and(eq(t.videoLikes.viewerKey, viewer.key), inArray(t.videoLikes.videoId, ids)));
  return new Set(rows.map((r) => r.id));
}

export default async function userRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const unknown = { description: 'Unknown or geo-blocked.', ...ERR };

  const profileDoc: Operation = {
    summary: 'A profile by id or slug (any case)',
    auth: 'optional',
    description:
      '`isFollowing` is for the bearer’s user. A creator who geo-blocks the viewer’s country or region ' +
      '(trusted proxy headers) answers 404, exactly like an unknown user.',
    responses: { 200: { description: 'The profile.', schema: publicUserResponseSchema }, 404: unknown },
  };
  app.get('/v1/users/:id', { config: { doc: profileDoc } }, async (request) => {
    const viewer = await viewerOf(request, deps);
    const user = await findVisibleUser(db, request.params, viewer);
    const publicOfUser = and(eq(t.videos.userId, user.id), publicVideo());
    const [links, contests, [totals], [followers], following] = await Promise.all([
      db
        .select()
        .from(t.links)
        .where(eq(t.links.userId, user.id))
        .orderBy(asc(t.links.position), asc(t.links.id)),
      db.select().from(t.contests).where(eq(t.contests.userId, user.id)).orderBy(asc(t.contests.id)),
      db
        .select({
          likes: sql<number>`coalesce(sum(${t.videos.likeCount}), 0)::int`,
          views: sql<number>`coalesce(sum(${t.videos.viewCount}), 0)::int`,
        })
        .from(t.videos)
        .where(publicOfUser),
      db.select({ count: sql<number>`count(*)::int` }).from(t.follows).where(eq(t.follows.modelId, user.id)),
      viewer.user
        ? db
            .select({ id: t.follows.modelId })
            .from(t.follows)
            .where(and(eq(t.follows.followerId, viewer.user.id), eq(t.follows.modelId, user.id)))
        : Promise.resolve([]),
    ]);
    return {
      data: presentUser(deps.storage, user, {
        links: links.map(presentLink),
        contests: contests.map(({ id, title, content }) => ({ id, title, content })),
        totalLikes: totals?.likes ?? 0,
        totalVideoViews: totals?.views ?? 0,
        totalFollowers: followers?.count ?? 0,
        isFollowing: following.length > 0,
      }),
    };
  });

  const videosDoc: Operation = {
    summary: `A creator’s videos, newest first, ${PER_PAGE} per page`,
    auth: 'optional',
    query: pageQuerySchema,
    description:
      'Everyone sees approved videos whose scheduled time has passed. The creator and the managers of ' +
      'their studio see every status (for badges), with `statusReason` (why a video is in `error`), and ' +
      'scheduled videos. Pages by number (`page`).',
    responses: { 200: videoPage, 404: unknown, 422: invalid },
  };
  // The owner and their studio's managers see every status (the client shows status badges) and
  // scheduled videos; everyone else sees what any feed would show.
  app.get('/v1/users/:id/videos', { config: { doc: videosDoc } }, async (request) => {
    const query = parse(pageQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const user = await findVisibleUser(db, request.params, viewer);
    const page = query.page ?? 1;
    const manages = viewer.user ? await canManageCreator(db, viewer.user, user.id) : false;
    const filters: SQL[] = [eq(t.videos.userId, user.id)];
    if (!manages) filters.push(publicVideo());
    const rows = await db
      .select()
      .from(t.videos)
      .where(and(...filters))
      .orderBy(desc(t.videos.publishAt), desc(t.videos.id))
      .limit(PER_PAGE + 1)
      .offset((page - 1) * PER_PAGE);
    const pageRows = rows.slice(0, PER_PAGE);
    const liked = await likedAmong(
      db,
      viewer,
      pageRows.map((r) => r.id),
    );
    const path = `/v1/users/${encodeURIComponent((request.params as { id: string }).id)}/videos`;
    return {
      data: await presentVideos(db, deps.storage, pageRows, {
        liked,
        rated: new Set(),
        managed: new Set(manages ? pageRows.map((r) => r.id) : []),
      }),
      links: { next: nextLink(path, request.query as Record<string, unknown>, page, rows.length > PER_PAGE) },
    };
  });

  const listDoc: Operation = {
    summary: `Creator cards by type and gender, live first, ${PER_PAGE} per page, geo-filtered`,
    query: userListQuerySchema,
    responses: { 200: { description: 'A page of cards.', schema: channelListSchema }, 422: invalid },
  };
  app.get('/v1/users', { config: { doc: listDoc } }, async (request) => {
    const query = parse(userListQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const page = query.page ?? 1;
    const filters: SQL[] = [eq(t.users.type, query.type), activeUser(), notGeoBlocked(viewer, t.users.id)];
    if (query.gender) filters.push(inArray(t.users.gender, query.gender.split(',') as ('m' | 't')[]));
    const rows = await db
      .select()
      .from(t.users)
      .where(and(...filters))
      .orderBy(desc(t.users.isLive), asc(t.users.name), asc(t.users.id))
      .limit(PER_PAGE + 1)
      .offset((page - 1) * PER_PAGE);
    return {
      data: rows.slice(0, PER_PAGE).map((u) => ({
        id: u.id,
        slug: u.slug,
        name: u.name,
        avatar: deps.storage.url(u.avatarPath),
        cover: deps.storage.url(u.coverPath),
        description: u.description,
        color: u.color,
        isLive: u.isLive ? 1 : 0,
      })),
      links: {
        next: nextLink('/v1/users', request.query as Record<string, unknown>, page, rows.length > PER_PAGE),
      },
    };
  });
}

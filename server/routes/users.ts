import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  channelListSchema,
  pageQuerySchema,
  publicUserResponseSchema,
  userListQuerySchema,
} from '../../src/contract';
import { canManageCreator } from '../auth/permissions';
import type { AppDeps } from '../deps';
import { followerCount, isFollowing } from '../follows/queries';
import { ERR, invalid, type Operation, videoPage } from '../http/doc';
import { notFound } from '../http/errors';
import { nextLink } from '../http/page-link';
import { parse } from '../http/validate';
import { type Viewer, viewerOf } from '../http/viewer';
import * as q from '../users/queries';
import { presentLink, presentUser, presentVideos } from '../videos/present';

const idOrSlug = v.object({ id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)) });
const PER_PAGE = 30;

export default async function userRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  /**
   * The user behind `/v1/users/{id}` (numeric id or slug, any case), or 404. A creator who geo-blocks the
   * viewer does not exist for that viewer: the same 404 as an unknown id, so blocking reveals nothing.
   */
  const findVisibleUser = async (params: unknown, viewer: Viewer) => {
    if (!v.is(idOrSlug, params)) throw notFound();
    const user = await q.visibleUser(db, params.id, viewer);
    if (!user) throw notFound();
    return user;
  };

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
    const user = await findVisibleUser(request.params, viewer);
    const [links, contests, totals, followers, following] = await Promise.all([
      q.linksOf(db, user.id),
      q.contestsOf(db, user.id),
      q.publicTotals(db, user.id),
      followerCount(db, user.id),
      viewer.user ? isFollowing(db, viewer.user.id, user.id) : Promise.resolve(false),
    ]);
    return {
      data: presentUser(deps.storage, user, {
        links: links.map(presentLink),
        contests: contests.map(({ id, title, content }) => ({ id, title, content })),
        totalLikes: totals.likes,
        totalVideoViews: totals.views,
        totalFollowers: followers,
        isFollowing: following,
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
    const user = await findVisibleUser(request.params, viewer);
    const page = query.page ?? 1;
    const manages = viewer.user ? await canManageCreator(db, viewer.user, user.id) : false;
    const rows = await q.creatorVideos(db, user.id, manages, {
      limit: PER_PAGE + 1,
      offset: (page - 1) * PER_PAGE,
    });
    const pageRows = rows.slice(0, PER_PAGE);
    const liked = await q.likedAmong(
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
    const genders = query.gender ? (query.gender.split(',') as ('m' | 't')[]) : undefined;
    const rows = await q.creatorCards(db, { type: query.type, genders }, viewer, {
      limit: PER_PAGE + 1,
      offset: (page - 1) * PER_PAGE,
    });
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

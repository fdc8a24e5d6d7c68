// GET /v1/discover: one cacheable answer for every viewer of a country and gender choice. It carries no
// per-viewer flags (isLiked is always false here) so a CDN and the service worker may share it.
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, exists, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { CreatorCard, DiscoverResponse } from '../../src/contract';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { parse } from '../http/validate';
import { viewerOf } from '../http/viewer';
import { type VideoRow, visibleTo } from './listing';
import { presentVideos } from './present';
import { notGeoBlocked, publicVideo } from './visibility';

const CREATORS = 12;
const VIDEOS = 10;
const WEEK = sql`now() - interval '7 days'`;

export const discoverQuerySchema = v.object({
  gender: v.optional(v.pipe(v.string(), v.regex(/^[mt](,[mt])?$/, 'Invalid gender.'))),
});

export default async function discoverRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  app.get('/v1/discover', async (request, reply) => {
    const query = parse(discoverQuerySchema, request.query);
    // Only the country and region matter here (geo-blocking); the rest of the viewer is ignored on purpose.
    const viewer = await viewerOf(request, deps);
    const genders = query.gender ? (query.gender.split(',') as ('m' | 't')[]) : undefined;
    const creatorFilters: SQL[] = [
      inArray(t.users.type, ['model', 'channel']),
      notGeoBlocked(viewer, t.users.id),
    ];
    if (genders) creatorFilters.push(inArray(t.users.gender, genders));
    const hasPublicVideo = exists(
      db
        .select({ one: sql`1` })
        .from(t.videos)
        .where(and(eq(t.videos.userId, t.users.id), publicVideo())),
    );
    const visible = and(...visibleTo(viewer, query.gender));

    const weekly = (table: typeof t.videoLikes | typeof t.videoViews) =>
      db
        .select({ video: t.videos, n: sql<number>`count(*)::int`.as('n') })
        .from(table)
        .innerJoin(t.videos, eq(t.videos.id, table.videoId))
        .where(and(visible, gt(table.createdAt, WEEK)))
        .groupBy(t.videos.id)
        .orderBy(desc(sql`n`), desc(t.videos.id))
        .limit(VIDEOS);
    const allTime = (counter: typeof t.videos.likeCount | typeof t.videos.viewCount) =>
      db
        .select()
        .from(t.videos)
        .where(and(visible, gt(counter, 0)))
        .orderBy(desc(counter), desc(t.videos.id))
        .limit(VIDEOS);

    const [live, latest, likedWeekly, likedAll, viewedWeekly, viewedAll, sites] = await Promise.all([
      db
        .select()
        .from(t.users)
        .where(and(...creatorFilters, eq(t.users.isLive, true)))
        .orderBy(asc(t.users.name), asc(t.users.id))
        .limit(CREATORS),
      db
        .select()
        .from(t.users)
        .where(and(...creatorFilters, hasPublicVideo))
        .orderBy(desc(t.users.createdAt), desc(t.users.id))
        .limit(CREATORS),
      weekly(t.videoLikes),
      allTime(t.videos.likeCount),
      weekly(t.videoViews),
      allTime(t.videos.viewCount),
      db.select().from(t.webcamSites).orderBy(asc(t.webcamSites.position), asc(t.webcamSites.id)),
    ]);
    const card = (u: typeof t.users.$inferSelect): CreatorCard => ({
      id: u.id,
      slug: u.slug,
      name: u.name,
      avatar: deps.storage.url(u.avatarPath),
      isLive: u.isLive ? 1 : 0,
      type: u.type === 'channel' ? 'channel' : 'model',
    });
    const present = (rows: VideoRow[]) => presentVideos(db, deps.storage, rows);
    const body: DiscoverResponse = {
      liveUsers: live.map(card),
      latestUsers: latest.map(card),
      videos: {
        liked_weekly: await present(likedWeekly.map((r) => r.video)),
        liked_all_time: await present(likedAll),
        viewed_weekly: await present(viewedWeekly.map((r) => r.video)),
        viewed_all_time: await present(viewedAll),
      },
      webcam_sites: sites.map((s) => ({
        name: s.name,
        slug: s.slug,
        icon: s.icon && /^(https?:)?\//.test(s.icon) ? s.icon : deps.storage.url(s.icon),
      })),
    };

    const json = JSON.stringify(body);
    // Strong validator: the same bytes always give the same tag, on every API node.
    const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
    reply
      .header('ETag', etag)
      .header('Cache-Control', 'public, max-age=60, stale-while-revalidate=600')
      // The body depends on the viewer's country and region (geo-blocking), so shared caches must key on them.
      .header('Vary', `${deps.config.geoCountryHeader}, ${deps.config.geoRegionHeader}`);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
      return reply.status(304).send();
    }
    return reply.type('application/json; charset=utf-8').send(json);
  });
}

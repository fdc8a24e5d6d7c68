import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { notFound } from '../http/errors';
import { presentUser } from './present';

const idOrSlug = v.object({ id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)) });

export default async function userRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  app.get('/v1/users/:id', async (request) => {
    if (!v.is(idOrSlug, request.params)) throw notFound();
    const key = request.params.id;
    const where = /^\d+$/.test(key)
      ? eq(t.users.id, Number(key))
      : sql`lower(${t.users.slug}) = lower(${key})`;
    const [user] = await db.select().from(t.users).where(where);
    if (!user) throw notFound();
    const publicVideo = and(
      eq(t.videos.userId, user.id),
      eq(t.videos.status, 'approved'),
      lte(t.videos.publishAt, sql`now()`),
    );
    const [links, contests, [totals], [followers]] = await Promise.all([
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
        .where(publicVideo),
      db.select({ count: sql<number>`count(*)::int` }).from(t.follows).where(eq(t.follows.modelId, user.id)),
    ]);
    return {
      data: presentUser(deps.storage, user, {
        links: links.map((l) => ({
          id: l.id,
          url: l.url,
          name: l.name,
          icon: l.icon,
          isLive: l.isLive ? 1 : 0,
          isImportant: l.isImportant ? 1 : 0,
        })),
        contests: contests.map(({ id, title, content }) => ({ id, title, content })),
        totalLikes: totals?.likes ?? 0,
        totalVideoViews: totals?.views ?? 0,
        totalFollowers: followers?.count ?? 0,
        isFollowing: false,
      }),
    };
  });
}

// The SQL of creator statistics (spec §3 'Profile stats'). Lifetime totals come from the denormalised
// counters; the range figures are counted from the event rows themselves, in [start, end).
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { followerCount } from '../follows/queries';

/** Every figure of a creator's statistics; `daily` rows only for days with activity, keyed by UTC day. */
export async function creatorStats(db: Db, userId: number, start: Date, end: Date) {
  const ownVideo = sql`${t.videos.userId} = ${userId}`;
  const utcDay = (column: typeof t.videoViews.createdAt | typeof t.videoLikes.createdAt) =>
    sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [[lifetime], followers, [views], [likes], [newFollowers], clicks, viewDays, likeDays] =
    await Promise.all([
      db
        .select({
          videos: sql<number>`count(*)::int`,
          likes: sql<number>`coalesce(sum(${t.videos.likeCount}), 0)::int`,
          views: sql<number>`coalesce(sum(${t.videos.viewCount}), 0)::int`,
        })
        .from(t.videos)
        .where(and(ownVideo, sql`${t.videos.status} <> 'deleting'`)),
      followerCount(db, userId),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(t.videoViews)
        .innerJoin(t.videos, eq(t.videos.id, t.videoViews.videoId))
        .where(and(ownVideo, gte(t.videoViews.createdAt, start), lt(t.videoViews.createdAt, end))),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(t.videoLikes)
        .innerJoin(t.videos, eq(t.videos.id, t.videoLikes.videoId))
        .where(and(ownVideo, gte(t.videoLikes.createdAt, start), lt(t.videoLikes.createdAt, end))),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(t.follows)
        .where(
          and(eq(t.follows.modelId, userId), gte(t.follows.createdAt, start), lt(t.follows.createdAt, end)),
        ),
      // Every link of the creator, clicked or not, so the client can show zeros.
      db
        .select({
          name: t.links.name,
          clicks: sql<number>`count(${t.linkClicks.id})::int`,
        })
        .from(t.links)
        .leftJoin(
          t.linkClicks,
          and(
            eq(t.linkClicks.linkId, t.links.id),
            // The counted clicks only: a viewer's repeats within the window are kept, not counted.
            eq(t.linkClicks.counted, true),
            gte(t.linkClicks.createdAt, start),
            lt(t.linkClicks.createdAt, end),
          ),
        )
        .where(eq(t.links.userId, userId))
        .groupBy(t.links.id, t.links.name, t.links.position)
        .orderBy(t.links.position, t.links.id),
      db
        .select({ day: utcDay(t.videoViews.createdAt), n: sql<number>`count(*)::int` })
        .from(t.videoViews)
        .innerJoin(t.videos, eq(t.videos.id, t.videoViews.videoId))
        .where(and(ownVideo, gte(t.videoViews.createdAt, start), lt(t.videoViews.createdAt, end)))
        .groupBy(utcDay(t.videoViews.createdAt)),
      db
        .select({ day: utcDay(t.videoLikes.createdAt), n: sql<number>`count(*)::int` })
        .from(t.videoLikes)
        .innerJoin(t.videos, eq(t.videos.id, t.videoLikes.videoId))
        .where(and(ownVideo, gte(t.videoLikes.createdAt, start), lt(t.videoLikes.createdAt, end)))
        .groupBy(utcDay(t.videoLikes.createdAt)),
    ]);
  return {
    lifetime: {
      videos: lifetime?.videos ?? 0,
      likes: lifetime?.likes ?? 0,
      views: lifetime?.views ?? 0,
      followers,
    },
    range: {
      views: views?.n ?? 0,
      likes: likes?.n ?? 0,
      newFollowers: newFollowers?.n ?? 0,
      clicks,
    },
    daily: { views: viewDays, likes: likeDays },
  };
}

// The SQL of interactions: ratings and reports, which the route writes itself, one post at a time.
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';
import { publicVideo } from './visibility';

export type NewReport = typeof t.reports.$inferInsert;

/** The video's creator, or undefined if there is no such video. */
export async function videoCreator(db: Db, videoId: number): Promise<{ userId: number } | undefined> {
  const [video] = await db.select({ userId: t.videos.userId }).from(t.videos).where(eq(t.videos.id, videoId));
  return video;
}

/**
 * Stores `userId`'s rating of a video and moves the video's totals in the same transaction; the totals
 * after it.
 */
export async function rateVideo(
  db: Db,
  videoId: number,
  userId: number,
  rating: number,
): Promise<{ ratingCount: number; ratingSum: number } | undefined> {
  return db.transaction(async (tx) => {
    // Rates of one video take turns: two first ratings at once would both find no earlier rating (there is
    // no row yet to lock) and both add 1 to rating_count.
    await tx.select({ id: t.videos.id }).from(t.videos).where(eq(t.videos.id, videoId)).for('update');
    // Re-rating replaces the earlier rating: the sum moves by the difference, the count stays.
    const [previous] = await tx
      .select({ rating: t.videoRatings.rating })
      .from(t.videoRatings)
      .where(and(eq(t.videoRatings.videoId, videoId), eq(t.videoRatings.userId, userId)));
    await tx
      .insert(t.videoRatings)
      .values({ videoId, userId, rating })
      .onConflictDoUpdate({
        target: [t.videoRatings.videoId, t.videoRatings.userId],
        set: { rating, updatedAt: sql`now()` },
      });
    const [video] = await tx
      .update(t.videos)
      .set({
        ratingCount: sql`${t.videos.ratingCount} + ${previous ? 0 : 1}`,
        ratingSum: sql`${t.videos.ratingSum} + ${rating - (previous?.rating ?? 0)}`,
      })
      .where(eq(t.videos.id, videoId))
      .returning({ ratingCount: t.videos.ratingCount, ratingSum: t.videos.ratingSum });
    return video;
  });
}

/** The id if the video is public (geo-blocking aside), else undefined. */
export async function publicVideoId(db: Db, id: number): Promise<number | undefined> {
  const [video] = await db
    .select({ id: t.videos.id })
    .from(t.videos)
    .where(and(eq(t.videos.id, id), publicVideo()));
  return video?.id;
}

export async function insertReport(tx: Tx | Db, report: NewReport): Promise<number | undefined> {
  const [row] = await tx.insert(t.reports).values(report).returning({ id: t.reports.id });
  return row?.id;
}

// The SQL of interactions: ratings and reports, which the route writes one post at a time, and the
// statements of a batch of likes and views (interaction-writes.ts decides what they write). A batch's
// statements each take every post of the batch at once: that is what makes a batch cost one transaction.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';
import type { IdempotencyClaim } from '../http/idempotency';
import { publicVideo } from './visibility';
import { stillCounted } from './weekly';

export type NewReport = typeof t.reports.$inferInsert;
export type NewView = typeof t.videoViews.$inferInsert;
export type NewLike = typeof t.videoLikes.$inferInsert;
type StoredKey = typeof t.idempotencyKeys.$inferSelect;
/** An Idempotency-Key row's primary key. */
type KeyId = { scope: string; caller: string; key: string };
/** A viewer (user, guest or address, as keyed) and a video. */
type Pair = { viewerKey: string; videoId: number };

const list = (items: SQL[]) => sql.join(items, sql`, `);

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

/** Claims the keys not claimed yet (answer still 0); returns those this call claimed. */
export async function claimKeys(tx: Tx, claims: IdempotencyClaim[]): Promise<KeyId[]> {
  return tx
    .insert(t.idempotencyKeys)
    .values(
      claims.map((c) => ({
        scope: c.scope,
        caller: c.caller,
        key: c.key,
        statusCode: 0,
        body: null,
        requestHash: c.hash,
      })),
    )
    .onConflictDoNothing()
    .returning({
      scope: t.idempotencyKeys.scope,
      caller: t.idempotencyKeys.caller,
      key: t.idempotencyKeys.key,
    });
}

export async function storedKeys(tx: Tx, keys: KeyId[]): Promise<StoredKey[]> {
  const k = t.idempotencyKeys;
  return tx
    .select()
    .from(k)
    .where(
      sql`(${k.scope}, ${k.caller}, ${k.key}) in (${list(keys.map((c) => sql`(${c.scope}, ${c.caller}, ${c.key})`))})`,
    );
}

/** Stores the answers of claimed keys, for their replays. */
export async function storeAnswers(tx: Tx, answers: { claim: KeyId; status: number; body: unknown }[]) {
  await tx.execute(
    sql`update ${t.idempotencyKeys} as k set status_code = d.s, body = d.b from (values ${list(
      answers.map(
        ({ claim: c, status, body }) =>
          sql`(${c.scope}::text, ${c.caller}::text, ${c.key}::text, ${status}::smallint, ${JSON.stringify(body)}::jsonb)`,
      ),
    )}) as d(scope, caller, key, s, b) where k.scope = d.scope and k.caller = d.caller and k.key = d.key`,
  );
}

/** Transaction-scoped advisory locks on `names`, taken in the order given. */
export async function lockNames(tx: Tx, names: string[]) {
  await tx.execute(
    sql`select count(pg_advisory_xact_lock(hashtext(k))) from unnest(array[${list(names.map((l) => sql`${l}`))}]::text[]) as k`,
  );
}

/** The pairs among `pairs` with a view row newer than `hours`. */
export async function viewedWithin(
  tx: Tx,
  pairs: Pair[],
  hours: number,
): Promise<{ key: string; id: number }[]> {
  const vv = t.videoViews;
  return tx
    .select({ key: vv.viewerKey, id: vv.videoId })
    .from(vv)
    .where(
      sql`(${vv.viewerKey}, ${vv.videoId}) in (${list(pairs.map((op) => sql`(${op.viewerKey}, ${op.videoId}::int)`))}) and ${vv.createdAt} > now() - make_interval(hours => ${hours})`,
    );
}

export async function insertViews(tx: Tx, rows: NewView[]) {
  await tx.insert(t.videoViews).values(rows);
}

/** The pairs among `pairs` that have a like row. */
export async function liked(tx: Tx, pairs: Pair[]): Promise<{ key: string; id: number }[]> {
  const vl = t.videoLikes;
  return tx
    .select({ key: vl.viewerKey, id: vl.videoId })
    .from(vl)
    .where(
      sql`(${vl.viewerKey}, ${vl.videoId}) in (${list(pairs.map((op) => sql`(${op.viewerKey}, ${op.videoId}::int)`))})`,
    );
}

/** Deletes the like rows of `pairs`; per row deleted, its video and whether the weekly count had it. */
export async function deleteLikes(tx: Tx, pairs: Pair[]): Promise<{ videoId: number; counted: boolean }[]> {
  const vl = t.videoLikes;
  return tx
    .delete(vl)
    .where(
      sql`(${vl.viewerKey}, ${vl.videoId}) in (${list(pairs.map((op) => sql`(${op.viewerKey}, ${op.videoId}::int)`))})`,
    )
    .returning({ videoId: vl.videoId, counted: stillCounted(vl.createdAt) });
}

export async function insertLikes(tx: Tx, rows: NewLike[]) {
  await tx.insert(t.videoLikes).values(rows).onConflictDoNothing();
}

/** Per video, what its counters move by. */
export interface CounterDelta {
  id: number;
  views: number;
  likes: number;
  weekLikes: number;
}

/**
 * Every video's counters in one statement (views add to the weekly views as well, since every new view row
 * is this week's); returns the counts after it.
 */
export async function bumpCounters(
  tx: Tx,
  deltas: CounterDelta[],
): Promise<{ id: number; view_count: number; like_count: number }[]> {
  const updated = (await tx.execute(
    sql`update ${t.videos} set view_count = ${t.videos}.view_count + d.v, like_count = greatest(${t.videos}.like_count + d.l, 0), week_view_count = ${t.videos}.week_view_count + d.v, week_like_count = greatest(${t.videos}.week_like_count + d.wl, 0) from (values ${list(deltas.map((d) => sql`(${d.id}::int, ${d.views}::int, ${d.likes}::int, ${d.weekLikes}::int)`))}) as d(id, v, l, wl) where ${t.videos}.id = d.id returning ${t.videos}.id, ${t.videos}.view_count, ${t.videos}.like_count`,
  )) as unknown as { rows: { id: number; view_count: number; like_count: number }[] };
  return updated.rows;
}

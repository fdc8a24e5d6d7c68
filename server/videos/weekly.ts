// Discover's weekly groups rank videos by their likes and views of the last 7 days. Counting those rows on
// each request grew with the catalogue (catalogue bench, PGlite, a million likes and views: the liked group
// took 190 ms at 1k videos and 480 ms at 100k, the viewed one 105 and 240 ms), and so did each page of the
// groups' own feeds. So the counts live on the video row, as the all-time ones do: a write adds the rows it
// makes and takes away the likes it deletes (interaction-writes.ts), and every minute the rows that have grown
// older than the window are taken away here. weekly_window.counted_after is where the counted rows begin:
// a row is taken away once, whatever the timing, and nodes that run this at the same time take turns on it.
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../db/client';
import * as t from '../db/schema';
import { repeatEvery } from '../util/every';

const WEEK = sql`interval '7 days'`;
const EXPIRE_EVERY_MS = 60_000;

/**
 * Holds the window's start until this transaction ends, so that the expiry cannot move it meanwhile: a like
 * deleted here then comes off the weekly count exactly when `stillCounted` says it was counted.
 */
export async function holdWeeklyWindow(tx: Tx): Promise<void> {
  await tx.select().from(t.weeklyWindow).for('share');
}

/** Whether a like or view row (its created_at column) is in its video's weekly count. */
export const stillCounted = (createdAt: SQL | typeof t.videoLikes.createdAt) =>
  sql<boolean>`${createdAt} > (select ${t.weeklyWindow.countedAfter} from ${t.weeklyWindow})`;

/** Takes the likes and views that have left the 7-day window off their videos' weekly counts; returns how many. */
export async function expireWeekly(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const [window] = (
      (await tx.execute(
        // As text: a JS Date would drop the microseconds, and the next run must start exactly where this one ends.
        sql`select counted_after::text as after, (now() - ${WEEK})::text as until, now() - ${WEEK} > counted_after as due
          from ${t.weeklyWindow} for update`,
      )) as unknown as { rows: { after: string; until: string; due: boolean }[] }
    ).rows;
    if (!window?.due) return 0;
    const left = (table: typeof t.videoLikes | typeof t.videoViews): SQL =>
      sql`select ${table.videoId} as video_id from ${table} where ${table.createdAt} > ${window.after}::timestamptz and ${table.createdAt} <= ${window.until}::timestamptz`;
    const gone = sql`select video_id, sum(l)::int as l, sum(v)::int as v from (
        select video_id, 1 as l, 0 as v from (${left(t.videoLikes)}) likes
        union all
        select video_id, 0, 1 from (${left(t.videoViews)}) views
      ) rows group by video_id`;
    // In id order, as the interaction writes lock them, so that the two cannot deadlock on a pair of videos;
    // NO KEY, as the UPDATE itself would take, so that inserting a like or view row (its foreign key) never waits.
    await tx.execute(
      sql`select id from ${t.videos} where id in (select video_id from (${gone}) g) order by id for no key update`,
    );
    const updated = (await tx.execute(
      sql`update ${t.videos} set week_like_count = greatest(${t.videos}.week_like_count - g.l, 0),
          week_view_count = greatest(${t.videos}.week_view_count - g.v, 0)
        from (${gone}) g where ${t.videos}.id = g.video_id returning g.l + g.v as n`,
    )) as unknown as { rows: { n: number }[] };
    await tx.update(t.weeklyWindow).set({ countedAfter: sql`${window.until}::timestamptz` });
    return updated.rows.reduce((sum, r) => sum + Number(r.n), 0);
  });
}

/** Expires now and then every minute; the returned function stops it after the run under way. */
export function startWeeklyExpiry(database: Database, log: (message: string) => void): () => Promise<void> {
  return repeatEvery(
    EXPIRE_EVERY_MS,
    async () => void (await expireWeekly(database.db)),
    (err) => log(`weekly counts: ${err.message}`),
  );
}

// Likes and views are written by group commit: the posts that arrive while one transaction runs wait and
// are written together by the next one. A transaction costs about the same for one post as for a hundred
// (PGlite runs one statement at a time; PostgreSQL pays a round trip and a commit per transaction), so a
// crowd no longer queues behind one transaction per post.
//
// Each post still gets its own answer, the one it would have had alone in the order the posts arrived:
// the batch reads the rows it will change, replays the posts one by one in memory, writes the net change in
// a few statements (the like and view rows, one UPDATE for every video's counters, the Idempotency-Key
// answers) and tells each post its count as it stood after that post. Nothing is answered before the
// commit. The rows stay the truth: like_count and view_count move by exactly the rows that appeared or
// went, in the same transaction as those rows, and so do the weekly counts (weekly.ts).
import { sql } from 'drizzle-orm';
import { messages } from '../../src/contract/messages';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { HttpError } from '../http/errors';
import type { IdempotencyClaim, Outcome } from '../http/idempotency';
import { noteLiker } from './likers';
import { holdWeeklyWindow, stillCounted } from './weekly';

/**
 * A view counts once per viewer per video per this window: a loop of a 10 s clip, a swipe back and forth
 * or an outbox replay is one view, while coming back to it later in the day is another.
 */
export const VIEW_WINDOW_HOURS = 6;

/** Bounds a transaction's statements (PostgreSQL takes at most 65,535 parameters per statement). */
const MAX_BATCH = 500;

export interface Interaction {
  kind: 'like' | 'view';
  /** For likes: add (true) or remove (false). */
  add?: boolean;
  videoId: number;
  viewerKey: string;
  userId: number | null;
  guestId: string | null;
  claim: IdempotencyClaim | undefined;
}

export type WriteOutcome = Outcome & { replayed: boolean };

interface Pending extends Interaction {
  resolve(outcome: WriteOutcome): void;
  reject(err: unknown): void;
}

const claimId = (c: { scope: string; caller: string; key: string }) => `${c.scope}\n${c.caller}\n${c.key}`;
const pairOf = (op: Interaction) => `${op.viewerKey}|${op.videoId}`;
const keyReused = () =>
  new HttpError(422, messages.server.idempotencyKeyReused, {
    'Idempotency-Key': [messages.server.idempotencyKeyReused],
  });
const list = (items: ReturnType<typeof sql>[]) => sql.join(items, sql`, `);

/** Writes one batch in one transaction; returns each post's answer (or its own error), in order. */
async function writeBatch(db: Db, ops: Interaction[]): Promise<(WriteOutcome | Error)[]> {
  return db.transaction(async (tx) => {
    const results: (WriteOutcome | Error | undefined)[] = new Array(ops.length);

    // Idempotency-Keys: the first post of a key in the batch claims it (or finds it answered before);
    // later posts of the same key in the batch are replays of that first one.
    const leaders = new Map<string, number>();
    const followers: [number, number][] = [];
    ops.forEach((op, i) => {
      if (!op.claim) return;
      const leader = leaders.get(claimId(op.claim));
      if (leader === undefined) leaders.set(claimId(op.claim), i);
      else followers.push([i, leader]);
    });
    const claims = [...leaders.values()]
      .map((i) => ops[i]?.claim as IdempotencyClaim)
      .sort((a, b) => (claimId(a) < claimId(b) ? -1 : 1));
    if (claims.length) {
      // In one order on every node, so that two batches waiting on each other's keys cannot deadlock.
      const claimed = await tx
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
      const mine = new Set(claimed.map(claimId));
      const taken = claims.filter((c) => !mine.has(claimId(c)));
      if (taken.length) {
        const k = t.idempotencyKeys;
        const stored = await tx
          .select()
          .from(k)
          .where(
            sql`(${k.scope}, ${k.caller}, ${k.key}) in (${list(taken.map((c) => sql`(${c.scope}, ${c.caller}, ${c.key})`))})`,
          );
        const byId = new Map(stored.map((s) => [claimId(s), s]));
        for (const c of taken) {
          const s = byId.get(claimId(c));
          const i = leaders.get(claimId(c)) as number;
          // Keys stored before the hash was (null) replay as they always did.
          results[i] =
            s?.requestHash && s.requestHash !== c.hash
              ? keyReused()
              : { status: s?.statusCode || 200, body: s?.body ?? null, replayed: true };
        }
      }
    }
    const isFollower = new Set(followers.map(([i]) => i));
    const todo = ops.flatMap((op, i) => (results[i] === undefined && !isFollower.has(i) ? [{ op, i }] : []));

    if (todo.length) {
      // Posts of one viewer on one video take turns across API nodes, so that the read of the rows below
      // stays true until this transaction commits (the same lock the views always took, per pair).
      const locks = [
        ...new Set(todo.map(({ op }) => (op.kind === 'view' ? pairOf(op) : `like|${pairOf(op)}`))),
      ].sort();
      await tx.execute(
        sql`select count(pg_advisory_xact_lock(hashtext(k))) from unnest(array[${list(locks.map((l) => sql`${l}`))}]::text[]) as k`,
      );
      // Sorted, so that the counter rows are locked in one order when two nodes' batches meet (a deadlock
      // there fails both batches over to one post at a time, below, rather than losing anything).
      const videoIds = [...new Set(todo.map(({ op }) => op.videoId))].sort((a, b) => a - b);
      const viewDelta = new Map<number, number>();
      const likeDelta = new Map<number, number>();
      // Views only ever add to the weekly count (every new view row is this week's); likes also take away.
      const weekLikeDelta = new Map<number, number>();
      const bump = (m: Map<number, number>, id: number, d: number) => m.set(id, (m.get(id) ?? 0) + d);
      const counted = new Map<number, boolean>();

      const views = todo.filter(({ op }) => op.kind === 'view');
      if (views.length) {
        const vv = t.videoViews;
        const recent = await tx
          .select({ key: vv.viewerKey, id: vv.videoId })
          .from(vv)
          .where(
            sql`(${vv.viewerKey}, ${vv.videoId}) in (${list(views.map(({ op }) => sql`(${op.viewerKey}, ${op.videoId}::int)`))}) and ${vv.createdAt} > now() - make_interval(hours => ${VIEW_WINDOW_HOURS})`,
          );
        const seen = new Set(recent.map((r) => `${r.key}|${r.id}`));
        const rows: (typeof vv.$inferInsert)[] = [];
        for (const { op, i } of views) {
          const first = !seen.has(pairOf(op));
          seen.add(pairOf(op));
          counted.set(i, first);
          if (!first) continue;
          bump(viewDelta, op.videoId, 1);
          rows.push({ videoId: op.videoId, viewerKey: op.viewerKey, userId: op.userId, guestId: op.guestId });
        }
        if (rows.length) await tx.insert(vv).values(rows);
      }

      const likes = todo.filter(({ op }) => op.kind === 'like');
      if (likes.length) {
        const vl = t.videoLikes;
        const pairs = [...new Map(likes.map(({ op }) => [pairOf(op), op])).values()];
        const existing = await tx
          .select({ key: vl.viewerKey, id: vl.videoId })
          .from(vl)
          .where(
            sql`(${vl.viewerKey}, ${vl.videoId}) in (${list(pairs.map((op) => sql`(${op.viewerKey}, ${op.videoId}::int)`))})`,
          );
        const initial = new Set(existing.map((r) => `${r.key}|${r.id}`));
        const state = new Map(pairs.map((op) => [pairOf(op), initial.has(pairOf(op))]));
        const touched = new Map<string, Interaction>();
        for (const { op, i } of likes) {
          const was = state.get(pairOf(op)) as boolean;
          // "add" twice is one like and "remove" of nothing is a no-op, as when they came one by one.
          if (was === op.add) continue;
          state.set(pairOf(op), Boolean(op.add));
          bump(likeDelta, op.videoId, op.add ? 1 : -1);
          touched.set(pairOf(op), op);
          counted.set(i, true);
        }
        // A like removed and added again in the batch is a new like (its own time), as it was one by one.
        const gone = [...touched.keys()].filter((p) => initial.has(p));
        const added = [...touched.values()].filter((op) => state.get(pairOf(op)));
        if (gone.length) {
          await holdWeeklyWindow(tx);
          const deleted = await tx
            .delete(vl)
            .where(
              sql`(${vl.viewerKey}, ${vl.videoId}) in (${list(gone.map((p) => touched.get(p) as Interaction).map((op) => sql`(${op.viewerKey}, ${op.videoId}::int)`))})`,
            )
            .returning({ videoId: vl.videoId, counted: stillCounted(vl.createdAt) });
          // A like older than the window was already taken off the weekly count when it left it.
          for (const row of deleted) if (row.counted) bump(weekLikeDelta, row.videoId, -1);
        }
        for (const op of added) {
          noteLiker(db, op.viewerKey);
          bump(weekLikeDelta, op.videoId, 1);
        }
        if (added.length)
          await tx
            .insert(vl)
            .values(
              added.map((op) => ({
                videoId: op.videoId,
                viewerKey: op.viewerKey,
                userId: op.userId,
                guestId: op.guestId,
              })),
            )
            .onConflictDoNothing();
      }

      // Every video's counters in one statement; it also reads the counts each answer starts from.
      const updated = (await tx.execute(
        sql`update ${t.videos} set view_count = ${t.videos}.view_count + d.v, like_count = greatest(${t.videos}.like_count + d.l, 0), week_view_count = ${t.videos}.week_view_count + d.v, week_like_count = greatest(${t.videos}.week_like_count + d.wl, 0) from (values ${list(videoIds.map((id) => sql`(${id}::int, ${viewDelta.get(id) ?? 0}::int, ${likeDelta.get(id) ?? 0}::int, ${weekLikeDelta.get(id) ?? 0}::int)`))}) as d(id, v, l, wl) where ${t.videos}.id = d.id returning ${t.videos}.id, ${t.videos}.view_count, ${t.videos}.like_count`,
      )) as unknown as { rows: { id: number; view_count: number; like_count: number }[] };
      const running = new Map<number, { views: number; likes: number }>();
      for (const row of updated.rows) {
        const id = Number(row.id);
        running.set(id, {
          views: Number(row.view_count) - (viewDelta.get(id) ?? 0),
          likes: Math.max(Number(row.like_count) - (likeDelta.get(id) ?? 0), 0),
        });
      }
      for (const { op, i } of todo) {
        const count = running.get(op.videoId) ?? { views: 0, likes: 0 };
        if (op.kind === 'view') {
          if (counted.get(i)) count.views += 1;
          results[i] = {
            status: 200,
            body: { data: { videoId: op.videoId, counted: Boolean(counted.get(i)), viewCount: count.views } },
            replayed: false,
          };
        } else {
          if (counted.get(i)) count.likes = Math.max(count.likes + (op.add ? 1 : -1), 0);
          results[i] = {
            status: 200,
            body: { data: { videoId: op.videoId, isLiked: Boolean(op.add), likeCount: count.likes } },
            replayed: false,
          };
        }
      }

      const answered = todo.filter(({ op }) => op.claim);
      if (answered.length) {
        await tx.execute(
          sql`update ${t.idempotencyKeys} as k set status_code = d.s, body = d.b from (values ${list(
            answered.map(({ op, i }) => {
              const c = op.claim as IdempotencyClaim;
              const r = results[i] as WriteOutcome;
              return sql`(${c.scope}::text, ${c.caller}::text, ${c.key}::text, ${r.status}::smallint, ${JSON.stringify(r.body)}::jsonb)`;
            }),
          )}) as d(scope, caller, key, s, b) where k.scope = d.scope and k.caller = d.caller and k.key = d.key`,
        );
      }
    }

    for (const [i, leader] of followers) {
      const own = ops[i]?.claim as IdempotencyClaim;
      const first = results[leader] as WriteOutcome | Error;
      results[i] =
        own.hash !== ops[leader]?.claim?.hash
          ? keyReused()
          : first instanceof Error
            ? first
            : { ...first, replayed: true };
    }
    return results as (WriteOutcome | Error)[];
  });
}

async function settle(db: Db, batch: Pending[]) {
  try {
    const results = await writeBatch(db, batch);
    batch.forEach((op, i) => {
      const r = results[i];
      if (r instanceof Error) op.reject(r);
      else op.resolve(r as WriteOutcome);
    });
  } catch (err) {
    // One bad post (a video deleted meanwhile, a deadlock with another node) must not fail the others:
    // each is tried again alone and fails, if it does, on its own.
    if (batch.length === 1) batch[0]?.reject(err);
    else for (const op of batch) await settle(db, [op]);
  }
}

const writers = new WeakMap<Db, (op: Interaction) => Promise<WriteOutcome>>();

function writerFor(db: Db) {
  let queue: Pending[] = [];
  let busy = false;
  async function drain() {
    while (queue.length) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      await settle(db, batch);
    }
    busy = false;
  }
  return (op: Interaction) =>
    new Promise<WriteOutcome>((resolve, reject) => {
      queue.push({ ...op, resolve, reject });
      if (busy) return;
      busy = true;
      // One turn of the event loop first: on PGlite nothing else runs while a statement does, so the posts
      // read from the sockets in this turn would otherwise each start their own transaction.
      setImmediate(() => void drain());
    });
}

/** Writes a like or a view with the posts around it (see the top of this file) and gives its answer. */
export function writeInteraction(db: Db, op: Interaction): Promise<WriteOutcome> {
  let write = writers.get(db);
  if (!write) {
    write = writerFor(db);
    writers.set(db, write);
  }
  return write(op);
}

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
import { messages } from '../../src/contract/messages';
import type { Db, Tx } from '../db/client';
import type { IdempotencyClaim, Outcome } from '../http/idempotency';
import { DomainError } from '../util/domain-error';
import * as q from './interactions-queries';
import { noteLiker } from './likers';
import { holdWeeklyWindow } from './weekly';

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
// A refusal in the service's terms: the error handler answers it as the 422 that idempotent() throws.
const keyReused = () => new DomainError('invalid', messages.server.idempotencyKeyReused, 'Idempotency-Key');

/** Each post's answer or error, by its index in the batch; undefined until known. */
type Results = (WriteOutcome | Error | undefined)[];
/** The posts the batch writes (neither answered before nor replays of another post in the batch). */
type Todo = { op: Interaction; i: number }[];

/** What the batch changes, summed while its posts are replayed in memory. */
interface Tally {
  /** Per video: views and likes added (or, for likes, taken away). */
  views: Map<number, number>;
  likes: Map<number, number>;
  // Views only ever add to the weekly count (every new view row is this week's); likes also take away.
  weekLikes: Map<number, number>;
  /** Per post: whether it changed anything (a view counted, a like appeared or went). */
  counted: Map<number, boolean>;
}
const bump = (m: Map<number, number>, id: number, d: number) => m.set(id, (m.get(id) ?? 0) + d);

/** Writes one batch in one transaction; returns each post's answer (or its own error), in order. */
async function writeBatch(db: Db, ops: Interaction[]): Promise<(WriteOutcome | Error)[]> {
  return db.transaction(async (tx) => {
    const results: Results = new Array(ops.length);
    const { leaders, followers } = keyGroups(ops);
    await claimKeys(tx, ops, leaders, results);
    const isFollower = new Set(followers.map(([i]) => i));
    const todo = ops.flatMap((op, i) => (results[i] === undefined && !isFollower.has(i) ? [{ op, i }] : []));
    if (todo.length) await writePosts(db, tx, todo, results);
    answerFollowers(ops, followers, results);
    return results as (WriteOutcome | Error)[];
  });
}

/**
 * Idempotency-Keys: the first post of a key in the batch claims it (or finds it answered before); later posts
 * of the same key in the batch are replays of that first one. Leaders by key, and [follower, leader] pairs.
 */
function keyGroups(ops: Interaction[]) {
  const leaders = new Map<string, number>();
  const followers: [number, number][] = [];
  ops.forEach((op, i) => {
    if (!op.claim) return;
    const leader = leaders.get(claimId(op.claim));
    if (leader === undefined) leaders.set(claimId(op.claim), i);
    else followers.push([i, leader]);
  });
  return { leaders, followers };
}

/** Claims the leaders' keys; a key answered before gives its post the stored answer (or refuses it). */
async function claimKeys(tx: Tx, ops: Interaction[], leaders: Map<string, number>, results: Results) {
  const claims = [...leaders.values()]
    .map((i) => ops[i]?.claim as IdempotencyClaim)
    .sort((a, b) => (claimId(a) < claimId(b) ? -1 : 1));
  if (!claims.length) return;
  // In one order on every node, so that two batches waiting on each other's keys cannot deadlock.
  const claimed = await q.claimKeys(tx, claims);
  const mine = new Set(claimed.map(claimId));
  const taken = claims.filter((c) => !mine.has(claimId(c)));
  if (!taken.length) return;
  const stored = await q.storedKeys(tx, taken);
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

/** The posts to write: their rows, their videos' counters, their answers and their keys' stored answers. */
async function writePosts(db: Db, tx: Tx, todo: Todo, results: Results) {
  // Posts of one viewer on one video take turns across API nodes, so that the read of the rows below
  // stays true until this transaction commits (the same lock the views always took, per pair).
  const locks = [...new Set(todo.map(({ op }) => (op.kind === 'view' ? pairOf(op) : `like|${pairOf(op)}`)))];
  await q.lockNames(tx, locks.sort());
  const tally: Tally = { views: new Map(), likes: new Map(), weekLikes: new Map(), counted: new Map() };
  const views = todo.filter(({ op }) => op.kind === 'view');
  if (views.length) await writeViews(tx, views, tally);
  const likes = todo.filter(({ op }) => op.kind === 'like');
  if (likes.length) await writeLikes(db, tx, likes, tally);
  const running = await updateCounters(tx, todo, tally);
  for (const { op, i } of todo) results[i] = answerOf(op, running, Boolean(tally.counted.get(i)));
  const answered = todo.filter(({ op }) => op.claim);
  if (answered.length) {
    await q.storeAnswers(
      tx,
      answered.map(({ op, i }) => {
        const r = results[i] as WriteOutcome;
        return { claim: op.claim as IdempotencyClaim, status: r.status, body: r.body };
      }),
    );
  }
}

/** A view counts if its viewer has none of the video within the window, nor an earlier one in the batch. */
async function writeViews(tx: Tx, views: Todo, tally: Tally) {
  const recent = await q.viewedWithin(
    tx,
    views.map(({ op }) => op),
    VIEW_WINDOW_HOURS,
  );
  const seen = new Set(recent.map((r) => `${r.key}|${r.id}`));
  const rows: q.NewView[] = [];
  for (const { op, i } of views) {
    const first = !seen.has(pairOf(op));
    seen.add(pairOf(op));
    tally.counted.set(i, first);
    if (!first) continue;
    bump(tally.views, op.videoId, 1);
    rows.push({ videoId: op.videoId, viewerKey: op.viewerKey, userId: op.userId, guestId: op.guestId });
  }
  if (rows.length) await q.insertViews(tx, rows);
}

/** Replays the likes on the rows there are, then writes the net change: rows gone, rows added. */
async function writeLikes(db: Db, tx: Tx, likes: Todo, tally: Tally) {
  const pairs = [...new Map(likes.map(({ op }) => [pairOf(op), op])).values()];
  const initial = new Set((await q.liked(tx, pairs)).map((r) => `${r.key}|${r.id}`));
  const { state, touched } = replayLikes(likes, pairs, initial, tally);
  // A like removed and added again in the batch is a new like (its own time), as it was one by one.
  const gone = [...touched.keys()].filter((p) => initial.has(p));
  const added = [...touched.values()].filter((op) => state.get(pairOf(op)));
  if (gone.length) {
    await holdWeeklyWindow(tx);
    const deleted = await q.deleteLikes(
      tx,
      gone.map((p) => touched.get(p) as Interaction),
    );
    // A like older than the window was already taken off the weekly count when it left it.
    for (const row of deleted) if (row.counted) bump(tally.weekLikes, row.videoId, -1);
  }
  for (const op of added) {
    noteLiker(db, op.viewerKey);
    bump(tally.weekLikes, op.videoId, 1);
  }
  if (added.length)
    await q.insertLikes(
      tx,
      added.map((op) => ({
        videoId: op.videoId,
        viewerKey: op.viewerKey,
        userId: op.userId,
        guestId: op.guestId,
      })),
    );
}

/**
 * The likes one by one in memory, from the rows there were (`initial`): each pair's state at the end, and
 * the last post that changed each pair.
 */
function replayLikes(likes: Todo, pairs: Interaction[], initial: Set<string>, tally: Tally) {
  const state = new Map(pairs.map((op) => [pairOf(op), initial.has(pairOf(op))]));
  const touched = new Map<string, Interaction>();
  for (const { op, i } of likes) {
    const was = state.get(pairOf(op)) as boolean;
    // "add" twice is one like and "remove" of nothing is a no-op, as when they came one by one.
    if (was === op.add) continue;
    state.set(pairOf(op), Boolean(op.add));
    bump(tally.likes, op.videoId, op.add ? 1 : -1);
    touched.set(pairOf(op), op);
    tally.counted.set(i, true);
  }
  return { state, touched };
}

/** Per video, the counts before the batch, which the answers count on from. */
type Running = Map<number, { views: number; likes: number }>;

async function updateCounters(tx: Tx, todo: Todo, tally: Tally): Promise<Running> {
  // Sorted, so that the counter rows are locked in one order when two nodes' batches meet (a deadlock
  // there fails both batches over to one post at a time, below, rather than losing anything).
  const videoIds = [...new Set(todo.map(({ op }) => op.videoId))].sort((a, b) => a - b);
  // Every video's counters in one statement; it also reads the counts each answer starts from.
  const updated = await q.bumpCounters(
    tx,
    videoIds.map((id) => ({
      id,
      views: tally.views.get(id) ?? 0,
      likes: tally.likes.get(id) ?? 0,
      weekLikes: tally.weekLikes.get(id) ?? 0,
    })),
  );
  const running: Running = new Map();
  for (const row of updated) {
    const id = Number(row.id);
    running.set(id, {
      views: Number(row.view_count) - (tally.views.get(id) ?? 0),
      likes: Math.max(Number(row.like_count) - (tally.likes.get(id) ?? 0), 0),
    });
  }
  return running;
}

/** The post's answer: its video's count as it stood after this post, moving `running` on. */
function answerOf(op: Interaction, running: Running, counted: boolean): WriteOutcome {
  const count = running.get(op.videoId) ?? { views: 0, likes: 0 };
  if (op.kind === 'view') {
    if (counted) count.views += 1;
    return {
      status: 200,
      body: { data: { videoId: op.videoId, counted, viewCount: count.views } },
      replayed: false,
    };
  }
  if (counted) count.likes = Math.max(count.likes + (op.add ? 1 : -1), 0);
  return {
    status: 200,
    body: { data: { videoId: op.videoId, isLiked: Boolean(op.add), likeCount: count.likes } },
    replayed: false,
  };
}

/** A later post of a key in the batch gets its first post's answer as a replay, if it is the same request. */
function answerFollowers(ops: Interaction[], followers: [number, number][], results: Results) {
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

// The viewer keys that may have a like, kept in memory where one process is the only writer of the
// database, so that a page for a viewer who never liked anything (most guests) needs no likes query.
//
// Why a miss may be answered "not liked" without asking: the set is read from video_likes when the server
// opens the database, before it serves anything; every like written since goes through
// videos/interaction-writes.ts, which adds its key here before its INSERT runs (a rolled-back insert only
// leaves a key that costs one query, never a missing one); nothing removes a key (an unlike leaves it,
// which again only costs the query). That holds for PGlite only: its files are locked to this one process
// (db/lock.ts), so no other node, worker or CLI can write a like behind our back. PostgreSQL may have
// several API nodes writing, so there is no set and every page asks the database (coalesced).
import type { Database, Db } from '../db/client';
import * as t from '../db/schema';

const likers = new WeakMap<Db, Set<string>>();

/** Loads the set for a database this process alone writes; for PostgreSQL it does nothing. */
export async function trackLikers(database: Pick<Database, 'db' | 'kind'>): Promise<void> {
  if (database.kind !== 'pglite') return;
  const rows = await database.db.selectDistinct({ key: t.videoLikes.viewerKey }).from(t.videoLikes);
  likers.set(database.db, new Set(rows.map((r) => r.key)));
}

/** Called before a like row is inserted for `key`. */
export function noteLiker(db: Db, key: string): void {
  likers.get(db)?.add(key);
}

/** False only when `key` certainly has no like; true when it may have one or nobody keeps track. */
export function mayHaveLiked(db: Db, key: string): boolean {
  const known = likers.get(db);
  return !known || known.has(key);
}

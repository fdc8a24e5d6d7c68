// Building blocks every video list shares: filters from the query, per-viewer flags, cursors, links.next.
import { and, type Column, desc, eq, exists, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { MAX_ID } from '../../src/contract/common';
import { messages } from '../../src/contract/messages';
import type { Db } from '../db/client';
import { coalesce } from '../db/coalesce';
import type { VideoRow } from '../db/schema';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import type { MediaStorage } from '../media/storage';
import { DomainError } from '../util/domain-error';
import { mayHaveLiked } from './likers';
import { presentVideos, type ViewerFlags } from './present';
import { notGeoBlocked, publicVideo } from './visibility';

// For the route modules, which never import db/schema.
export type { VideoRow };

// A service's refusals (util/domain-error.ts): the HTTP layer answers them 422 with `errors.cursor`, and 404.
export const invalidCursor = () => new DomainError('invalid', messages.server.invalidCursor, 'cursor');
const videoNotFound = () => new DomainError('not_found', messages.video.notFound);

/**
 * The times a cursor may carry (ms): years 1 to 9999. PostgreSQL reads no other ISO form (a JS Date beyond
 * them prints `+275760-…`), so anything outside was not made by us.
 */
const FIRST_TIME = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_TIME = Date.parse('9999-12-31T23:59:59.999Z');
const cursorTime = v.pipe(v.number(), v.integer(), v.minValue(FIRST_TIME), v.maxValue(LAST_TIME));

/** Creator gender letters, comma joined ("m", "t", "m,t"). */
export function genderFilter(gender: string | undefined): SQL | undefined {
  if (!gender) return undefined;
  const genders = gender.split(',') as ('m' | 't')[];
  return exists(
    sql`(select 1 from ${t.users} where ${t.users.id} = ${t.videos.userId} and ${inArray(t.users.gender, genders)})`,
  );
}

export function tagsFilter(tags: string | undefined): SQL | undefined {
  if (!tags) return undefined;
  const ids = tags.split(',').map(Number);
  return exists(
    sql`(select 1 from ${t.videoTags} where ${t.videoTags.videoId} = ${t.videos.id} and ${inArray(t.videoTags.tagId, ids)})`,
  );
}

/** What any list may show this viewer: public videos of creators who do not geo-block them. */
export function visibleTo(viewer: Viewer, gender?: string): SQL[] {
  const filters = [publicVideo(), notGeoBlocked(viewer, t.videos.userId)];
  const byGender = genderFilter(gender);
  if (byGender) filters.push(byGender);
  return filters;
}

/**
 * Whether the tag (`tagId`, a column of the outer query) has a video this viewer may see. The probe is a
 * LIMIT 1 walk of video_tags_tag from the newest video down, so it stops at the first visible one: as a
 * plain EXISTS the planner may read every entry of the tag first (a bitmap scan, before VACUUM has marked
 * the pages all-visible, which PGlite never does on its own), a cost that grows with the catalogue.
 */
export function tagHasVisibleVideo(db: Db, viewer: Viewer, tagId: Column | SQL, gender?: string): SQL {
  const first = db
    .select({ one: sql`1` })
    .from(t.videoTags)
    .innerJoin(t.videos, eq(t.videos.id, t.videoTags.videoId))
    .where(and(eq(t.videoTags.tagId, tagId), ...visibleTo(viewer, gender)))
    .orderBy(desc(t.videoTags.videoId))
    .limit(1);
  return sql`exists (select 1 from (${first}) as first_visible)`;
}

/** The video `id` as this viewer may see it (public, not geo-blocked for them), else 404 'Video not found'. */
export async function visibleVideo(db: Db, viewer: Viewer, id: number): Promise<VideoRow> {
  const [row] = await db
    .select()
    .from(t.videos)
    .where(and(eq(t.videos.id, id), ...visibleTo(viewer)));
  if (!row) throw videoNotFound();
  return row;
}

const visibleIdReaders = new WeakMap<Db, (ask: string) => Promise<boolean>>();

/**
 * Whether the video `id` is one this viewer may see (as visibleVideo, without reading the row), else 404.
 * Asks that arrive together share one query per place (country and region) among them.
 */
export async function visibleVideoId(db: Db, viewer: Viewer, id: number): Promise<number> {
  let read = visibleIdReaders.get(db);
  if (!read) {
    read = coalesce(async (asks: string[]) => {
      const byPlace = new Map<string, number[]>();
      for (const ask of asks) {
        const [place = '', raw] = ask.split('#');
        byPlace.set(place, [...(byPlace.get(place) ?? []), Number(raw)]);
      }
      const seen = new Map<string, boolean>();
      for (const [place, ids] of byPlace) {
        const [country, region] = place.split('|');
        const rows = await db
          .select({ id: t.videos.id })
          .from(t.videos)
          .where(
            and(
              inArray(t.videos.id, ids),
              ...visibleTo({ country: country || undefined, region: region || undefined } as Viewer),
            ),
          );
        for (const r of rows) seen.set(`${place}#${r.id}`, true);
      }
      return seen;
    }, false);
    visibleIdReaders.set(db, read);
  }
  if (!(await read(`${viewer.country ?? ''}|${viewer.region ?? ''}#${id}`))) {
    throw videoNotFound();
  }
  return id;
}

/** What one request asks: whose flags (viewer key, user id) among which videos. */
interface FlagAsk {
  key: string | undefined;
  userId: number | undefined;
  ids: number[];
}

/** Flags for a batch of requests: one likes query and one ratings query for all of them. */
async function readFlags(db: Db, asks: string[]): Promise<Map<string, ViewerFlags>> {
  const parsed = asks.map((a) => JSON.parse(a) as FlagAsk);
  const keys = [...new Set(parsed.flatMap((a) => (a.key ? [a.key] : [])))];
  const users = [...new Set(parsed.flatMap((a) => (a.userId ? [a.userId] : [])))];
  const ids = [...new Set(parsed.flatMap((a) => a.ids))];
  const [liked, rated] = await Promise.all([
    keys.length
      ? db
          .select({ key: t.videoLikes.viewerKey, id: t.videoLikes.videoId })
          .from(t.videoLikes)
          .where(and(inArray(t.videoLikes.viewerKey, keys), inArray(t.videoLikes.videoId, ids)))
      : [],
    users.length
      ? db
          .select({ user: t.videoRatings.userId, id: t.videoRatings.videoId })
          .from(t.videoRatings)
          .where(and(inArray(t.videoRatings.userId, users), inArray(t.videoRatings.videoId, ids)))
      : [],
  ]);
  const answers = new Map<string, ViewerFlags>();
  parsed.forEach((ask, i) => {
    const wanted = new Set(ask.ids);
    answers.set(asks[i] as string, {
      liked: new Set(liked.filter((r) => r.key === ask.key && wanted.has(r.id)).map((r) => r.id)),
      rated: new Set(rated.filter((r) => r.user === ask.userId && wanted.has(r.id)).map((r) => r.id)),
    });
  });
  return answers;
}

const flagReaders = new WeakMap<Db, (ask: string) => Promise<ViewerFlags>>();

/**
 * isLiked / isRated for one page. Requests that arrive together share one likes query and one ratings
 * query (db/coalesce.ts), whatever the page size and however many viewers.
 */
export async function viewerFlags(db: Db, viewer: Viewer, ids: number[]): Promise<ViewerFlags> {
  if (ids.length === 0 || (!viewer.key && !viewer.user)) return { liked: new Set(), rated: new Set() };
  // A guest rates nothing (rating needs an account), so a guest who never liked has no flag to read.
  if (!viewer.user && viewer.key && !mayHaveLiked(db, viewer.key))
    return { liked: new Set(), rated: new Set() };
  let read = flagReaders.get(db);
  if (!read) {
    read = coalesce((asks: string[]) => readFlags(db, asks), { liked: new Set(), rated: new Set() }, 64);
    flagReaders.set(db, read);
  }
  const ask: FlagAsk = { key: viewer.key, userId: viewer.user?.id, ids: [...ids].sort((a, b) => a - b) };
  return read(JSON.stringify(ask));
}

/**
 * Cursors are opaque to the client (base64url JSON); it only ever follows links.next. A tampered cursor is
 * a 422, never a 500.
 */
export function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<S extends v.GenericSchema>(
  schema: S,
  raw: string | undefined,
): v.InferOutput<S> | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    // PostgreSQL text cannot hold U+0000 nor a lone surrogate; JSON.stringify escapes both, and only them.
    if (/\\u(?:0000|d[89a-f])/i.test(JSON.stringify(parsed))) throw invalidCursor();
    return v.parse(schema, parsed);
  } catch {
    throw invalidCursor();
  }
}

/** links.next repeats the caller's filters, swaps in the new cursor and counts pages for the client. */
export function nextLink(path: string, query: Record<string, unknown>, cursor: string | null): string | null {
  if (cursor === null) return null;
  const params = new URLSearchParams();
  for (const [k, value] of Object.entries(query)) {
    if (value !== undefined && k !== 'page' && k !== 'cursor') params.set(k, String(value));
  }
  const page = Number(query.page ?? 1);
  params.set('page', String((Number.isFinite(page) ? page : 1) + 1));
  params.set('cursor', cursor);
  return `${path}?${params}`;
}

type PageQuery = { page?: number | undefined; cursor?: string | undefined };

/** Page 1 of a list: no cursor and no page number past 1. */
export const opensList = (query: PageQuery) => query.cursor === undefined && (query.page ?? 1) === 1;

/**
 * Rows before a page asked for by number. Clients ought to follow links.next, but one that builds
 * `?page=N` itself (spec: "Feed GET {api}?page={n}") must not get page 1 again forever: it gets page N by
 * offset over the same order, and its links.next goes on by cursor from there. `lead` is how many videos
 * page 1 put in front (a chosen first video), which took places of the list. 0 once a cursor says where
 * to go on.
 */
export function pageOffset(query: PageQuery, perPage: number, lead = 0): number {
  if (query.cursor !== undefined || opensList(query)) return 0;
  return ((query.page ?? 1) - 1) * perPage - lead;
}

/**
 * Cursor of a ranked list (home feed, discover groups): the snapshot time of page 1 and every id served so
 * far (sorted, delta-encoded in base 36).
 */
const rankCursorSchema = v.object({
  at: cursorTime,
  seen: v.pipe(v.string(), v.regex(/^[0-9a-z]*(\.[0-9a-z]+)*$/), v.maxLength(15_000)),
});

export function encodeSeen(ids: number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return sorted.map((id, i) => (id - (i ? (sorted[i - 1] ?? 0) : 0)).toString(36)).join('.');
}

export function decodeSeen(seen: string): number[] {
  if (!seen) return [];
  let last = 0;
  return seen.split('.').map((part) => {
    last += Number.parseInt(part, 36);
    return last;
  });
}

/** A ranked session's cursor from the same snapshot as `cursor`, with `served` as every video served so far. */
export function continueSession(cursor: string, served: number[]): string {
  const state = decodeCursor(rankCursorSchema, cursor);
  if (!state) throw invalidCursor();
  return encodeCursor({ at: state.at, seen: encodeSeen(served) });
}

/** What a ranked list reads for one page: `limit` videos in rank order, under `filters` too. */
export interface RankRead {
  /** Snapshot time of page 1, for ranks and windows that depend on the time. */
  at: Date;
  /** Published by the snapshot and not served yet. */
  filters: SQL[];
  limit: number;
}

/**
 * One page of a ranked list whose order moves while a session pages (likes and views change between
 * pages): the best-ranked videos not served yet, among those published by the snapshot. Moving counters
 * may reorder what is left, but a session never sees a video twice and never skips one; videos published
 * after page 1 wait for the next session, which ends after `max` videos. `exclude` was served already (a
 * video put in front of page 1); `skip` rows (a page asked for by number without a cursor) are read past
 * and count as served.
 */
export async function rankedSessionPage(
  query: PageQuery,
  opts: {
    perPage: number;
    max: number;
    skip: number;
    exclude?: number[];
    rank: (read: RankRead) => Promise<VideoRow[]>;
  },
): Promise<{ rows: VideoRow[]; cursor: string | null }> {
  const state = decodeCursor(rankCursorSchema, query.cursor);
  // The database keeps microseconds, JS milliseconds (truncated): without the +1 a video committed in the same
  // millisecond as page 1 would fall after the snapshot and vanish until the next session.
  const at = state ? new Date(state.at) : new Date(Date.now() + 1);
  const seen = [...(state ? decodeSeen(state.seen) : []), ...(opts.exclude ?? [])];
  if (seen.some((id) => !Number.isSafeInteger(id) || id > MAX_ID)) throw invalidCursor();
  const take = Math.min(opts.perPage, opts.max - seen.length - opts.skip);
  if (take <= 0) return { rows: [], cursor: null };
  const filters = [sql`${t.videos.publishAt} <= ${at.toISOString()}::timestamptz`];
  if (seen.length) filters.push(notInArray(t.videos.id, seen));
  const rows = await opts.rank({ at, filters, limit: opts.skip + take + 1 });
  const read = rows.slice(0, opts.skip + take);
  const served = [...seen, ...read.map((r) => r.id)];
  const more = rows.length > read.length && served.length < opts.max;
  return {
    rows: read.slice(opts.skip),
    cursor: more ? encodeCursor({ at: at.getTime(), seen: encodeSeen(served) }) : null,
  };
}

/** Keyset position in a newest-first list: publish time (ms) and id of the last video served. */
export const chronoCursorSchema = v.object({
  p: cursorTime,
  i: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_ID)),
});
export type ChronoCursor = v.InferOutput<typeof chronoCursorSchema>;

/**
 * The keyset condition "after (p, i)" in `publish_at desc, id desc` order. Videos published later than
 * page 1 sort before the cursor, so they never push older ones into a second appearance or out of view.
 */
// publish_at is kept to the millisecond (migration 0008), as a JS Date and the cursor hold it: the cursor is
// exact, and ordering by the bare column lets every list walk videos_public instead of sorting each video.
export const chronoOrder = [desc(t.videos.publishAt), desc(t.videos.id)];

export function afterChrono(cursor: ChronoCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const at = new Date(cursor.p).toISOString();
  return sql`(${t.videos.publishAt}, ${t.videos.id}) < (${at}::timestamptz, ${cursor.i})`;
}

export const chronoCursorOf = (row: VideoRow) => encodeCursor({ p: row.publishAt.getTime(), i: row.id });

/** Rows as the viewer sees them: the public video shape with their own isLiked and isRated. */
export async function presentForViewer(db: Db, storage: MediaStorage, viewer: Viewer, rows: VideoRow[]) {
  return presentVideos(
    db,
    storage,
    rows,
    await viewerFlags(
      db,
      viewer,
      rows.map((r) => r.id),
    ),
  );
}

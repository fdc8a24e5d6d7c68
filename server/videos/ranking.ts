// The home feed's ranking (RANKING): the score as SQL, and the top of it read from a few candidates at
// each end instead of scoring every video. GET /v1/videos and /v1/videos/start/{id} page through it.
import { and, desc, inArray, type SQL, sql } from 'drizzle-orm';
import type { FeedQuery } from '../../src/contract';
import type { Db } from '../db/client';
import type { VideoRow } from '../db/schema';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import { rankedSessionPage, tagsFilter, visibleTo } from './listing';

/**
 * A session is this many videos at most (its cursor stays near 6 KB, well inside URL limits); then links.next
 * is null and the client starts a fresh feed.
 */
export const MAX_SESSION_VIDEOS = 1000;

/** How the home feed ranks, as the API reference states it; rankScore below is its implementation. */
export const RANKING =
  'Ranked against the moment page 1 was served:\n\n' +
  '    engagement = max(1 + 3·likes + 0.25·views + 2·(rating_sum − 3·rating_count), 0.1)\n' +
  '    score      = engagement / (age_hours + 2)^1.5\n\n' +
  'A like weighs as much as 12 views; each rating moves engagement by 2 per star away from the neutral 3 ' +
  '(a 5 adds 4, a 1 takes 4 away). The age term halves a video’s weight in roughly its first 2 hours and ' +
  'keeps decaying, so a fresh clip competes with an old hit; ties go to the newer video.';

/** RANKING's engagement; db/schema.ts indexes this very expression (videos_engagement). */
const ENGAGEMENT = sql`greatest(1 + 3 * ${t.videos.likeCount} + 0.25 * ${t.videos.viewCount} + 2 * (${t.videos.ratingSum} - 3 * ${t.videos.ratingCount}), 0.1)`;

const ageHours = (at: Date) =>
  sql`greatest(extract(epoch from (${at.toISOString()}::timestamptz - ${t.videos.publishAt})) / 3600, 0)`;

/** RANKING, computed against the snapshot time `at` of page 1 so that it does not drift while a session pages. */
export const rankScore = (at: Date): SQL => sql`(${ENGAGEMENT} / power(${ageHours(at)} + 2, 1.5))`;

/**
 * Candidates read from each end (best engaged, newest) beyond the rows a page needs: a few first, since they
 * usually prove the top (fresh clips lead), and more only when they cannot. Each walk of a filtered list (a
 * tag's videos) reads about candidates / the filter's share of the catalogue rows, so the first, short try
 * keeps a tag feed's page as cheap at 100k videos as at 1k.
 */
const CANDIDATES = [20, 100];

/**
 * The best `limit` videos by rankScore without scoring every video: the best-engaged and the newest
 * `limit + CANDIDATES` (two index walks) are ranked, and that top is the true one when its last score beats
 * anything outside them could reach. A video outside both has at most the engagement of the last
 * best-engaged candidate and at least the age of the last newest one, so its score is at most
 * eMax / (ageMin + 2)^1.5. If the top's last score is not above that bound (a catalogue where old hits
 * dominate), more candidates are tried, then every video is scored as before. Same order, same ties as the
 * full ranking.
 */
async function topRanked(db: Db, where: SQL | undefined, at: Date, limit: number): Promise<VideoRow[]> {
  for (const extra of CANDIDATES) {
    const top = await provenTop(db, where, at, limit, limit + extra);
    if (top) return top;
  }
  return db
    .select()
    .from(t.videos)
    .where(where)
    .orderBy(desc(rankScore(at)), desc(t.videos.id))
    .limit(limit);
}

/** topRanked from `m` candidates at each end, or undefined when they cannot prove it is the true top. */
async function provenTop(
  db: Db,
  where: SQL | undefined,
  at: Date,
  limit: number,
  m: number,
): Promise<VideoRow[] | undefined> {
  const [engaged, newest] = await Promise.all([
    db
      .select({ id: t.videos.id, engagement: sql<string>`${ENGAGEMENT}::float8` })
      .from(t.videos)
      .where(where)
      .orderBy(desc(ENGAGEMENT))
      .limit(m),
    db
      .select({ id: t.videos.id, age: sql<string>`${ageHours(at)}::float8` })
      .from(t.videos)
      .where(where)
      .orderBy(desc(t.videos.publishAt))
      .limit(m),
  ]);
  // Fewer than m rows: the filter matched fewer videos than that, and they are all candidates already.
  const ids = [...new Set([...engaged, ...newest].map((r) => r.id))];
  if (ids.length === 0) return [];
  const ranked = await db
    .select({ row: t.videos, score: sql<string>`${rankScore(at)}::float8` })
    .from(t.videos)
    .where(inArray(t.videos.id, ids))
    .orderBy(desc(rankScore(at)), desc(t.videos.id))
    .limit(limit);
  if (engaged.length < m || newest.length < m) return ranked.map((r) => r.row);
  const eMax = Number(engaged.at(-1)?.engagement);
  const ageMin = Number(newest.at(-1)?.age);
  const bound = eMax / (ageMin + 2) ** 1.5;
  const last = Number(ranked.at(-1)?.score);
  // A margin against float rounding: when in doubt, more candidates or the full ranking decide.
  return ranked.length === limit && last > bound * (1 + 1e-9) ? ranked.map((r) => r.row) : undefined;
}

/** One page of the home feed: `skip` rows are read past for a page asked for by number without a cursor. */
export function homeFeedPage(
  db: Db,
  viewer: Viewer,
  query: FeedQuery,
  perPage: number,
  skip: number,
  exclude: number[] = [],
) {
  return rankedSessionPage(query, {
    perPage,
    max: MAX_SESSION_VIDEOS,
    skip,
    exclude,
    rank: ({ at, filters, limit }) =>
      topRanked(db, and(...visibleTo(viewer, query.gender), tagsFilter(query.tags), ...filters), at, limit),
  });
}

// The home feed (ranked) and "start from this video" (the same feed with one video in front).
import { and, desc, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { type FeedQuery, feedQuerySchema, messages } from '../../src/contract';
import { canManageCreator } from '../auth/permissions';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../http/errors';
import { dbId } from '../http/params';
import { parse } from '../http/validate';
import { requireUser, type Viewer, viewerOf } from '../http/viewer';
import { cleanupVideo, VIDEO_CLEANUP_QUEUE } from '../media/cleanup';
import {
  decodeCursor,
  encodeCursor,
  invalidCursor,
  MAX_ID,
  nextLink,
  opensList,
  pageOffset,
  presentForViewer,
  tagsFilter,
  type VideoRow,
  visibleTo,
} from './listing';

const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 50;
/**
 * A session is this many videos at most (its cursor stays near 6 KB, well inside URL limits); then links.next
 * is null and the client starts a fresh feed.
 */
export const MAX_SESSION_VIDEOS = 1000;

/**
 * Home feed rank, computed against the snapshot time `at` of page 1 (so it does not drift while a
 * session pages):
 *
 *   engagement = max(1 + 3·likes + 0.25·views + 2·(rating_sum − 3·rating_count), 0.1)
 *   score      = engagement / (age_hours + 2)^1.5
 *
 * A like weighs as much as 12 views; each rating moves engagement by 2 per star away from the neutral 3
 * (a 5 adds 4, a 1 takes 4 away). The age term halves a video's weight in roughly its first 2 hours and
 * keeps decaying, so a fresh clip competes with an old hit; ties go to the newer id.
 */
export const rankScore = (at: Date): SQL => sql`(
  greatest(1 + 3 * ${t.videos.likeCount} + 0.25 * ${t.videos.viewCount}
    + 2 * (${t.videos.ratingSum} - 3 * ${t.videos.ratingCount}), 0.1)
  / power(greatest(extract(epoch from (${at.toISOString()}::timestamptz - ${t.videos.publishAt})) / 3600, 0) + 2, 1.5)
)`;

/**
 * The feed cursor carries the snapshot time and every id served so far (sorted, delta-encoded in base 36).
 * Each page is the best-ranked videos not yet served, among those published by the snapshot: counters
 * that move between pages can reorder what is left, but nothing is ever served twice or skipped, and
 * videos published after page 1 wait for the next session.
 */
const rankCursorSchema = v.object({
  at: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8.64e15)),
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

interface RankedPage {
  rows: VideoRow[];
  cursor: string | null;
}

/**
 * `skip` is the rows before a page asked for by number without a cursor: an offset into a fresh snapshot,
 * and they count as served, so links.next goes on after them.
 */
async function rankedPage(
  db: Db,
  viewer: Viewer,
  query: FeedQuery,
  perPage: number,
  exclude: number[] = [],
  skip = 0,
): Promise<RankedPage> {
  const state = decodeCursor(rankCursorSchema, query.cursor);
  // The database keeps microseconds, JS milliseconds (truncated): without the +1 a video committed in the same
  // millisecond as page 1 would fall after the snapshot and vanish until the next session.
  const at = state ? new Date(state.at) : new Date(Date.now() + 1);
  const seen = [...(state ? decodeSeen(state.seen) : []), ...exclude];
  if (seen.some((id) => !Number.isSafeInteger(id) || id > MAX_ID)) throw invalidCursor();
  const filters: SQL[] = [
    ...visibleTo(viewer, query.gender),
    sql`${t.videos.publishAt} <= ${at.toISOString()}::timestamptz`,
  ];
  const byTags = tagsFilter(query.tags);
  if (byTags) filters.push(byTags);
  if (seen.length) filters.push(notInArray(t.videos.id, seen));
  if (seen.length + skip >= MAX_SESSION_VIDEOS) return { rows: [], cursor: null };
  const rows = await db
    .select()
    .from(t.videos)
    .where(and(...filters))
    .orderBy(desc(rankScore(at)), desc(t.videos.id))
    .limit(skip + perPage + 1);
  const page = rows.slice(skip, skip + perPage);
  const served = [...seen, ...rows.slice(0, skip + perPage).map((r) => r.id)];
  const more = rows.length > skip + perPage && served.length < MAX_SESSION_VIDEOS;
  return { rows: page, cursor: more ? encodeCursor({ at: at.getTime(), seen: encodeSeen(served) }) : null };
}

export default async function videoRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const answer = async (
    request: FastifyRequest,
    viewer: Viewer,
    rows: VideoRow[],
    cursor: string | null,
  ) => ({
    data: await presentForViewer(db, deps.storage, viewer, rows),
    links: { next: nextLink('/v1/videos', request.query as Record<string, unknown>, cursor) },
  });

  app.get('/v1/videos', async (request) => {
    const query = parse(feedQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const page = await rankedPage(db, viewer, query, perPage, [], pageOffset(query, perPage));
    return answer(request, viewer, page.rows, page.cursor);
  });

  // A shared link or a tapped thumbnail: that video first, then the home feed without it.
  app.get<{ Params: { id: string } }>('/v1/videos/start/:id', async (request) => {
    const query = parse(feedQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const id = dbId(request.params.id) ?? 0;
    const [first] = await db
      .select()
      .from(t.videos)
      .where(and(eq(t.videos.id, id), ...visibleTo(viewer)));
    if (!first) throw notFound(messages.video.notFound);
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const opening = opensList(query);
    const page = await rankedPage(
      db,
      viewer,
      query,
      opening ? perPage - 1 : perPage,
      [first.id],
      pageOffset(query, perPage, 1),
    );
    return answer(request, viewer, opening ? [first, ...page.rows] : page.rows, page.cursor);
  });

  // Spec §7 makes this a GET. The video leaves every list at once (status deleting); the job removes
  // files and row. Without a job queue (some tests, API-only nodes) the cleanup runs inline.
  app.get<{ Params: { id: string } }>('/v1/videos/:id/delete', async (request) => {
    const user = await requireUser(request, deps);
    const id = dbId(request.params.id) ?? 0;
    const [video] = await db.select().from(t.videos).where(eq(t.videos.id, id));
    if (!video) throw notFound(messages.video.notFound);
    if (!(await canManageCreator(db, user, video.userId)))
      throw new HttpError(403, messages.server.forbidden);
    await db.update(t.videos).set({ status: 'deleting', updatedAt: new Date() }).where(eq(t.videos.id, id));
    if (deps.jobs) {
      await deps.jobs.send(
        VIDEO_CLEANUP_QUEUE.name,
        { videoId: id },
        { retryLimit: VIDEO_CLEANUP_QUEUE.retryLimit, singletonKey: `video-cleanup-${id}` },
      );
    } else {
      await cleanupVideo({ db, storage: deps.storage }, id);
    }
    return { message: 'Video deleted successfully', data: { id, status: 'deleting' } };
  });
}

// The home feed (ranked) and "start from this video" (the same feed with one video in front).
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type FeedQuery,
  feedQuerySchema,
  idOf,
  messages,
  type Video,
  type VideoDeleteResponse,
  videoDeleteResponseSchema,
} from '../../src/contract';
import { canManageCreator } from '../auth/permissions';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import {
  ERR,
  invalidList,
  listedVideos,
  type Operation,
  unauthenticated,
  videoNotFound,
  videoPage,
} from '../http/doc';
import { HttpError, notFound } from '../http/errors';
import type { IdParams } from '../http/params';
import { parse } from '../http/validate';
import { requireUser, type Viewer, viewerOf } from '../http/viewer';
import { cleanupVideo, VIDEO_CLEANUP_QUEUE } from '../media/cleanup';
import { contentChanged, memo } from '../videos/freshness';
import {
  nextLink,
  opensList,
  pageOffset,
  presentForViewer,
  rankedSessionPage,
  tagsFilter,
  type VideoRow,
  viewerFlags,
  visibleTo,
  visibleVideo,
} from '../videos/listing';
import { presentVideos } from '../videos/present';

const DEFAULT_PER_PAGE = 10;
/** First pages kept in memory at most (filters × page size × place). */
const FIRST_PAGE_KEYS = 2000;
const anonymous: Viewer = {
  user: undefined,
  guestId: undefined,
  key: undefined,
  country: undefined,
  region: undefined,
};
const MAX_PER_PAGE = 50;
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
function rankedPage(
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

  const sessionRules =
    'The cursor carries the snapshot time and the ids already served; each page is the best-ranked videos ' +
    'not yet served among those published by the snapshot: counters that move between pages may reorder ' +
    'what is left, but a session never sees a video twice and never skips one. New uploads wait for the ' +
    `next session (a fresh page 1). A session ends after ${MAX_SESSION_VIDEOS} videos (\`next\` null). ` +
    `${listedVideos} \`tags\` (ids, comma joined) keeps videos with any of them. ${DEFAULT_PER_PAGE} per ` +
    `page, \`per_page\` up to ${MAX_PER_PAGE}. A client that counts pages itself may send \`page=N\` ` +
    'without a cursor: a fresh snapshot from which the first N-1 pages count as served.';

  const homeDoc: Operation = {
    summary: 'The home feed, ranked',
    auth: 'optional',
    query: feedQuerySchema,
    description: `${RANKING} ${sessionRules}`,
    responses: { 200: videoPage, 422: invalidList },
  };
  // Page 1 is the same for every viewer of a filter and place but for their own isLiked / isRated: it is
  // ranked and presented once per FEED_CACHE_MS per key (sooner when a video is published or deleted here),
  // and each request adds only its viewer's flags. Later pages follow their session's cursor as before.
  const firstPages = memo<{ rows: VideoRow[]; cursor: string | null; videos: Video[] }>(
    db,
    () => deps.config.feedCacheMs,
    FIRST_PAGE_KEYS,
  );
  app.get('/v1/videos', { config: { doc: homeDoc } }, async (request) => {
    const query = parse(feedQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    if (!opensList(query)) {
      const page = await rankedPage(db, viewer, query, perPage, pageOffset(query, perPage));
      return answer(request, viewer, page.rows, page.cursor);
    }
    const place = { country: viewer.country, region: viewer.region };
    const key = `${query.gender ?? ''}|${query.tags ?? ''}|${perPage}|${place.country ?? ''}|${place.region ?? ''}`;
    const first = await firstPages(key, async () => {
      const page = await rankedPage(db, { ...anonymous, ...place }, query, perPage, 0);
      return { ...page, videos: await presentVideos(db, deps.storage, page.rows) };
    });
    const flags = viewer.key
      ? await viewerFlags(
          db,
          viewer,
          first.rows.map((r) => r.id),
        )
      : undefined;
    return {
      data: flags
        ? first.videos.map((video) => ({
            ...video,
            isLiked: flags.liked.has(video.id),
            isRated: flags.rated.has(video.id),
          }))
        : first.videos,
      links: { next: nextLink('/v1/videos', request.query as Record<string, unknown>, first.cursor) },
    };
  });

  const startDoc: Operation = {
    summary: 'The home feed opening on one video',
    auth: 'optional',
    query: feedQuerySchema,
    description:
      'For a shared link or a tapped thumbnail: that video first, then the home feed without it, ranked as ' +
      `GET /v1/videos describes. ${sessionRules}`,
    responses: { 200: videoPage, 404: videoNotFound, 422: invalidList },
  };
  // A shared link or a tapped thumbnail: that video first, then the home feed without it.
  app.get<IdParams>('/v1/videos/start/:id', { config: { doc: startDoc } }, async (request) => {
    const query = parse(feedQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const first = await visibleVideo(db, viewer, idOf(request.params.id) ?? 0);
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const opening = opensList(query);
    const page = await rankedPage(
      db,
      viewer,
      query,
      opening ? perPage - 1 : perPage,
      pageOffset(query, perPage, 1),
      [first.id],
    );
    return answer(request, viewer, opening ? [first, ...page.rows] : page.rows, page.cursor);
  });

  const deleteDoc: Operation = {
    summary: 'Delete a video (a GET, as the spec has it)',
    auth: 'required',
    description:
      'The owner or a manager of the owner’s studio. The status becomes `deleting`, which hides the video ' +
      'everywhere at once; a job then removes its media and the row. Asking again meanwhile answers the same.',
    responses: {
      200: {
        description: "`{message, data: {id, status: 'deleting'}}`.",
        schema: videoDeleteResponseSchema,
      },
      401: unauthenticated,
      403: { description: 'Neither the owner nor a manager of their studio.', ...ERR },
      404: { description: 'No such video (or it is already gone).', ...ERR },
    },
  };
  // Spec §7 makes this a GET. The video leaves every list at once (status deleting); the job removes
  // files and row. Without a job queue (some tests, API-only nodes) the cleanup runs inline.
  app.get<IdParams>('/v1/videos/:id/delete', { config: { doc: deleteDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    const id = idOf(request.params.id) ?? 0;
    const [video] = await db.select().from(t.videos).where(eq(t.videos.id, id));
    if (!video) throw notFound(messages.video.notFound);
    if (!(await canManageCreator(db, user, video.userId)))
      throw new HttpError(403, messages.server.forbidden);
    await db.update(t.videos).set({ status: 'deleting', updatedAt: new Date() }).where(eq(t.videos.id, id));
    contentChanged(db);
    if (deps.jobs) {
      await deps.jobs.send(
        VIDEO_CLEANUP_QUEUE.name,
        { videoId: id },
        { retryLimit: VIDEO_CLEANUP_QUEUE.retryLimit, singletonKey: `video-cleanup-${id}` },
      );
    } else {
      await cleanupVideo({ db, storage: deps.storage }, id);
    }
    const answer: VideoDeleteResponse = {
      message: messages.profile.videoDeleted,
      data: { id, status: 'deleting' },
    };
    return answer;
  });
}

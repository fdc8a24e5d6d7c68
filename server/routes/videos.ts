// The home feed (ranked) and "start from this video" (the same feed with one video in front).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  feedQuerySchema,
  idOf,
  messages,
  type VideoDeleteResponse,
  videoDeleteResponseSchema,
} from '../../src/contract';
import { canManageCreator } from '../auth/permissions';
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
import { requireUser, viewerOf } from '../http/viewer';
import { cleanupVideo, VIDEO_CLEANUP_QUEUE } from '../media/cleanup';
import { contentChanged } from '../videos/freshness';
import { type FeedPage, homeFeed } from '../videos/home-feed';
import { nextLink } from '../videos/listing';
import * as q from '../videos/queries';
import { MAX_SESSION_VIDEOS, RANKING } from '../videos/ranking';

const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 50;

export default async function videoRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

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
  // Every page is ranked once per FEED_CACHE_MS for every viewer of a filter and place (videos/home-feed.ts).
  const feed = homeFeed({ db, storage: deps.storage, config: deps.config });
  const answer = (request: FastifyRequest, page: FeedPage) => ({
    data: page.videos,
    links: { next: nextLink('/v1/videos', request.query as Record<string, unknown>, page.cursor) },
  });
  app.get('/v1/videos', { config: { doc: homeDoc } }, async (request) => {
    const query = parse(feedQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    return answer(request, await feed.page(viewer, query, perPage));
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
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    return answer(request, await feed.startingAt(viewer, idOf(request.params.id) ?? 0, query, perPage));
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
    const video = await q.videoById(db, id);
    if (!video) throw notFound(messages.video.notFound);
    if (!(await canManageCreator(db, user, video.userId)))
      throw new HttpError(403, messages.server.forbidden);
    await q.markDeleting(db, id);
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

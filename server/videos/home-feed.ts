// The home feed's pages as every viewer of a filter and place gets them. What the ranking shows depends on
// the filter (gender, tags, page size), the viewer's place (geo-blocks) and the session's cursor, never on who
// asks, except for each viewer's own isLiked / isRated. So each page is ranked and presented once per
// FEED_CACHE_MS per key (sooner when a video is published or deleted: freshness.ts), and each request adds
// only its viewer's flags.
//
// Why every page and not only page 1: a session's cursor is built from its page 1, and page 1 is the same
// for everyone within the period, so the crowd behind page 1 asks for the same page 2, 3... with the same
// cursors. Ranked afresh each time, page 2 and a shared link (/v1/videos/start/{id}) cost some 13 ms of
// database time each: 77 and 112 req/s at 50 connections on PGlite, p99 over 6 s (issue 34).
import type { FeedQuery, Video } from '../../src/contract';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { VideoRow } from '../db/schema';
import type { Viewer } from '../http/viewer';
import type { MediaStorage } from '../media/storage';
import { memo } from './freshness';
import { continueSession, opensList, pageOffset, viewerFlags, visibleVideo } from './listing';
import { presentVideos } from './present';
import { homeFeedPage } from './ranking';

/** Pages kept in memory at most (filters × page size × place × session position), the oldest going first. */
const PAGE_KEYS = 2000;
/** Videos a shared link opens on, kept per place. */
const START_KEYS = 2000;

export interface FeedPage {
  videos: Video[];
  cursor: string | null;
}

interface RankedPage {
  rows: VideoRow[];
  cursor: string | null;
  videos: Video[];
}

const anonymousAt = (viewer: Viewer): Viewer => ({
  user: undefined,
  guestId: undefined,
  key: undefined,
  country: viewer.country,
  region: viewer.region,
});

export function homeFeed(deps: { db: Db; storage: MediaStorage; config: Pick<Config, 'feedCacheMs'> }) {
  const { db, storage } = deps;
  const ttl = () => deps.config.feedCacheMs;
  const pages = memo<RankedPage>(db, ttl, PAGE_KEYS);
  const starts = memo<Video>(db, ttl, START_KEYS);

  /** The key of what a page depends on but the viewer: the filter, the place, where in the session. */
  const keyOf = (viewer: Viewer, query: FeedQuery, perPage: number, extra = '') =>
    [
      query.gender ?? '',
      query.tags ?? '',
      perPage,
      viewer.country ?? '',
      viewer.region ?? '',
      query.page ?? '',
      query.cursor ?? '',
      extra,
    ].join('|');

  const ranked = (
    viewer: Viewer,
    query: FeedQuery,
    perPage: number,
    skip: number,
    exclude: number[] = [],
    extra = '',
  ) =>
    pages(keyOf(viewer, query, perPage, extra), async () => {
      const page = await homeFeedPage(db, anonymousAt(viewer), query, perPage, skip, exclude);
      return { ...page, videos: await presentVideos(db, storage, page.rows) };
    });

  /** The viewer's own flags over a page presented for everyone. */
  const forViewer = async (viewer: Viewer, videos: Video[]): Promise<Video[]> => {
    if (!viewer.key && !viewer.user) return videos;
    const flags = await viewerFlags(
      db,
      viewer,
      videos.map((video) => video.id),
    );
    return videos.map((video) => ({
      ...video,
      isLiked: flags.liked.has(video.id),
      isRated: flags.rated.has(video.id),
    }));
  };

  /** A video as this place may see it, else the 404 of visibleVideo. */
  const startVideo = (viewer: Viewer, id: number) =>
    starts(`${id}|${viewer.country ?? ''}|${viewer.region ?? ''}`, async () => {
      const row = await visibleVideo(db, anonymousAt(viewer), id);
      const [video] = await presentVideos(db, storage, [row]);
      if (!video) throw new Error(`video ${id} was not presented`);
      return video;
    });

  return {
    /** GET /v1/videos: a page of the ranked home feed. */
    async page(viewer: Viewer, query: FeedQuery, perPage: number): Promise<FeedPage> {
      const page = await ranked(viewer, query, perPage, pageOffset(query, perPage));
      return { videos: await forViewer(viewer, page.videos), cursor: page.cursor };
    },

    /** GET /v1/videos/start/{id}: that video first, then the home feed without it. */
    async startingAt(viewer: Viewer, id: number, query: FeedQuery, perPage: number): Promise<FeedPage> {
      const first = await startVideo(viewer, id);
      if (!opensList(query)) {
        const page = await ranked(viewer, query, perPage, pageOffset(query, perPage, 1), [id], `start ${id}`);
        return { videos: await forViewer(viewer, page.videos), cursor: page.cursor };
      }
      // The opening page is page 1 without that video: read from page 1 itself, shared by every link and by
      // the home feed, instead of a ranking per video. Page 1's `perPage` best hold the `perPage - 1` best
      // but this one; its cursor says more follow, and the session goes on from page 1's snapshot with both
      // served. A catalogue of one page only is ranked as asked (its cursor cannot say whether one is left).
      const top = await ranked(viewer, { ...query, page: undefined, cursor: undefined }, perPage, 0);
      if (!top.cursor) {
        const page = await ranked(viewer, query, perPage - 1, 0, [id], `start ${id}`);
        return { videos: await forViewer(viewer, [first, ...page.videos]), cursor: page.cursor };
      }
      const rest = top.videos.filter((video) => video.id !== id).slice(0, perPage - 1);
      const cursor = continueSession(top.cursor, [id, ...rest.map((video) => video.id)]);
      return { videos: await forViewer(viewer, [first, ...rest]), cursor };
    },
  };
}

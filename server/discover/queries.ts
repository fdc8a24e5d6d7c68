// The SQL of the discover page: its creators, its ranked video groups (also the groups' own feeds) and the
// cam sites.
import { and, asc, desc, eq, exists, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { DiscoverResponse } from '../../src/contract';
import type { Db } from '../db/client';
import type { VideoRow } from '../db/schema';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import { visibleTo } from '../videos/listing';
import { activeUser, notGeoBlocked, publicVideo } from '../videos/visibility';

export type DiscoverGroup = keyof DiscoverResponse['videos'];
export type CreatorRow = typeof t.users.$inferSelect;

/**
 * One ranked group of the discover page: weekly groups by the likes / views of the last 7 days, all-time
 * groups by all of them, each a counter on the video row (weekly ones: server/videos/weekly.ts), so the top
 * of a group is a walk down its index. Shared by GET /v1/discover (first 10) and the group's own feed, which
 * pages through the same order (/v1/discover/category/{group slug}/videos) and adds its session's `filters`.
 */
export async function rankedVideos(
  db: Db,
  viewer: Viewer,
  gender: string | undefined,
  group: DiscoverGroup,
  opts: { limit: number; filters?: SQL[] },
): Promise<VideoRow[]> {
  const counter = {
    liked_weekly: t.videos.weekLikeCount,
    viewed_weekly: t.videos.weekViewCount,
    liked_all_time: t.videos.likeCount,
    viewed_all_time: t.videos.viewCount,
  }[group];
  return db
    .select()
    .from(t.videos)
    .where(and(...visibleTo(viewer, gender), ...(opts.filters ?? []), gt(counter, 0)))
    .orderBy(desc(counter), desc(t.videos.id))
    .limit(opts.limit);
}

/**
 * Models and channels that show to this viewer, of these genders (all without). The first two are the
 * predicate of users_creators_newest (db/schema.ts), which latestCreators walks: the planner must be able to
 * see that they imply it.
 */
function creatorFilters(viewer: Viewer, genders: ('m' | 't')[] | undefined): SQL[] {
  const filters: SQL[] = [
    inArray(t.users.type, ['model', 'channel']),
    activeUser(),
    notGeoBlocked(viewer, t.users.id),
  ];
  if (genders) filters.push(inArray(t.users.gender, genders));
  return filters;
}

/** Creators on air, by name. */
export function liveCreators(
  db: Db,
  viewer: Viewer,
  genders: ('m' | 't')[] | undefined,
  limit: number,
): Promise<CreatorRow[]> {
  return db
    .select()
    .from(t.users)
    .where(and(...creatorFilters(viewer, genders), eq(t.users.isLive, true)))
    .orderBy(asc(t.users.name), asc(t.users.id))
    .limit(limit);
}

/** The newest creators with a public video. */
export function latestCreators(
  db: Db,
  viewer: Viewer,
  genders: ('m' | 't')[] | undefined,
  limit: number,
): Promise<CreatorRow[]> {
  const hasPublicVideo = exists(
    db
      .select({ one: sql`1` })
      .from(t.videos)
      .where(and(eq(t.videos.userId, t.users.id), publicVideo())),
  );
  return db
    .select()
    .from(t.users)
    .where(and(...creatorFilters(viewer, genders), hasPublicVideo))
    .orderBy(desc(t.users.createdAt), desc(t.users.id))
    .limit(limit);
}

export function webcamSites(db: Db) {
  return db.select().from(t.webcamSites).orderBy(asc(t.webcamSites.position), asc(t.webcamSites.id));
}

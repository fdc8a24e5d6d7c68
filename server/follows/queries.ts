// The SQL of follows and of what a logged-in user collects: followed creators and liked videos. Creators
// who geo-block the viewer, suspended accounts and videos no longer public are left out here, by the rules
// of server/videos/visibility.ts.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import { activeUser, notGeoBlocked, publicVideo } from '../videos/visibility';

/** An account the viewer may follow (or unfollow), if it shows to them; whether it is a creator is theirs to check. */
export async function followTarget(
  db: Db,
  id: number,
  viewer: Viewer,
): Promise<{ id: number; type: 'user' | 'model' | 'channel' } | undefined> {
  const [target] = await db
    .select({ id: t.users.id, type: t.users.type })
    .from(t.users)
    .where(and(eq(t.users.id, id), activeUser(), notGeoBlocked(viewer, t.users.id)));
  return target;
}

/** True only when a follow was created, false when it already existed. */
export async function follow(db: Db, followerId: number, modelId: number): Promise<boolean> {
  const rows = await db
    .insert(t.follows)
    .values({ followerId, modelId })
    .onConflictDoNothing()
    .returning({ id: t.follows.modelId });
  return rows.length > 0;
}

export async function unfollow(db: Db, followerId: number, modelId: number) {
  await db.delete(t.follows).where(and(eq(t.follows.followerId, followerId), eq(t.follows.modelId, modelId)));
}

export async function followerCount(db: Db, modelId: number): Promise<number> {
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(t.follows)
    .where(eq(t.follows.modelId, modelId));
  return count?.n ?? 0;
}

export async function isFollowing(db: Db, followerId: number, modelId: number): Promise<boolean> {
  const rows = await db
    .select({ id: t.follows.modelId })
    .from(t.follows)
    .where(and(eq(t.follows.followerId, followerId), eq(t.follows.modelId, modelId)));
  return rows.length > 0;
}

/** The creators `userId` follows, live first, then latest follow first. */
export async function followedCreators(db: Db, userId: number, viewer: Viewer) {
  return db
    .select({
      id: t.users.id,
      slug: t.users.slug,
      name: t.users.name,
      avatarPath: t.users.avatarPath,
      isLive: t.users.isLive,
    })
    .from(t.follows)
    .innerJoin(t.users, eq(t.users.id, t.follows.modelId))
    .where(and(eq(t.follows.followerId, userId), activeUser(), notGeoBlocked(viewer, t.users.id)))
    .orderBy(desc(t.users.isLive), desc(t.follows.createdAt), desc(t.users.id));
}

/** Public videos `userId` liked, newest like first: `limit` of them after the first `offset`. */
export async function likedVideos(
  db: Db,
  userId: number,
  viewer: Viewer,
  page: { limit: number; offset: number },
) {
  const rows = await db
    .select({ video: t.videos })
    .from(t.videoLikes)
    .innerJoin(t.videos, eq(t.videos.id, t.videoLikes.videoId))
    .where(
      and(eq(t.videoLikes.viewerKey, `u:${userId}`), publicVideo(), notGeoBlocked(viewer, t.videos.userId)),
    )
    .orderBy(desc(t.videoLikes.createdAt), desc(t.videos.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => r.video);
}

// The SQL of public profiles: the user a profile URL names, what their page shows, their videos, and the
// creator cards of the channel lists. Suspended accounts, creators who geo-block the viewer and videos not
// public are left out here, by the rules of server/videos/visibility.ts.
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { idOf } from '../../src/contract';
import type { UserRow } from '../auth/tokens';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import { activeUser, notGeoBlocked, publicVideo } from '../videos/visibility';

type Page = { limit: number; offset: number };

/** The user a numeric id or a slug (any case) names, unless suspended or geo-blocking the viewer. */
export async function visibleUser(db: Db, key: string, viewer: Viewer): Promise<UserRow | undefined> {
  // Digits within the id range name an id; anything else (a username of digits too) a slug.
  const id = idOf(key);
  const where = id !== undefined ? eq(t.users.id, id) : sql`lower(${t.users.slug}) = lower(${key})`;
  const [user] = await db
    .select()
    .from(t.users)
    // A creator travelling in a country they block still sees their own profile.
    .where(
      and(where, activeUser(), or(notGeoBlocked(viewer, t.users.id), eq(t.users.id, viewer.user?.id ?? 0))),
    );
  return user;
}

/** The creator's links in the order they chose. */
export async function linksOf(db: Db, userId: number) {
  return db
    .select()
    .from(t.links)
    .where(eq(t.links.userId, userId))
    .orderBy(asc(t.links.position), asc(t.links.id));
}

export async function contestsOf(db: Db, userId: number) {
  return db.select().from(t.contests).where(eq(t.contests.userId, userId)).orderBy(asc(t.contests.id));
}

/** Likes and views summed over the creator's public videos. */
export async function publicTotals(db: Db, userId: number): Promise<{ likes: number; views: number }> {
  const [totals] = await db
    .select({
      likes: sql<number>`coalesce(sum(${t.videos.likeCount}), 0)::int`,
      views: sql<number>`coalesce(sum(${t.videos.viewCount}), 0)::int`,
    })
    .from(t.videos)
    .where(and(eq(t.videos.userId, userId), publicVideo()));
  return { likes: totals?.likes ?? 0, views: totals?.views ?? 0 };
}

/**
 * A creator's videos, newest first: with `everyStatus` (for the creator and their studio's managers) every
 * status and the scheduled ones too, otherwise what any feed would show.
 */
export async function creatorVideos(db: Db, userId: number, everyStatus: boolean, page: Page) {
  const filters: SQL[] = [eq(t.videos.userId, userId)];
  if (!everyStatus) filters.push(publicVideo());
  return db
    .select()
    .from(t.videos)
    .where(and(...filters))
    .orderBy(desc(t.videos.publishAt), desc(t.videos.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** Video flags for the viewer, limited to the page being shown. */
export async function likedAmong(db: Db, viewer: Viewer, ids: number[]): Promise<Set<number>> {
  if (!viewer.key || ids.length === 0) return new Set();
  const rows = await db
    .select({ id: t.videoLikes.videoId })
    .from(t.videoLikes)
    .where(and(eq(t.videoLikes.viewerKey, viewer.key), inArray(t.videoLikes.videoId, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Creators of one type (and of the given genders, if any) the viewer may see, live first, then by name. */
export async function creatorCards(
  db: Db,
  filter: { type: UserRow['type']; genders: ('m' | 't')[] | undefined },
  viewer: Viewer,
  page: Page,
) {
  const filters: SQL[] = [eq(t.users.type, filter.type), activeUser(), notGeoBlocked(viewer, t.users.id)];
  if (filter.genders) filters.push(inArray(t.users.gender, filter.genders));
  return db
    .select()
    .from(t.users)
    .where(and(...filters))
    .orderBy(desc(t.users.isLive), asc(t.users.name), asc(t.users.id))
    .limit(page.limit)
    .offset(page.offset);
}

// Rows → the shapes of src/contract. One function per entity so every route answers the same fields.
import { eq, inArray, sql } from 'drizzle-orm';
import type { CreatorCard, Link, PublicUser, Video } from '../../src/contract';
import type { Db } from '../db/client';
import type { VideoRow } from '../db/schema';
import * as t from '../db/schema';
import type { MediaStorage } from '../media/storage';

type UserRow = typeof t.users.$inferSelect;
type LiveLink = { id: number; name: string; url: string };

export interface ViewerFlags {
  liked: Set<number>;
  rated: Set<number>;
  /** Videos the viewer may manage (canManageCreator): they alone are told why a video failed. */
  managed?: ReadonlySet<number>;
}

const noFlags: ViewerFlags = { liked: new Set(), rated: new Set() };

/** Loads authors and tags of a page of videos in two queries, whatever the page size. */
export async function presentVideos(
  db: Db,
  storage: MediaStorage,
  rows: VideoRow[],
  flags: ViewerFlags = noFlags,
): Promise<Video[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const [authors, tagRows] = await Promise.all([
    db
      .select({
        id: t.users.id,
        slug: t.users.slug,
        name: t.users.name,
        avatarPath: t.users.avatarPath,
        isLive: t.users.isLive,
        // Only creators on air have a live link worth showing: the first marked live, in their own order.
        liveLink: sql<LiveLink | null>`case when ${t.users.isLive} then (
          select json_build_object('id', l.id, 'name', l.name, 'url', l.url) from ${t.links} l
          where l.user_id = ${t.users}.id and l.is_live order by l.position, l.id limit 1) end`,
      })
      .from(t.users)
      .where(inArray(t.users.id, userIds)),
    db
      .select({
        videoId: t.videoTags.videoId,
        position: t.videoTags.position,
        id: t.tags.id,
        name: t.tags.name,
        slug: t.tags.slug,
      })
      .from(t.videoTags)
      .innerJoin(t.tags, eq(t.tags.id, t.videoTags.tagId))
      .where(inArray(t.videoTags.videoId, ids)),
  ]);
  const authorById = new Map(authors.map((a) => [a.id, a]));
  const tagsByVideo = new Map<number, { id: number; name: string; slug: string; position: number }[]>();
  for (const tag of tagRows) {
    const list = tagsByVideo.get(tag.videoId) ?? [];
    list.push(tag);
    tagsByVideo.set(tag.videoId, list);
  }
  return rows.map((row) => {
    const author = authorById.get(row.userId);
    const tags = (tagsByVideo.get(row.id) ?? []).sort((a, b) => a.position - b.position);
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      tags: tags.map(({ id, name, slug }) => ({ id, name, slug })),
      user: {
        id: row.userId,
        slug: author?.slug ?? '',
        name: author?.name ?? '',
        avatar: storage.url(author?.avatarPath),
        isLive: author?.isLive ? 1 : 0,
        liveLink: author?.liveLink ?? null,
      },
      userId: row.userId,
      thumbnailUrl: storage.url(row.thumbnailPath),
      tileUrl: storage.url(row.tilePath),
      duration: Math.round(row.durationSeconds),
      viewCount: row.viewCount,
      likeCount: row.likeCount,
      isLiked: flags.liked.has(row.id),
      isRated: flags.rated.has(row.id),
      isVertical: row.isVertical,
      status: row.status,
      ...(flags.managed?.has(row.id)
        ? { statusReason: row.statusReason, inReview: row.review === 'held' && row.status === 'approved' }
        : {}),
      playlistUrl: storage.url(row.playlistPath),
      redirectToTag: row.redirectToTag,
    };
  });
}

/** A profile link as every answer shows it: flags as 0/1, like the rest of the API. */
export const presentLink = (l: typeof t.links.$inferSelect): Link => ({
  id: l.id,
  url: l.url,
  name: l.name,
  icon: l.icon,
  isLive: l.isLive ? 1 : 0,
  isImportant: l.isImportant ? 1 : 0,
});

export function presentUser(
  storage: MediaStorage,
  user: UserRow,
  extra: Pick<
    PublicUser,
    'links' | 'contests' | 'totalLikes' | 'totalVideoViews' | 'totalFollowers' | 'isFollowing'
  >,
): PublicUser {
  return { ...userFields(storage, user), ...extra };
}

/** What a user's public profile and their own profile both show of the account. */
export const userFields = (storage: MediaStorage, user: UserRow) => ({
  id: user.id,
  type: user.type,
  name: user.name,
  slug: user.slug,
  username: user.username,
  avatar: storage.url(user.avatarPath),
  cover: storage.url(user.coverPath),
  description: user.description,
  color: user.color,
  gender: user.gender,
  isLive: user.isLive ? (1 as const) : (0 as const),
  isVerified: user.verificationStatus,
});

/** A creator as discover and search list them. */
export const presentCreatorCard = (storage: MediaStorage, u: UserRow): CreatorCard => ({
  id: u.id,
  slug: u.slug,
  name: u.name,
  avatar: storage.url(u.avatarPath),
  isLive: u.isLive ? 1 : 0,
  type: u.type === 'channel' ? 'channel' : 'model',
});

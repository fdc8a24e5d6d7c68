// Rows → the shapes of src/contract. One function per entity so every route answers the same fields.
import { and, eq, inArray } from 'drizzle-orm';
import type { PublicUser, Video } from '../../src/contract';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { MediaStorage } from '../media/storage';

type VideoRow = typeof t.videos.$inferSelect;
type UserRow = typeof t.users.$inferSelect;

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
  // Only creators on air have a live link worth showing; first by their own order.
  const liveAuthors = authors.filter((a) => a.isLive).map((a) => a.id);
  const liveLinks =
    liveAuthors.length === 0
      ? []
      : await db
          .select({ id: t.links.id, userId: t.links.userId, name: t.links.name, url: t.links.url })
          .from(t.links)
          .where(and(inArray(t.links.userId, liveAuthors), eq(t.links.isLive, true)))
          .orderBy(t.links.position, t.links.id);
  const liveLinkOf = new Map<number, { id: number; name: string; url: string }>();
  for (const { userId, ...link } of liveLinks) if (!liveLinkOf.has(userId)) liveLinkOf.set(userId, link);
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
        liveLink: author?.isLive ? (liveLinkOf.get(row.userId) ?? null) : null,
      },
      userId: row.userId,
      thumbnailUrl: storage.url(row.thumbnailPath),
      duration: Math.round(row.durationSeconds),
      viewCount: row.viewCount,
      likeCount: row.likeCount,
      isLiked: flags.liked.has(row.id),
      isRated: flags.rated.has(row.id),
      isVertical: row.isVertical,
      status: row.status,
      ...(flags.managed?.has(row.id) ? { statusReason: row.statusReason } : {}),
      playlistUrl: storage.url(row.playlistPath),
      redirectToTag: row.redirectToTag,
    };
  });
}

export function presentUser(
  storage: MediaStorage,
  user: UserRow,
  extra: Pick<
    PublicUser,
    'links' | 'contests' | 'totalLikes' | 'totalVideoViews' | 'totalFollowers' | 'isFollowing'
  >,
): PublicUser {
  return {
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
    isLive: user.isLive ? 1 : 0,
    isVerified: user.verificationStatus,
    ...extra,
  };
}

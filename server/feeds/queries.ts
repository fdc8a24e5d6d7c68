// The SQL of the newest-first lists (tag, category, cam site, sidebar, rating) and of the tag lists. Both
// page by keyset: (publish time, id) for videos, (lower(name), id) for tags.
import { and, asc, eq, exists, not, notExists, type SQL, sql } from 'drizzle-orm';
import { managedBy } from '../auth/permissions';
import type { Db } from '../db/client';
import { containing } from '../db/like';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import {
  afterChrono,
  type ChronoCursor,
  chronoOrder,
  tagHasVisibleVideo,
  type VideoRow,
  visibleTo,
} from '../videos/listing';

/** A condition on videos that narrows a newest-first list (a tag's, a category's…). */
export type VideoFilter = SQL;

/** A tag, category or cam site as a path names it: its id, or its slug (looked up in lower case). */
export type Ref = { id: number } | { slug: string };

export async function tagByRef(db: Db, ref: Ref) {
  const [tag] = await db
    .select()
    .from(t.tags)
    .where('id' in ref ? eq(t.tags.id, ref.id) : eq(t.tags.slug, ref.slug.toLowerCase()));
  return tag;
}

export async function categoryByRef(db: Db, ref: Ref) {
  const [category] = await db
    .select()
    .from(t.categories)
    .where('id' in ref ? eq(t.categories.id, ref.id) : eq(t.categories.slug, ref.slug.toLowerCase()));
  return category;
}

export async function webcamSiteByRef(db: Db, ref: Ref) {
  const [site] = await db
    .select()
    .from(t.webcamSites)
    .where('id' in ref ? eq(t.webcamSites.id, ref.id) : eq(t.webcamSites.slug, ref.slug.toLowerCase()));
  return site;
}

export const withTag = (db: Db, tagId: number): VideoFilter =>
  exists(
    db
      .select({ one: sql`1` })
      .from(t.videoTags)
      .where(and(eq(t.videoTags.videoId, t.videos.id), eq(t.videoTags.tagId, tagId))),
  );

export const inCategory = (db: Db, categoryId: number): VideoFilter =>
  exists(
    db
      .select({ one: sql`1` })
      .from(t.videoCategories)
      .where(and(eq(t.videoCategories.videoId, t.videos.id), eq(t.videoCategories.categoryId, categoryId))),
  );

/** Videos of creators who are on the cam site. */
export const onSite = (db: Db, siteId: number): VideoFilter =>
  exists(
    db
      .select({ one: sql`1` })
      .from(t.creatorWebcamSites)
      .where(and(eq(t.creatorWebcamSites.userId, t.videos.userId), eq(t.creatorWebcamSites.siteId, siteId))),
  );

const ratedBy = (db: Db, viewer: Viewer) =>
  db
    .select({ one: sql`1` })
    .from(t.videoRatings)
    .where(and(eq(t.videoRatings.videoId, t.videos.id), eq(t.videoRatings.userId, viewer.user?.id ?? 0)));

// "Rated" means rated by this user; guests have rated nothing, so every video is unrated for them.
// Unrated is what the user may still rate: their own videos and their studio's are a 403, so they stay out.
export const unratedBy = (db: Db, viewer: Viewer): VideoFilter[] =>
  viewer.user ? [notExists(ratedBy(db, viewer)), not(managedBy(viewer.user, t.videos.userId))] : [];

export const ratedByViewer = (db: Db, viewer: Viewer): VideoFilter[] =>
  viewer.user ? [exists(ratedBy(db, viewer))] : [sql`false`];

/**
 * Up to `limit` videos this viewer may see, newest first, under `filters`, after the keyset position
 * `after`, without the video `exclude` (one put in front of page 1); `offset` rows are read past.
 */
export function newestFirst(
  db: Db,
  viewer: Viewer,
  opts: {
    gender: string | undefined;
    filters: VideoFilter[];
    after: ChronoCursor | undefined;
    exclude: number | undefined;
    limit: number;
    offset: number;
  },
): Promise<VideoRow[]> {
  const filters = [...visibleTo(viewer, opts.gender), ...opts.filters];
  const after = afterChrono(opts.after);
  if (after) filters.push(after);
  if (opts.exclude !== undefined) filters.push(sql`${t.videos.id} <> ${opts.exclude}`);
  return db
    .select()
    .from(t.videos)
    .where(and(...filters))
    .orderBy(...chronoOrder)
    .limit(opts.limit)
    .offset(opts.offset);
}

/**
 * Tags in name order with at least one video this viewer may see (gender, geo-blocking), by keyset on
 * (lower(name), id): up to `limit` after `after`, whose names contain `search` (any case), `offset` read past.
 */
export function tagsInNameOrder(
  db: Db,
  viewer: Viewer,
  opts: {
    gender: string | undefined;
    search: string | undefined;
    after: { n: string; i: number } | undefined;
    limit: number;
    offset: number;
  },
) {
  const filters: SQL[] = [tagHasVisibleVideo(db, viewer, t.tags.id, opts.gender)];
  if (opts.search) {
    filters.push(sql`lower(${t.tags.name}) like ${containing(opts.search.toLowerCase())}`);
  }
  const { after } = opts;
  if (after) filters.push(sql`(lower(${t.tags.name}), ${t.tags.id}) > (${after.n}, ${after.i})`);
  return db
    .select({ id: t.tags.id, name: t.tags.name, slug: t.tags.slug })
    .from(t.tags)
    .where(and(...filters))
    .orderBy(sql`lower(${t.tags.name})`, asc(t.tags.id))
    .limit(opts.limit)
    .offset(opts.offset);
}

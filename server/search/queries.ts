// The SQL of search (POST /v1/discover/search): typo-tolerant matches of creators, tags and video titles,
// and the log of finished searches.
import { type AnyColumn, and, asc, desc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { containing } from '../db/like';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import { tagHasVisibleVideo, visibleTo } from '../videos/listing';
import { activeUser, notGeoBlocked } from '../videos/visibility';

export const SEARCH_LIMIT = 10;
/** Below this, trigram matches are mostly noise; 'lunna' ~ 'luna' scores 0.57, 'beech' ~ 'beach' 0.33. */
export const SIMILARITY = 0.3;

/**
 * Typo-tolerant search: a name matches when it contains the text, or when its trigram similarity to it
 * (whole name, or its best-matching word for titles) is at least SIMILARITY. Best matches first,
 * SEARCH_LIMIT of creators (who do not geo-block the viewer), of tags (with a video the viewer may see) and
 * of public videos.
 */
export async function search(db: Db, viewer: Viewer, text: string) {
  const like = containing(text.toLowerCase());
  const q = text.toLowerCase();
  const matches = (column: AnyColumn) =>
    sql`(lower(${column}) like ${like} or similarity(${column}, ${q}) >= ${SIMILARITY} or word_similarity(${q}, ${column}) >= ${SIMILARITY})`;
  const rank = (column: AnyColumn) =>
    sql`greatest(similarity(${column}, ${q}), word_similarity(${q}, ${column}), case when lower(${column}) like ${like} then 1 else 0 end)`;

  const [users, tags, videos] = await Promise.all([
    db
      .select()
      .from(t.users)
      .where(
        and(
          inArray(t.users.type, ['model', 'channel']),
          activeUser(),
          notGeoBlocked(viewer, t.users.id),
          sql`(${matches(t.users.name)} or ${matches(t.users.username)})`,
        ),
      )
      .orderBy(desc(sql`greatest(${rank(t.users.name)}, ${rank(t.users.username)})`), asc(t.users.id))
      .limit(SEARCH_LIMIT),
    db
      .select({ id: t.tags.id, name: t.tags.name, slug: t.tags.slug })
      .from(t.tags)
      .where(and(matches(t.tags.name), tagHasVisibleVideo(db, viewer, t.tags.id)))
      .orderBy(desc(rank(t.tags.name)), asc(t.tags.id))
      .limit(SEARCH_LIMIT),
    db
      .select()
      .from(t.videos)
      .where(and(...visibleTo(viewer), matches(t.videos.title)))
      .orderBy(desc(rank(t.videos.title)), desc(t.videos.likeCount), desc(t.videos.id))
      .limit(SEARCH_LIMIT),
  ]);
  return { users, tags, videos };
}

/** A search the user finished typing (is_final), with how many matches it had, for analytics. */
export async function logSearch(
  db: Db,
  entry: { query: string; userId: number | null; guestId: string | null; resultCount: number },
) {
  await db.insert(t.searchLog).values(entry);
}

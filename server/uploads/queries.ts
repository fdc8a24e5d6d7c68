// The SQL of uploads: tus sessions (who started which upload, and the video it became) and the details a
// creator sends for an uploaded video.
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { tagSlug } from '../../src/contract';
import type { UploadDetails } from '../../src/contract/upload-details';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { slugify } from '../util/slug';

export type UploadSession = typeof t.uploadSessions.$inferSelect;

export async function insertSession(
  db: Db,
  values: { id: string; userId: number; size: number; metadata: Record<string, string> },
) {
  await db.insert(t.uploadSessions).values(values);
}

/** The session `id` if it is `userId`'s. */
export async function ownSession(db: Db, id: string, userId: number): Promise<UploadSession | undefined> {
  const [session] = await db
    .select()
    .from(t.uploadSessions)
    .where(and(eq(t.uploadSessions.id, id), eq(t.uploadSessions.userId, userId)));
  return session;
}

export async function deleteSession(db: Db, id: string) {
  await db.delete(t.uploadSessions).where(eq(t.uploadSessions.id, id));
}

/** Unfinished sessions older than `before`, whose bytes tus has expired. */
export async function deleteAbandonedSessions(db: Db, before: Date) {
  await db
    .delete(t.uploadSessions)
    .where(and(isNull(t.uploadSessions.completedAt), lt(t.uploadSessions.createdAt, before)));
}

/**
 * Title, tags (created as needed, in the creator's order), nsfw and schedule of a video, in one
 * transaction; sending them again replaces them.
 */
export async function saveDetails(db: Db, videoId: number, input: UploadDetails) {
  const slugs = input.tags.map(tagSlug);
  await db.transaction(async (tx) => {
    await tx
      .update(t.videos)
      .set({
        title: input.title,
        slug: slugify(input.title),
        isNsfw: input.isNsfw,
        uploadTimezone: input.timeZone,
        // Unscheduled: public once processed (or now, if it already is); the job never publishes earlier.
        publishAt: input.publishAt ?? sql`least(${t.videos.publishAt}, now())`,
        updatedAt: new Date(),
      })
      .where(eq(t.videos.id, videoId));
    if (slugs.length) {
      await tx
        .insert(t.tags)
        .values(input.tags.map((name, i) => ({ name, slug: slugs[i] as string })))
        .onConflictDoNothing({ target: t.tags.slug });
    }
    const tags = slugs.length ? await tx.select().from(t.tags).where(inArray(t.tags.slug, slugs)) : [];
    const idOf = new Map(tags.map((tag) => [tag.slug, tag.id]));
    await tx.delete(t.videoTags).where(eq(t.videoTags.videoId, videoId));
    if (slugs.length) {
      await tx
        .insert(t.videoTags)
        .values(slugs.map((slug, position) => ({ videoId, tagId: idOf.get(slug) as number, position })));
    }
  });
}

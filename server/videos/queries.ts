// The SQL of one video as its owner handles it (the lists' SQL is in listing.ts and ranking.ts).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { VideoRow } from '../db/schema';
import * as t from '../db/schema';

/** Undefined for no id: an upload session that has not become a video yet. */
export async function videoById(db: Db, id: number | null | undefined): Promise<VideoRow | undefined> {
  if (!id) return undefined;
  const [video] = await db.select().from(t.videos).where(eq(t.videos.id, id));
  return video;
}

/** Status `deleting` hides the video everywhere at once; the cleanup job then removes its media and row. */
export async function markDeleting(db: Db, id: number) {
  await db.update(t.videos).set({ status: 'deleting', updatedAt: new Date() }).where(eq(t.videos.id, id));
}

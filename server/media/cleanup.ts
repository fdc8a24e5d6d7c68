// Deleting a video: the route marks it `deleting` (it disappears from every list at once), then this job
// removes its media and finally the row. Safe to run again after a crash: every step tolerates "already gone".
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';
import type { QueueSpec } from '../jobs/boss';
import { type MediaStorage, videoMediaDir } from './storage';

export const VIDEO_CLEANUP_QUEUE: QueueSpec = {
  name: 'video-cleanup',
  expireInSeconds: 120,
  retryLimit: 5,
  concurrency: 1,
};

/** Media-relative paths a video may own: its folder, and the folders of its published files. */
export function mediaPathsOf(video: typeof videos.$inferSelect): string[] {
  const paths = new Set<string>([videoMediaDir(video)]);
  for (const file of [video.playlistPath, video.thumbnailPath, video.tilePath]) {
    if (!file) continue;
    // The HLS ladder lives beside its master playlist; the whole folder belongs to the video.
    paths.add(file === video.playlistPath ? path.posix.dirname(file) : file);
  }
  return [...paths].filter((p) => p !== '.' && p !== '' && !p.startsWith('..'));
}

/** Paths under DATA_DIR/private a video owns: the uploaded original (never served) and its folder. */
export function privatePathsOf(video: typeof videos.$inferSelect): string[] {
  const paths = new Set<string>([`originals/${video.id}`]);
  if (video.sourcePath && !video.sourcePath.startsWith('..')) paths.add(video.sourcePath);
  return [...paths];
}

export async function cleanupVideo(deps: { db: Db; storage: MediaStorage }, videoId: number): Promise<void> {
  const [video] = await deps.db.select().from(videos).where(eq(videos.id, videoId));
  // Only a video that is still being deleted is touched: a stale job must never remove a live video.
  if (video?.status !== 'deleting') return;
  for (const relative of mediaPathsOf(video)) await deps.storage.remove(relative);
  for (const relative of privatePathsOf(video)) await deps.storage.removePrivate(relative);
  await deps.db.delete(videos).where(and(eq(videos.id, videoId), eq(videos.status, 'deleting')));
}

// The video row as the media pipeline sees it: the statuses a job may move on from, where the original is
// kept, and the two ways a job ends a video's media early (failed, or deleted under it).
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { videos } from '../../db/schema';
import type { Jobs } from '../../jobs/boss';
import type { MediaInfo } from '../probe';
import type { MediaStorage } from '../storage';

/**
 * publish_at of a video whose creator has not sent the details yet: every public list requires
 * publish_at <= now(), so the upload stays private until the details say when it goes out.
 */
export const UNPUBLISHED_AT = new Date('9999-12-31T00:00:00.000Z');

export interface PipelineDeps {
  db: Db;
  storage: MediaStorage;
  jobs?: Jobs | undefined;
  /** A running job writes its heartbeat every third of this; silence for this long means it died. */
  staleSeconds: number;
  log?: (message: string) => void;
  /** UPLOAD_REVIEW: whether a playable upload waits for an operator out of the lists (default) or in them. */
  uploadReview?: 'before' | 'after' | undefined;
}

export type VideoRow = typeof videos.$inferSelect;
export type Status = VideoRow['status'];

/** A video whose media is still being made: the only statuses a media job may move on from. */
export const UNFINISHED: Status[] = ['uploaded', 'preprocess', 'processing'];

/** In private storage: the original as uploaded, kept for a re-transcode, never served. */
export const originalPath = (videoId: number) => `originals/${videoId}/source`;

export const shapeOf = (info: MediaInfo) => ({
  width: info.width,
  height: info.height,
  isVertical: info.height >= info.width,
  durationSeconds: info.durationSeconds ?? 0,
});

export async function failVideo(db: Db, videoId: number, reason: string) {
  await db
    .update(videos)
    .set({ status: 'error', statusReason: reason, mediaHeartbeatAt: null, updatedAt: new Date() })
    .where(and(eq(videos.id, videoId), inArray(videos.status, UNFINISHED)));
  // A video that already plays keeps what it has: its ladder ends with the renditions published so far.
  await db
    .update(videos)
    .set({ mediaHeartbeatAt: null })
    .where(and(eq(videos.id, videoId), eq(videos.status, 'approved'), isNotNull(videos.mediaHeartbeatAt)));
}

/**
 * For a job whose final update found its video no longer unfinished: if it was deleted meanwhile, the cleanup
 * job may already have run, so the files the job just published are its own to remove.
 */
export async function discardIfDeleted(
  deps: { db: Db; storage: MediaStorage },
  videoId: number,
  dir: string,
) {
  const [current] = await deps.db
    .select({ status: videos.status })
    .from(videos)
    .where(eq(videos.id, videoId));
  if (!current || current.status === 'deleting') await deps.storage.remove(dir);
}

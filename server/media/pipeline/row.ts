// The video row as the media pipeline sees it: its states as SQL, where the original is kept, and the two ways
// a job ends a video's media early (failed, or deleted under it).
import { and, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { videos } from '../../db/schema';
import type { Jobs } from '../../jobs/boss';
import type { MediaInfo } from '../probe';
import type { MediaStorage } from '../storage';
import { type MediaState, movesOf, statusOf } from './machine';

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

/** The rows in any of `states` (machine.ts): the guard of an UPDATE that makes one of the table's moves. */
export function inStates(states: MediaState[]): SQL {
  const plain = states.filter((s) => statusOf(s) !== 'approved').map(statusOf);
  const conditions = [
    ...(plain.length ? [inArray(videos.status, plain)] : []),
    ...(states.includes('building')
      ? [and(eq(videos.status, 'approved'), isNotNull(videos.mediaHeartbeatAt))]
      : []),
    ...(states.includes('published')
      ? [and(eq(videos.status, 'approved'), isNull(videos.mediaHeartbeatAt))]
      : []),
  ];
  const condition = conditions.length > 1 ? or(...conditions) : conditions[0];
  if (!condition) throw new Error('inStates needs at least one state');
  return condition;
}

/** In private storage: the original as uploaded, kept for a re-transcode, never served. */
export const originalPath = (videoId: number) => `originals/${videoId}/source`;

export const shapeOf = (info: MediaInfo) => ({
  width: info.width,
  height: info.height,
  isVertical: info.height >= info.width,
  durationSeconds: info.durationSeconds ?? 0,
});

/** The `fail` event: an unfinished video ends in error; one that already plays keeps what it has. */
export async function failVideo(db: Db, videoId: number, reason: string) {
  for (const { from, to } of movesOf('fail')) {
    await db
      .update(videos)
      .set(
        to === 'error'
          ? { status: 'error', statusReason: reason, mediaHeartbeatAt: null, updatedAt: new Date() }
          : // Published: the ladder ends with the renditions published so far.
            { mediaHeartbeatAt: null },
      )
      .where(and(eq(videos.id, videoId), inStates(from)));
  }
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

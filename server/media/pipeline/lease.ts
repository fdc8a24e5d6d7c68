// One job at a time: the heartbeat is also a lease. A job claims a video only if nobody has written its
// heartbeat for `staleSeconds` (or it was released), so a pg-boss retry of a job that is still running, or a
// sweep's job racing a late original, finds the video taken and ends without touching its folders. A job
// that stops (handing over, or throwing for a retry) releases the lease by writing RELEASED, which still
// marks the video unfinished for the sweep.
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { videos } from '../../db/schema';
import { CLAIM_OF, movesOf, statusOf } from './machine';
import type { Stage } from './queues';
import { inStates, type PipelineDeps } from './row';

/**
 * A heartbeat no job is behind: written by a job that stops (hands over, or throws to be retried), so the
 * next job may claim the video at once. Not null, so an approved video keeps the mark of an unfinished ladder.
 */
export const RELEASED = new Date(0);

/** Nobody holds the video: no heartbeat, a released one, or one silent for `staleSeconds` (a dead worker). */
const leaseFree = (staleSeconds: number) =>
  or(
    isNull(videos.mediaHeartbeatAt),
    sql`${videos.mediaHeartbeatAt} < now() - make_interval(secs => ${staleSeconds})`,
  );

/**
 * Claims the video for a stage (its claim event in machine.ts): only from the states the table allows, only if
 * no live job holds it, counting the attempt. Each move the event allows is one guarded UPDATE, tried in
 * table order until one finds the row.
 */
export async function claimVideo(db: Db, videoId: number, stage: Stage, staleSeconds: number) {
  for (const { from, to } of movesOf(CLAIM_OF[stage])) {
    const now = new Date();
    const [video] = await db
      .update(videos)
      .set({
        // An approved video's row stays as its viewers see it: only the lease and the attempts move.
        ...(statusOf(to) === 'approved' ? {} : { status: statusOf(to), updatedAt: now }),
        mediaAttempts: sql`${videos.mediaAttempts} + 1`,
        mediaHeartbeatAt: now,
      })
      .where(and(eq(videos.id, videoId), inStates(from), leaseFree(staleSeconds)))
      .returning();
    if (video) return video;
  }
  return undefined;
}

/**
 * The lease of the job whose claim counted attempt `attempt` (each claim counts one, so a later claim by
 * another job no longer matches) and that still beats: a finished ladder (no heartbeat) and a lease already
 * released are left as they are.
 */
export const ownLease = (videoId: number, attempt: number) =>
  and(eq(videos.id, videoId), eq(videos.mediaAttempts, attempt), gt(videos.mediaHeartbeatAt, RELEASED));

/** Lets the next job claim the video now. */
export async function releaseLease(db: Db, videoId: number, attempt: number) {
  await db.update(videos).set({ mediaHeartbeatAt: RELEASED }).where(ownLease(videoId, attempt));
}

export function startHeartbeat(deps: PipelineDeps, videoId: number, attempt: number): () => void {
  const timer = setInterval(
    () => {
      deps.db
        .update(videos)
        .set({ mediaHeartbeatAt: new Date() })
        // Never brings back a heartbeat the job cleared (a finished ladder) or released (handed over), nor
        // renews another job's lease: a beat on its way when the job stopped may land after all that.
        .where(ownLease(videoId, attempt))
        .catch((err: Error) => deps.log?.(`heartbeat of video ${videoId} failed: ${err.message}`));
    },
    Math.max(1000, (deps.staleSeconds * 1000) / 3),
  );
  timer.unref();
  return () => clearInterval(timer);
}

// Never stuck: a job that throws is retried by pg-boss; a job whose worker died (crash, kill, power) stops
// writing its heartbeat, and the sweep (at start and every few seconds in every worker process) hands
// the video to a new job. Attempts are counted per video, so a file that kills its worker every time
// ends in error instead of looping.
import { and, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { uploadSessions, videos } from '../../db/schema';
import type { Jobs } from '../../jobs/boss';
import { type MediaState, mediaStateOf, STAGE_OF } from './machine';
import { liveJobsOf, queueOf } from './queues';
import { inStates, type PipelineDeps } from './row';

/**
 * Hands every video that should be moving but is not to a new job: in a state some stage moves on from
 * (`STAGE_OF` in machine.ts: uploaded, preprocess, processing, or approved with its ladder unfinished), no
 * heartbeat (or row change) for `staleSeconds`, and no job waiting for it. A job still marked active for
 * such a video belongs to a dead worker; it is cancelled so that pg-boss does not also retry it on expiry.
 * Returns the ids handed over.
 */
export async function sweepStuckVideos(
  deps: PipelineDeps & { database: Database; jobs: Jobs },
): Promise<number[]> {
  const { database, jobs, staleSeconds } = deps;
  const handed: number[] = [];
  const stuck = await database.db
    .select({ id: videos.id, status: videos.status, mediaHeartbeatAt: videos.mediaHeartbeatAt })
    .from(videos)
    .where(
      and(
        inStates(Object.keys(STAGE_OF) as MediaState[]),
        // Demo videos have no upload for this pipeline to work on: their own job makes them, and a restart
        // queues it again (server/seed/index.ts).
        isNull(videos.demoRecipe),
        // A tus upload still being finished (../upload-recovery.ts) owns its video until the session
        // completes.
        sql`not exists (select 1 from ${uploadSessions} where ${uploadSessions.videoId} = ${videos.id} and ${uploadSessions.completedAt} is null)`,
        sql`coalesce(${videos.mediaHeartbeatAt}, ${videos.updatedAt}) < now() - make_interval(secs => ${staleSeconds})`,
      ),
    );
  for (const video of stuck) {
    const rows = await liveJobsOf(database, video.id);
    if (rows.some((j) => j.state !== 'active' || (j.age ?? 0) < staleSeconds)) continue;
    for (const orphan of rows) await jobs.boss.cancel(orphan.name, orphan.id);
    const state = mediaStateOf(video);
    const stage = state && STAGE_OF[state];
    if (!stage) continue;
    const spec = queueOf[stage];
    // Worker processes sweep on their own; the singleton slot lets only one of them hand a video over.
    const sent = await jobs.send(
      spec,
      { videoId: video.id },
      {
        retryLimit: spec.retryLimit,
        retryDelay: spec.retryDelaySeconds ?? 0,
        expireInSeconds: spec.expireInSeconds,
        singletonKey: `sweep-${video.id}`,
        singletonSeconds: Math.max(1, staleSeconds),
      },
    );
    if (sent) handed.push(video.id);
  }
  if (handed.length) deps.log?.(`media sweep: handed videos ${handed.join(', ')} to new jobs`);
  return handed;
}

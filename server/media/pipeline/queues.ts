// The pg-boss queues of the three stages, and the jobs of a video waiting or running in them.
import type { SqlExecutor } from '../../db/client';
import type { Jobs, QueueSpec } from '../../jobs/boss';

export const VIDEO_PREPROCESS_QUEUE: QueueSpec = {
  name: 'video-preprocess',
  expireInSeconds: 600,
  retryLimit: 2,
  retryDelaySeconds: 5,
  concurrency: 1,
};

export const VIDEO_PROCESS_QUEUE: QueueSpec = {
  name: 'video-process',
  // Backstop for a worker on another machine that died: 30 minutes of 1080p at a fifth of real time.
  expireInSeconds: 3 * 3600,
  retryLimit: 1,
  retryDelaySeconds: 10,
  // ffmpeg already uses every core for one encode; two at once would only thrash.
  concurrency: 1,
};

/**
 * The higher renditions of a video that already plays. A queue of its own, so the process queue only ever
 * holds first renditions; its ffmpeg runs at the lowest priority, so when both queues have work the CPU goes
 * to the upload nobody can watch yet.
 */
export const VIDEO_LADDER_QUEUE: QueueSpec = {
  name: 'video-ladder',
  // 30 minutes of 1080p at a fifth of real time, and longer while first renditions take the CPU.
  expireInSeconds: 4 * 3600,
  retryLimit: 1,
  retryDelaySeconds: 10,
  concurrency: 1,
};

/** Three stages per upload; the rest is room for retries and restarts before giving up. */
export const MAX_MEDIA_ATTEMPTS = 7;

export type Stage = 'preprocess' | 'process' | 'ladder';
export const queueOf: Record<Stage, QueueSpec> = {
  preprocess: VIDEO_PREPROCESS_QUEUE,
  process: VIDEO_PROCESS_QUEUE,
  ladder: VIDEO_LADDER_QUEUE,
};

export async function enqueue(jobs: Jobs, videoId: number, stage: Stage): Promise<void> {
  const spec = queueOf[stage];
  await jobs.send(
    spec,
    { videoId },
    {
      retryLimit: spec.retryLimit,
      retryDelay: spec.retryDelaySeconds ?? 0,
      expireInSeconds: spec.expireInSeconds,
    },
  );
}

interface JobRow {
  id: string;
  name: string;
  state: 'created' | 'retry' | 'active';
  /** Seconds since the job started; null while it waits. */
  age: number | null;
}

/**
 * Jobs of a video that are waiting or running, in the upload pipeline's queues unless told otherwise.
 * pg-boss 10 has no job search: its table is read.
 */
export async function liveJobsOf(
  database: SqlExecutor,
  videoId: number,
  queues: readonly string[] = [
    VIDEO_PREPROCESS_QUEUE.name,
    VIDEO_PROCESS_QUEUE.name,
    VIDEO_LADDER_QUEUE.name,
  ],
): Promise<JobRow[]> {
  const names = queues.map((_, i) => `$${i + 2}`).join(', ');
  const { rows } = await database.executeSql(
    `select id::text as id, name, state::text as state, extract(epoch from now() - started_on)::float8 as age
       from pgboss.job
      where name in (${names}) and state < 'completed' and data->>'videoId' = $1`,
    [String(videoId), ...queues],
  );
  return rows as JobRow[];
}

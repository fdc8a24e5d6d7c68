// A worker process's share of the pipeline: the three stages' workers and the sweep that watches them.
import type { Database } from '../../db/client';
import type { Jobs } from '../../jobs/boss';
import { VIDEO_LADDER_QUEUE, VIDEO_PREPROCESS_QUEUE, VIDEO_PROCESS_QUEUE } from './queues';
import type { PipelineDeps } from './row';
import { ladderVideo, preprocessVideo, processVideo } from './stages';
import { sweepStuckVideos } from './sweep';

/**
 * Starts the media workers of this process and the sweep (now, then every staleSeconds / 2). The returned
 * function stops the sweep; pg-boss stops the workers.
 */
export async function startMediaWorkers(
  deps: PipelineDeps & { database: Database; jobs: Jobs },
): Promise<() => void> {
  await deps.jobs.work(VIDEO_PREPROCESS_QUEUE, preprocessVideo(deps));
  await deps.jobs.work(VIDEO_PROCESS_QUEUE, processVideo(deps));
  await deps.jobs.work(VIDEO_LADDER_QUEUE, ladderVideo(deps));
  let running = Promise.resolve();
  const sweep = () => {
    running = running
      .then(() => sweepStuckVideos(deps))
      .then(
        () => {},
        (err: Error) => deps.log?.(`media sweep failed: ${err.message}`),
      );
    return running;
  };
  await sweep();
  const timer = setInterval(sweep, Math.max(1000, (deps.staleSeconds * 1000) / 2));
  timer.unref();
  return () => clearInterval(timer);
}

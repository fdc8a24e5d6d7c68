// The three job handlers, preprocess, process and ladder: each claims the video (lease.ts), does its work
// and hands over to the next stage. A job that throws is retried by pg-boss; a rejected file, or a job out
// of retries, ends the video in error.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { messages } from '../../../src/contract/messages';
import type { VideoRow } from '../../db/schema';
import { videos } from '../../db/schema';
import type { JobHandler } from '../../jobs/boss';
import { fitWithin, frameArgs } from '../args';
import { ffmpeg } from '../ffmpeg';
import { type MediaInfo, MediaRejection, probeMedia } from '../probe';
import { videoMediaDir } from '../storage';
import { buildLadder } from './ladder';
import { claimVideo, RELEASED, releaseLease, startHeartbeat } from './lease';
import { finishPoster, POSTER_MAX } from './poster';
import { enqueue, MAX_MEDIA_ATTEMPTS, queueOf, type Stage } from './queues';
import { failVideo, originalPath, type PipelineDeps, shapeOf } from './row';

const m = messages.upload;

async function runStage(
  deps: PipelineDeps,
  stage: Stage,
  videoId: number,
  job: { retryCount: number },
  work: (video: VideoRow) => Promise<void>,
): Promise<void> {
  const spec = queueOf[stage];
  const video = await claimVideo(deps.db, videoId, stage, deps.staleSeconds);
  // Deleted, already done, or held by a job that still beats (the sweep hands it over if that one dies).
  if (!video) return;
  if (video.mediaAttempts > MAX_MEDIA_ATTEMPTS) {
    deps.log?.(`video ${videoId}: ${video.mediaAttempts - 1} attempts, giving up`);
    await failVideo(deps.db, videoId, m.processingFailed);
    return;
  }
  const stopHeartbeat = startHeartbeat(deps, videoId, video.mediaAttempts);
  try {
    await work(video);
  } catch (err) {
    if (err instanceof MediaRejection) {
      await failVideo(deps.db, videoId, err.message);
      return;
    }
    deps.log?.(
      `video ${videoId}: ${spec.name} failed (attempt ${job.retryCount + 1}): ${(err as Error).message}`,
    );
    if (job.retryCount >= spec.retryLimit) {
      await failVideo(deps.db, videoId, m.processingFailed);
      return;
    }
    throw err;
  } finally {
    stopHeartbeat();
    // The retry pg-boss is about to run, or the next stage, must not wait for the lease to go stale.
    await releaseLease(deps.db, videoId, video.mediaAttempts);
  }
}

/** The original as a local file for ffmpeg (a download when the storage is a bucket); release it after. */
const sourceOf = (deps: PipelineDeps, video: VideoRow) =>
  deps.storage.openPrivate(video.sourcePath ?? originalPath(video.id)).catch((err: unknown) => {
    // The original vanished (a crash between the row and the move): the upload cannot be recovered.
    throw (err as NodeJS.ErrnoException).code === 'ENOENT' ? new MediaRejection(m.processingFailed) : err;
  });

/** Stage 1: probe the original again (the worker may be another machine) and cut the thumbnail. */
export function preprocessVideo(deps: PipelineDeps): JobHandler<{ videoId: number }> {
  return ({ videoId }, job) =>
    runStage(deps, 'preprocess', videoId, job, async (video) => {
      const { db, storage } = deps;
      const source = await sourceOf(deps, video);
      const dir = videoMediaDir(video);
      const thumbnail = `${dir}/thumb.jpg`;
      const tile = `${dir}/tile.jpg`;
      const tmp = await fs.mkdtemp(path.join(await storage.workDir('tmp'), `thumb-${videoId}-`));
      let info: MediaInfo;
      let duration: number;
      try {
        info = await probeMedia(source.path);
        duration = info.durationSeconds ?? video.durationSeconds;
        // A second in: a first frame is often black or a fade-in.
        const at = Math.min(1, duration / 2);
        const out = path.join(tmp, 'thumb.jpg');
        const size = fitWithin(info, POSTER_MAX);
        await ffmpeg(frameArgs(source.path, { atSeconds: at, size, output: out }), { timeoutMs: 60_000 });
        await finishPoster(tmp, 'thumb.jpg', size);
        await storage.putFile(tile, path.join(tmp, 'tile.jpg'));
        await storage.putFile(thumbnail, out);
      } finally {
        await fs.rm(tmp, { recursive: true, force: true });
        await source.release();
      }
      await db
        .update(videos)
        .set({
          ...shapeOf(info),
          durationSeconds: duration,
          thumbnailPath: thumbnail,
          tilePath: tile,
          updatedAt: new Date(),
          // Released before the process job exists, so it never finds the video still held by this one.
          mediaHeartbeatAt: RELEASED,
        })
        .where(eq(videos.id, videoId));
      if (!deps.jobs) throw new Error('preprocess needs the job queue to hand over');
      await enqueue(deps.jobs, videoId, 'process');
    });
}

/**
 * Stage 2: the lowest rendition alone, published and approved as soon as it is encoded (the video plays from
 * then on), and its progressive MP4; the higher renditions are handed to stage 3. A retry of an approved
 * video does what is missing of that. A retry or a sweep resumes from what the master playlist on storage
 * lists (see the top of ladder.ts).
 */
export function processVideo(deps: PipelineDeps): JobHandler<{ videoId: number }> {
  return ({ videoId }, job) =>
    runStage(deps, 'process', videoId, job, (video) =>
      withOriginal(deps, video, (source) => buildLadder(deps, video, source, 'process')),
    );
}

/**
 * Stage 3: the higher renditions of an approved video, in one ffmpeg run at the lowest CPU priority, each
 * joining the master playlist; anything of stage 2 found missing (a sweep's hand-over) is done first.
 */
export function ladderVideo(deps: PipelineDeps): JobHandler<{ videoId: number }> {
  return ({ videoId }, job) =>
    runStage(deps, 'ladder', videoId, job, (video) =>
      withOriginal(deps, video, (source) => buildLadder(deps, video, source, 'ladder')),
    );
}

async function withOriginal(deps: PipelineDeps, video: VideoRow, work: (source: string) => Promise<void>) {
  const original = await sourceOf(deps, video);
  try {
    await work(original.path);
  } finally {
    await original.release();
  }
}

// From an uploaded file to a published video. Both upload routes hand the stored file to acceptUpload
// (checks, video row, first frame); then two pg-boss jobs run: preprocess (probe, thumbnail) and process
// (HLS ladder). Status: uploaded → preprocess → processing → approved, or error with a reason.
//
// Never stuck: a job that throws is retried by pg-boss; a job whose worker died (crash, kill, power) stops
// writing its heartbeat, and the sweep (at start and every few seconds in every worker process) hands
// the video to a new job. Attempts are counted per video, so a file that kills its worker every time
// ends in error instead of looping.

import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { messages } from '../../src/contract/messages';
import type { Database, Db, SqlExecutor } from '../db/client';
import { uploadSessions, videos } from '../db/schema';
import type { JobHandler, Jobs, QueueSpec } from '../jobs/boss';
import { crashPoint } from '../util/crash-point';
import { contentChanged } from '../videos/freshness';
import {
  AUDIO_KBPS,
  fitWithin,
  frameArgs,
  ladderArgs,
  ladderFor,
  masterPlaylist,
  outputFps,
  playlistSeconds,
  progressiveMp4Args,
  renditionName,
  TILE_MAX,
  tileArgs,
} from './args';
import { ffmpeg, MediaToolError } from './ffmpeg';
import { inspectUpload, type MediaInfo, MediaRejection, probeMedia } from './probe';
import { type MediaStorage, newMediaKey, videoMediaDir } from './storage';

const m = messages.upload;

/**
 * publish_at of a video whose creator has not sent the details yet: every public list requires
 * publish_at <= now(), so the upload stays private until the details say when it goes out.
 */
export const UNPUBLISHED_AT = new Date('9999-12-31T00:00:00.000Z');

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
  // ffmpeg already uses every core for one ladder; two at once would only thrash.
  concurrency: 1,
};

/** Two stages per upload; the rest is room for retries and restarts before giving up. */
export const MAX_MEDIA_ATTEMPTS = 6;

/** Posters (screenshot, thumbnail) are at most this on their long side: full screen on a phone. */
const POSTER_MAX = 960;

/** Writes `tile.jpg` beside a poster of `size` in the local folder `dir`, for grids and carousels. */
export async function writeTile(dir: string, poster: string, size: { width: number; height: number }) {
  await ffmpeg(tileArgs(path.join(dir, poster), fitWithin(size, TILE_MAX), path.join(dir, 'tile.jpg')), {
    timeoutMs: 30_000,
  });
}

export type Stage = 'preprocess' | 'process';
const queueOf: Record<Stage, QueueSpec> = {
  preprocess: VIDEO_PREPROCESS_QUEUE,
  process: VIDEO_PROCESS_QUEUE,
};

export interface PipelineDeps {
  db: Db;
  storage: MediaStorage;
  jobs?: Jobs | undefined;
  /** A running job writes its heartbeat every third of this; silence for this long means it died. */
  staleSeconds: number;
  log?: (message: string) => void;
}

type VideoRow = typeof videos.$inferSelect;
type Status = VideoRow['status'];

/** A video whose media is still being made: the only statuses a media job may move on from. */
export const UNFINISHED: Status[] = ['uploaded', 'preprocess', 'processing'];

/** In private storage: the original as uploaded, kept for a re-transcode, never served. */
export const originalPath = (videoId: number) => `originals/${videoId}/source`;

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

const shapeOf = (info: MediaInfo) => ({
  width: info.width,
  height: info.height,
  isVertical: info.height >= info.width,
  durationSeconds: info.durationSeconds ?? 0,
});

async function failVideo(db: Db, videoId: number, reason: string) {
  await db
    .update(videos)
    .set({ status: 'error', statusReason: reason, mediaHeartbeatAt: null, updatedAt: new Date() })
    .where(and(eq(videos.id, videoId), inArray(videos.status, UNFINISHED)));
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

export type UploadOutcome =
  | { ok: true; videoId: number; screenshot: string }
  | { ok: false; videoId: number; reason: string };

/**
 * Turns a completely received local file into a video of `userId`: checks it (ffprobe), creates the row
 * (uploaded, or error with the reason), extracts the first frame, moves the original into private storage
 * and queues preprocessing. The file at `file` is moved or removed in every case.
 */
export async function acceptUpload(
  deps: PipelineDeps,
  file: string,
  userId: number,
  /**
   * Runs in the transaction that creates the row: a tus upload ties its session to the new video there, so
   * no crash can leave a video that its upload does not know about (see upload-recovery.ts).
   */
  onRow?: (tx: Db, videoId: number) => Promise<void>,
): Promise<UploadOutcome> {
  const { db, storage } = deps;
  let info: MediaInfo | undefined;
  let reason: string | undefined;
  try {
    info = await inspectUpload(file);
  } catch (err) {
    if (!(err instanceof MediaRejection)) throw err;
    reason = err.message;
  }
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(videos)
      .values({
        userId,
        slug: 'video',
        status: info ? 'uploaded' : 'error',
        statusReason: reason ?? null,
        publishAt: UNPUBLISHED_AT,
        mediaKey: newMediaKey(),
        ...(info ? shapeOf(info) : {}),
      })
      .returning({ id: videos.id, mediaKey: videos.mediaKey });
    if (!created) throw new Error('video insert returned nothing');
    await onRow?.(tx, created.id);
    return created;
  });
  const videoId = row.id;
  // The crash test's window "the row exists, the file is still where the upload left it".
  await crashPoint('upload-finish:row-created');
  if (!info) {
    await fs.rm(file, { force: true });
    return { ok: false, videoId, reason: reason ?? m.notVideo };
  }
  const source = originalPath(videoId);
  const dir = videoMediaDir(row);
  const screenshot = `${dir}/first.jpg`;
  const frame = `${file}.first.jpg`;
  try {
    // From the file as received, on this machine: the storage may be a bucket away.
    await ffmpeg(frameArgs(file, { atSeconds: 0, size: fitWithin(info, POSTER_MAX), output: frame }), {
      timeoutMs: 60_000,
    });
    await storage.putFile(screenshot, frame);
  } catch (err) {
    if (!(err instanceof MediaToolError)) throw err;
    // ffprobe liked the header but not a single frame decodes: nothing worth keeping.
    await failVideo(db, videoId, m.damaged);
    await fs.rm(file, { force: true });
    await storage.remove(dir);
    return { ok: false, videoId, reason: m.damaged };
  } finally {
    await fs.rm(frame, { force: true });
  }
  await storage.putPrivate(source, file);
  await db
    .update(videos)
    .set({ sourcePath: source, thumbnailPath: screenshot, updatedAt: new Date() })
    .where(eq(videos.id, videoId));
  if (deps.jobs) await enqueue(deps.jobs, videoId, 'preprocess');
  return { ok: true, videoId, screenshot: storage.url(screenshot) ?? '' };
}

/** Claims the video for a stage: only from the statuses the stage may start from, counting the attempt. */
async function beginStage(db: Db, videoId: number, from: Status[], to: Status) {
  const now = new Date();
  const [video] = await db
    .update(videos)
    .set({
      status: to,
      mediaAttempts: sql`${videos.mediaAttempts} + 1`,
      mediaHeartbeatAt: now,
      updatedAt: now,
    })
    .where(and(eq(videos.id, videoId), inArray(videos.status, from)))
    .returning();
  return video;
}

function startHeartbeat(deps: PipelineDeps, videoId: number): () => void {
  const timer = setInterval(
    () => {
      deps.db
        .update(videos)
        .set({ mediaHeartbeatAt: new Date() })
        .where(eq(videos.id, videoId))
        .catch((err: Error) => deps.log?.(`heartbeat of video ${videoId} failed: ${err.message}`));
    },
    Math.max(1000, (deps.staleSeconds * 1000) / 3),
  );
  timer.unref();
  return () => clearInterval(timer);
}

async function runStage(
  deps: PipelineDeps,
  spec: QueueSpec,
  videoId: number,
  job: { retryCount: number },
  claim: { from: Status[]; to: Status },
  work: (video: VideoRow) => Promise<void>,
): Promise<void> {
  const video = await beginStage(deps.db, videoId, claim.from, claim.to);
  // Deleted, already done, or taken over by a newer job: nothing to do.
  if (!video) return;
  if (video.mediaAttempts > MAX_MEDIA_ATTEMPTS) {
    deps.log?.(`video ${videoId}: ${video.mediaAttempts - 1} attempts, giving up`);
    await failVideo(deps.db, videoId, m.processingFailed);
    return;
  }
  const stopHeartbeat = startHeartbeat(deps, videoId);
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
    runStage(
      deps,
      VIDEO_PREPROCESS_QUEUE,
      videoId,
      job,
      { from: ['uploaded', 'preprocess'], to: 'preprocess' },
      async (video) => {
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
          await writeTile(tmp, 'thumb.jpg', size);
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
          })
          .where(eq(videos.id, videoId));
        if (!deps.jobs) throw new Error('preprocess needs the job queue to hand over');
        await enqueue(deps.jobs, videoId, 'process');
      },
    );
}

/** Stage 2: the HLS ladder, a progressive MP4 of the smallest rendition, then approval. */
export function processVideo(deps: PipelineDeps): JobHandler<{ videoId: number }> {
  return ({ videoId }, job) =>
    runStage(
      deps,
      VIDEO_PROCESS_QUEUE,
      videoId,
      job,
      { from: ['preprocess', 'processing'], to: 'processing' },
      async (video) => {
        const { db, storage } = deps;
        const original = await sourceOf(deps, video);
        const source = original.path;
        const info = await probeMedia(source).catch(async (err: unknown) => {
          await original.release();
          throw err;
        });
        const duration = info.durationSeconds ?? video.durationSeconds;
        const fps = outputFps(info.fps);
        const dir = videoMediaDir(video);
        const work = await storage.workDir('tmp');
        // Folders of earlier attempts at this video whose worker died mid-way.
        for (const name of await fs.readdir(work)) {
          if (name.startsWith(`transcode-${videoId}-`))
            await fs.rm(path.join(work, name), { recursive: true, force: true });
        }
        const tmp = await fs.mkdtemp(path.join(work, `transcode-${videoId}-`));
        const outputs = ladderFor(info).map((rendition) => ({
          rendition,
          name: renditionName(rendition),
          playlist: path.join(tmp, renditionName(rendition), 'index.m3u8'),
          segmentPattern: path.join(tmp, renditionName(rendition), 'seg_%03d.ts'),
        }));
        const smallest = outputs[0];
        if (!smallest) throw new Error('empty ladder');
        try {
          for (const o of outputs) await fs.mkdir(path.dirname(o.playlist));
          await ffmpeg(
            ladderArgs({ input: source, durationSeconds: duration, hasAudio: info.hasAudio, fps, outputs }),
            {
              timeoutMs: 120_000 + duration * 6_000,
            },
          );
          // Damage the upload checks could not see ends the encode early: refuse rather than publish a cut.
          const produced = playlistSeconds(await fs.readFile(smallest.playlist, 'utf8'));
          if (produced < duration - 2) throw new MediaRejection(m.damaged);
          await fs.writeFile(
            path.join(tmp, 'master.m3u8'),
            masterPlaylist(
              outputs.map((o) => ({
                uri: `${o.name}/index.m3u8`,
                rendition: o.rendition,
                audioKbps: AUDIO_KBPS,
                fps,
              })),
            ),
          );
          await ffmpeg(progressiveMp4Args(smallest.playlist, path.join(tmp, `${smallest.name}.mp4`)), {
            timeoutMs: 120_000 + duration * 1_000,
          });
          // The folder is replaced whole: carry the posters over.
          for (const poster of ['first.jpg', 'thumb.jpg', 'tile.jpg']) {
            await storage.fetchFile(`${dir}/${poster}`, path.join(tmp, poster));
          }
          await storage.publishDir(tmp, dir);
        } catch (err) {
          await fs.rm(tmp, { recursive: true, force: true });
          throw err;
        } finally {
          await original.release();
        }
        const now = new Date();
        const [approved] = await db
          .update(videos)
          .set({
            status: 'approved',
            statusReason: null,
            playlistPath: `${dir}/master.m3u8`,
            ...shapeOf(info),
            durationSeconds: duration,
            renditions: outputs.map((o) => ({
              width: o.rendition.width,
              height: o.rendition.height,
              bandwidth: (o.rendition.maxrateKbps + AUDIO_KBPS) * 1000,
            })),
            approvedAt: now,
            // Published now, or at the scheduled time if that is later; still held if no details came yet.
            publishAt: sql`greatest(${videos.publishAt}, now())`,
            mediaHeartbeatAt: null,
            updatedAt: now,
          })
          .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')))
          .returning({ id: videos.id });
        if (!approved) await discardIfDeleted(deps, videoId, dir);
        else contentChanged(db);
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
  queues: readonly string[] = [VIDEO_PREPROCESS_QUEUE.name, VIDEO_PROCESS_QUEUE.name],
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

/**
 * Hands every video that should be moving but is not to a new job: status uploaded / preprocess /
 * processing, no heartbeat (or row change) for `staleSeconds`, and no job waiting for it. A job still
 * marked active for such a video belongs to a dead worker; it is cancelled so that pg-boss does not also
 * retry it on expiry. Returns the ids handed over.
 */
export async function sweepStuckVideos(
  deps: PipelineDeps & { database: Database; jobs: Jobs },
): Promise<number[]> {
  const { database, jobs, staleSeconds } = deps;
  const handed: number[] = [];
  const stuck = await database.db
    .select({ id: videos.id, status: videos.status })
    .from(videos)
    .where(
      and(
        inArray(videos.status, UNFINISHED),
        // Demo videos have no upload for this pipeline to work on: their own job makes them, and a restart
        // queues it again (seed/index.ts).
        isNull(videos.demoRecipe),
        // A tus upload still being finished (upload-recovery.ts) owns its video until the session completes.
        sql`not exists (select 1 from ${uploadSessions} where ${uploadSessions.videoId} = ${videos.id} and ${uploadSessions.completedAt} is null)`,
        sql`coalesce(${videos.mediaHeartbeatAt}, ${videos.updatedAt}) < now() - make_interval(secs => ${staleSeconds})`,
      ),
    );
  for (const video of stuck) {
    const rows = await liveJobsOf(database, video.id);
    if (rows.some((j) => j.state !== 'active' || (j.age ?? 0) < staleSeconds)) continue;
    for (const orphan of rows) await jobs.boss.cancel(orphan.name, orphan.id);
    const stage: Stage = video.status === 'processing' ? 'process' : 'preprocess';
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

/**
 * Starts the media workers of this process and the sweep (now, then every staleSeconds / 2). The returned
 * function stops the sweep; pg-boss stops the workers.
 */
export async function startMediaWorkers(
  deps: PipelineDeps & { database: Database; jobs: Jobs },
): Promise<() => void> {
  await deps.jobs.work(VIDEO_PREPROCESS_QUEUE, preprocessVideo(deps));
  await deps.jobs.work(VIDEO_PROCESS_QUEUE, processVideo(deps));
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

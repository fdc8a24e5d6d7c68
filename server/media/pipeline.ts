// From an uploaded file to a published video. Both upload routes hand the stored file to acceptUpload
// (checks, video row, first frame); then three pg-boss jobs run: preprocess (probe, thumbnail), process (the
// lowest rendition) and ladder (the higher ones). Status: uploaded → preprocess → processing → approved, or
// error with a reason.
//
// "approved" means playable: the process stage encodes the lowest rendition alone, publishes it with a
// master playlist that lists only it, approves the video (it shows in lists once its details say so) and
// makes its MP4. The higher renditions are the ladder stage's, on a queue of their own at the lowest CPU
// priority: the next upload's lowest rendition never waits behind them. They come out of one ffmpeg run and
// join the master playlist, each by an atomic replace, in ascending order. Until the ladder is complete the
// approved row keeps a media heartbeat: an approved video with a heartbeat is one whose ladder is still being
// built, and the sweep hands it to a new ladder job if that heartbeat stops and no job waits for it. The
// master playlist on storage is what a resumed job trusts: a rendition it lists is complete (it is added only
// after its folder is published), anything else is encoded again.
//
// One job at a time: the heartbeat is also a lease. A job claims a video only if nobody has written its
// heartbeat for `staleSeconds` (or it was released), so a pg-boss retry of a job that is still running, or a
// sweep's job racing a late original, finds the video taken and ends without touching its folders. A job
// that stops (handing over, or throwing for a retry) releases the lease by writing RELEASED, which still
// marks the video unfinished for the sweep.
//
// Never stuck: a job that throws is retried by pg-boss; a job whose worker died (crash, kill, power) stops
// writing its heartbeat, and the sweep (at start and every few seconds in every worker process) hands
// the video to a new job. Attempts are counted per video, so a file that kills its worker every time
// ends in error instead of looping.

import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { messages } from '../../src/contract/messages';
import { playlistUris } from '../../src/contract/playlist';
import { queueOnMediaReady } from '../admin/review-machine';
import type { Database, Db, SqlExecutor } from '../db/client';
import { uploadSessions, videos } from '../db/schema';
import type { JobHandler, Jobs, QueueSpec } from '../jobs/boss';
import { crashPoint } from '../util/crash-point';
import { metrics } from '../util/metrics';
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
  type Rendition,
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

/** Posters (screenshot, thumbnail) are at most this on their long side: full screen on a phone. */
const POSTER_MAX = 960;

/**
 * A poster shows only until the first frame, and the feed asks for it beside the video's first segments: a
 * busy picture (grain, noise; 340-370 KB at 540x960 for a third of the demo clips) outweighs the 2 s
 * segment it stands in for and shares the network with it. On Slow 4G that held the first frame back by
 * about a second (issue 17). Past this many bytes the poster is its tile instead, softer for that moment.
 */
export const POSTER_MAX_BYTES = 128 * 1024;

/**
 * The last step of every poster (uploads and the demo): writes `tile.jpg` beside a poster of `size` in the
 * local folder `dir`, for grids and carousels, and keeps the poster within POSTER_MAX_BYTES.
 */
export async function finishPoster(dir: string, poster: string, size: { width: number; height: number }) {
  const posterFile = path.join(dir, poster);
  const tileFile = path.join(dir, 'tile.jpg');
  await ffmpeg(tileArgs(posterFile, fitWithin(size, TILE_MAX), tileFile), { timeoutMs: 30_000 });
  if ((await fs.stat(posterFile)).size > POSTER_MAX_BYTES) await fs.copyFile(tileFile, posterFile);
}

export type Stage = 'preprocess' | 'process' | 'ladder';
const queueOf: Record<Stage, QueueSpec> = {
  preprocess: VIDEO_PREPROCESS_QUEUE,
  process: VIDEO_PROCESS_QUEUE,
  ladder: VIDEO_LADDER_QUEUE,
};

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

/**
 * A heartbeat no job is behind: written by a job that stops (hands over, or throws to be retried), so the
 * next job may claim the video at once. Not null, so an approved video keeps the mark of an unfinished ladder.
 */
const RELEASED = new Date(0);

/** Nobody holds the video: no heartbeat, a released one, or one silent for `staleSeconds` (a dead worker). */
const leaseFree = (staleSeconds: number) =>
  or(
    isNull(videos.mediaHeartbeatAt),
    sql`${videos.mediaHeartbeatAt} < now() - make_interval(secs => ${staleSeconds})`,
  );

/**
 * Claims the video for a stage: only from the statuses the stage may start from, only if no live job holds
 * it, counting the attempt.
 */
async function beginStage(db: Db, videoId: number, from: Status[], to: Status, staleSeconds: number) {
  const now = new Date();
  const [video] = await db
    .update(videos)
    .set({
      status: to,
      mediaAttempts: sql`${videos.mediaAttempts} + 1`,
      mediaHeartbeatAt: now,
      updatedAt: now,
    })
    .where(and(eq(videos.id, videoId), inArray(videos.status, from), leaseFree(staleSeconds)))
    .returning();
  return video;
}

/** An approved video whose ladder is still being built: taken over without going back to processing. */
async function resumeLadder(db: Db, videoId: number, staleSeconds: number) {
  const now = new Date();
  const [video] = await db
    .update(videos)
    .set({ mediaAttempts: sql`${videos.mediaAttempts} + 1`, mediaHeartbeatAt: now })
    .where(
      and(
        eq(videos.id, videoId),
        eq(videos.status, 'approved'),
        isNotNull(videos.mediaHeartbeatAt),
        leaseFree(staleSeconds),
      ),
    )
    .returning();
  return video;
}

/**
 * The lease of the job whose claim counted attempt `attempt` (each claim counts one, so a later claim by
 * another job no longer matches) and that still beats: a finished ladder (no heartbeat) and a lease already
 * released are left as they are.
 */
const ownLease = (videoId: number, attempt: number) =>
  and(eq(videos.id, videoId), eq(videos.mediaAttempts, attempt), gt(videos.mediaHeartbeatAt, RELEASED));

/** Lets the next job claim the video now. */
async function releaseLease(db: Db, videoId: number, attempt: number) {
  await db.update(videos).set({ mediaHeartbeatAt: RELEASED }).where(ownLease(videoId, attempt));
}

function startHeartbeat(deps: PipelineDeps, videoId: number, attempt: number): () => void {
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

async function runStage(
  deps: PipelineDeps,
  spec: QueueSpec,
  videoId: number,
  job: { retryCount: number },
  claim: (db: Db) => Promise<VideoRow | undefined>,
  work: (video: VideoRow) => Promise<void>,
): Promise<void> {
  const video = await claim(deps.db);
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
    runStage(
      deps,
      VIDEO_PREPROCESS_QUEUE,
      videoId,
      job,
      (db) => beginStage(db, videoId, ['uploaded', 'preprocess'], 'preprocess', deps.staleSeconds),
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
      },
    );
}

/** The video row's record of published renditions, lowest first. */
const renditionsColumn = (list: Rendition[]) =>
  list.map((r) => ({ width: r.width, height: r.height, bandwidth: (r.maxrateKbps + AUDIO_KBPS) * 1000 }));

/**
 * Folder names of the renditions the published master playlist of `dir` lists. A rendition joins the master
 * only after its folder is complete, so these are done; a folder the master does not name is not.
 */
async function publishedRenditions(storage: MediaStorage, dir: string, tmp: string): Promise<Set<string>> {
  const local = path.join(tmp, 'published.m3u8');
  if (!(await storage.fetchFile(`${dir}/master.m3u8`, local))) return new Set();
  const uris = playlistUris(await fs.readFile(local, 'utf8'));
  await fs.rm(local, { force: true });
  return new Set(uris.map((uri) => uri.split('/')[0] ?? uri));
}

/** A published rendition (its media playlist and every segment it names) copied into `localDir`. */
async function fetchRendition(storage: MediaStorage, relativeDir: string, localDir: string) {
  await fs.mkdir(localDir, { recursive: true });
  const playlist = path.join(localDir, 'index.m3u8');
  if (!(await storage.fetchFile(`${relativeDir}/index.m3u8`, playlist))) {
    throw new Error(`${relativeDir} is listed but has no playlist`);
  }
  for (const segment of playlistUris(await fs.readFile(playlist, 'utf8'))) {
    if (!(await storage.fetchFile(`${relativeDir}/${segment}`, path.join(localDir, segment)))) {
      throw new Error(`${relativeDir} is listed but lacks ${segment}`);
    }
  }
}

/**
 * Stage 2: the lowest rendition alone, published and approved as soon as it is encoded (the video plays from
 * then on), and its progressive MP4; the higher renditions are handed to stage 3. A retry of an approved
 * video does what is missing of that. A retry or a sweep resumes from what the master playlist on storage
 * lists (see the top of this file).
 */
export function processVideo(deps: PipelineDeps): JobHandler<{ videoId: number }> {
  return ({ videoId }, job) =>
    runStage(
      deps,
      VIDEO_PROCESS_QUEUE,
      videoId,
      job,
      async (db) =>
        (await beginStage(db, videoId, ['preprocess', 'processing'], 'processing', deps.staleSeconds)) ??
        (await resumeLadder(db, videoId, deps.staleSeconds)),
      (video) => withOriginal(deps, video, (source) => buildLadder(deps, video, source, 'process')),
    );
}

/**
 * Stage 3: the higher renditions of an approved video, in one ffmpeg run at the lowest CPU priority, each
 * joining the master playlist; anything of stage 2 found missing (a sweep's hand-over) is done first.
 */
export function ladderVideo(deps: PipelineDeps): JobHandler<{ videoId: number }> {
  return ({ videoId }, job) =>
    runStage(
      deps,
      VIDEO_LADDER_QUEUE,
      videoId,
      job,
      (db) => resumeLadder(db, videoId, deps.staleSeconds),
      (video) => withOriginal(deps, video, (source) => buildLadder(deps, video, source, 'ladder')),
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

async function buildLadder(
  deps: PipelineDeps,
  video: VideoRow,
  source: string,
  stage: 'process' | 'ladder',
): Promise<void> {
  const { db, storage } = deps;
  const videoId = video.id;
  const info = await probeMedia(source);
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
  try {
    const ladder = ladderFor(info);
    const lowest = ladder[0];
    if (!lowest) throw new Error('empty ladder');
    const lowestName = renditionName(lowest);
    const published = await publishedRenditions(storage, dir, tmp);
    const listed = () => ladder.filter((r) => published.has(renditionName(r)));

    const encode = async (renditions: Rendition[], scaler: 'area' | 'bicubic', background = false) => {
      const outputs = renditions.map((rendition) => ({
        rendition,
        playlist: path.join(tmp, renditionName(rendition), 'index.m3u8'),
        segmentPattern: path.join(tmp, renditionName(rendition), 'seg_%03d.ts'),
      }));
      for (const o of outputs) await fs.mkdir(path.dirname(o.playlist));
      const started = performance.now();
      await ffmpeg(
        ladderArgs({
          input: source,
          durationSeconds: duration,
          hasAudio: info.hasAudio,
          fps,
          outputs,
          scaler,
        }),
        { timeoutMs: 120_000 + duration * (background ? 12_000 : 6_000), background },
      );
      metrics().transcodeSeconds.observe(
        { stage: background ? 'ladder' : 'lowest' },
        (performance.now() - started) / 1000,
      );
    };
    /**
     * The rendition's folder first, then the master playlist naming it: players and a resumed job never see
     * a listed rendition that is not all there. Listed in ladder order (ascending), each once.
     */
    const publish = async (r: Rendition) => {
      const name = renditionName(r);
      await storage.publishDir(path.join(tmp, name), `${dir}/${name}`);
      published.add(name);
      const master = path.join(tmp, 'master.m3u8');
      await fs.writeFile(
        master,
        masterPlaylist(
          listed().map((x) => ({
            uri: `${renditionName(x)}/index.m3u8`,
            rendition: x,
            audioKbps: AUDIO_KBPS,
            fps,
          })),
        ),
      );
      await storage.putFile(`${dir}/master.m3u8`, master);
    };

    // The local copy of the lowest rendition the MP4 is made from, when this run encoded it.
    let mp4Source: string | undefined;
    if (!published.has(lowestName)) {
      // Fast settings that cost nothing the viewer sees: the same x264 preset as the rest (at 360p its share
      // of the time is small; decoding the source is most of it), a cheaper scaler, and no other output
      // waiting on the same decode.
      await encode([lowest], 'area');
      // Damage the upload checks could not see ends the encode early: refuse rather than publish a cut.
      const produced = playlistSeconds(await fs.readFile(path.join(tmp, lowestName, 'index.m3u8'), 'utf8'));
      if (produced < duration - 2) throw new MediaRejection(m.damaged);
      mp4Source = path.join(tmp, 'mp4-source');
      await fs.cp(path.join(tmp, lowestName), mp4Source, { recursive: true });
      await publish(lowest);
    }

    if (video.status !== 'approved') {
      const now = new Date();
      const [approved] = await db
        .update(videos)
        .set({
          status: 'approved',
          statusReason: null,
          playlistPath: `${dir}/master.m3u8`,
          ...shapeOf(info),
          durationSeconds: duration,
          renditions: renditionsColumn(listed()),
          approvedAt: now,
          // Into the operators' review queue (server/admin/review-machine.ts), held back or public by the mode.
          ...queueOnMediaReady(deps.uploadReview ?? 'before', now),
          // Published now, or at the scheduled time if that is later; still held if no details came yet.
          publishAt: sql`greatest(${videos.publishAt}, now())`,
          // The mark of a ladder still being built, kept until the MP4 and any higher renditions are
          // published (the loop below clears it): a worker that dies in between leaves the sweep a video to
          // finish, not one without its MP4.
          mediaHeartbeatAt: now,
          updatedAt: now,
        })
        .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')))
        .returning({ id: videos.id });
      if (!approved) {
        await discardIfDeleted(deps, videoId, dir);
        return;
      }
      contentChanged(db);
    }

    const mp4 = path.join(tmp, `${lowestName}.mp4`);
    if (!mp4Source && !(await storage.fetchFile(`${dir}/${lowestName}.mp4`, mp4))) {
      // Resumed between the lowest rendition's publication and its MP4: made from the published copy.
      mp4Source = path.join(tmp, 'mp4-source');
      await fetchRendition(storage, `${dir}/${lowestName}`, mp4Source);
    }
    if (mp4Source) {
      await ffmpeg(progressiveMp4Args(path.join(mp4Source, 'index.m3u8'), mp4), {
        timeoutMs: 120_000 + duration * 1_000,
      });
      await storage.putFile(`${dir}/${lowestName}.mp4`, mp4);
    }

    const rest = ladder.filter((r) => !published.has(renditionName(r)));
    if (stage === 'process' && rest.length > 0) {
      // Released before the ladder job exists, so it never finds the video still held by this one; the
      // heartbeat stays set, the mark of an unfinished ladder.
      const [current] = await db
        .update(videos)
        .set({ mediaHeartbeatAt: RELEASED })
        .where(and(ownLease(videoId, video.mediaAttempts), eq(videos.status, 'approved')))
        .returning({ id: videos.id });
      if (!current) {
        await discardIfDeleted(deps, videoId, dir);
        return;
      }
      if (!deps.jobs) throw new Error('processing needs the job queue to hand over');
      await enqueue(deps.jobs, videoId, 'ladder');
      return;
    }
    if (rest.length > 0) await encode(rest, 'bicubic', true);
    // One run ends all of them at once; published one by one, lowest first, so the master only ever grows.
    for (const r of [...rest, undefined]) {
      if (r) await publish(r);
      const done = listed().length === ladder.length;
      const [current] = await db
        .update(videos)
        .set({ renditions: renditionsColumn(listed()), mediaHeartbeatAt: done ? null : new Date() })
        .where(and(eq(videos.id, videoId), eq(videos.status, 'approved')))
        .returning({ id: videos.id });
      // Deleted (or taken down) meanwhile: what this job published since is its own to remove.
      if (!current) {
        await discardIfDeleted(deps, videoId, dir);
        return;
      }
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
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

/**
 * Hands every video that should be moving but is not to a new job: status uploaded / preprocess /
 * processing, or approved with its ladder unfinished, no heartbeat (or row change) for `staleSeconds`, and
 * no job waiting for it. A job still marked active for such a video belongs to a dead worker; it is
 * cancelled so that pg-boss does not also retry it on expiry. Returns the ids handed over.
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
        or(
          inArray(videos.status, UNFINISHED),
          and(eq(videos.status, 'approved'), isNotNull(videos.mediaHeartbeatAt)),
        ),
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
    const stage: Stage =
      video.status === 'approved' ? 'ladder' : video.status === 'processing' ? 'process' : 'preprocess';
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

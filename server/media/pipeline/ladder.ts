// "approved" means playable: the process stage encodes the lowest rendition alone, publishes it with a
// master playlist that lists only it, approves the video (it shows in lists once its details say so) and
// makes its MP4. The higher renditions are the ladder stage's, on a queue of their own at the lowest CPU
// priority: the next upload's lowest rendition never waits behind them. They come out of one ffmpeg run and
// join the master playlist, each by an atomic replace, in ascending order. Until the ladder is complete the
// approved row keeps a media heartbeat: an approved video with a heartbeat is one whose ladder is still being
// built, and the sweep hands it to a new ladder job if that heartbeat stops and no job waits for it. The
// master playlist on storage is what a resumed job trusts: a rendition it lists is complete (it is added only
// after its folder is published), anything else is encoded again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { messages } from '../../../src/contract/messages';
import { playlistUris } from '../../../src/contract/playlist';
import { queueOnMediaReady } from '../../admin/review-machine';
import type { VideoRow } from '../../db/schema';
import { videos } from '../../db/schema';
import { metrics } from '../../util/metrics';
import { contentChanged } from '../../videos/freshness';
import {
  AUDIO_KBPS,
  ladderArgs,
  ladderFor,
  masterPlaylist,
  outputFps,
  playlistSeconds,
  progressiveMp4Args,
  type Rendition,
  renditionName,
} from '../args';
import { ffmpeg } from '../ffmpeg';
import { type MediaInfo, MediaRejection, probeMedia } from '../probe';
import { type MediaStorage, videoMediaDir } from '../storage';
import { ownLease, RELEASED } from './lease';
import { fromOf, mediaStateOf, nextMedia } from './machine';
import { enqueue } from './queues';
import { discardIfDeleted, inStates, type PipelineDeps, shapeOf } from './row';

const m = messages.upload;

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

/** One job's work on one video's ladder: what it knows of the video and the local folder it works in. */
interface Run {
  deps: PipelineDeps;
  video: VideoRow;
  /** The original, as a local file. */
  source: string;
  info: MediaInfo;
  duration: number;
  fps: number;
  /** The video's media folder on storage. */
  dir: string;
  tmp: string;
  ladder: Rendition[];
  /** Folder names of the renditions the master playlist on storage lists, as this run grows it. */
  published: Set<string>;
}

const listed = (run: Run) => run.ladder.filter((r) => run.published.has(renditionName(r)));

export async function buildLadder(
  deps: PipelineDeps,
  video: VideoRow,
  source: string,
  stage: 'process' | 'ladder',
): Promise<void> {
  const info = await probeMedia(source);
  const duration = info.durationSeconds ?? video.durationSeconds;
  const fps = outputFps(info.fps);
  const dir = videoMediaDir(video);
  const tmp = await freshWorkDir(deps.storage, video.id);
  try {
    const ladder = ladderFor(info);
    const lowest = ladder[0];
    if (!lowest) throw new Error('empty ladder');
    const published = await publishedRenditions(deps.storage, dir, tmp);
    const run: Run = { deps, video, source, info, duration, fps, dir, tmp, ladder, published };
    // The local copy of the lowest rendition the MP4 is made from, when this run encoded it.
    const mp4Source = published.has(renditionName(lowest)) ? undefined : await encodeLowest(run, lowest);
    // Once, from processing: a retry after the approval (building) goes on with what is missing.
    if (nextMedia(mediaStateOf(video), 'lowestPublished') && !(await approve(run))) return;
    await makeMp4(run, lowest, mp4Source);
    const rest = ladder.filter((r) => !published.has(renditionName(r)));
    if (stage === 'process' && rest.length > 0) {
      await handOverLadder(run);
      return;
    }
    if (rest.length > 0) await encode(run, rest, 'bicubic', true);
    await publishRest(run, rest);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** A new local folder for this job's encodes. */
async function freshWorkDir(storage: MediaStorage, videoId: number): Promise<string> {
  const work = await storage.workDir('tmp');
  // Folders of earlier attempts at this video whose worker died mid-way.
  for (const name of await fs.readdir(work)) {
    if (name.startsWith(`transcode-${videoId}-`))
      await fs.rm(path.join(work, name), { recursive: true, force: true });
  }
  return fs.mkdtemp(path.join(work, `transcode-${videoId}-`));
}

async function encode(run: Run, renditions: Rendition[], scaler: 'area' | 'bicubic', background = false) {
  const { tmp, duration } = run;
  const outputs = renditions.map((rendition) => ({
    rendition,
    playlist: path.join(tmp, renditionName(rendition), 'index.m3u8'),
    segmentPattern: path.join(tmp, renditionName(rendition), 'seg_%03d.ts'),
  }));
  for (const o of outputs) await fs.mkdir(path.dirname(o.playlist));
  const started = performance.now();
  await ffmpeg(
    ladderArgs({
      input: run.source,
      durationSeconds: duration,
      hasAudio: run.info.hasAudio,
      fps: run.fps,
      outputs,
      scaler,
    }),
    { timeoutMs: 120_000 + duration * (background ? 12_000 : 6_000), background },
  );
  metrics().transcodeSeconds.observe(
    { stage: background ? 'ladder' : 'lowest' },
    (performance.now() - started) / 1000,
  );
}

/**
 * The rendition's folder first, then the master playlist naming it: players and a resumed job never see
 * a listed rendition that is not all there. Listed in ladder order (ascending), each once.
 */
async function publish(run: Run, r: Rendition) {
  const { deps, dir, tmp } = run;
  const name = renditionName(r);
  await deps.storage.publishDir(path.join(tmp, name), `${dir}/${name}`);
  run.published.add(name);
  const master = path.join(tmp, 'master.m3u8');
  await fs.writeFile(
    master,
    masterPlaylist(
      listed(run).map((x) => ({
        uri: `${renditionName(x)}/index.m3u8`,
        rendition: x,
        audioKbps: AUDIO_KBPS,
        fps: run.fps,
      })),
    ),
  );
  await deps.storage.putFile(`${dir}/master.m3u8`, master);
}

/** Encodes and publishes the lowest rendition; returns the local copy of it that the MP4 is made from. */
async function encodeLowest(run: Run, lowest: Rendition): Promise<string> {
  const { tmp } = run;
  const lowestName = renditionName(lowest);
  // Fast settings that cost nothing the viewer sees: the same x264 preset as the rest (at 360p its share
  // of the time is small; decoding the source is most of it), a cheaper scaler, and no other output
  // waiting on the same decode.
  await encode(run, [lowest], 'area');
  // Damage the upload checks could not see ends the encode early: refuse rather than publish a cut.
  const produced = playlistSeconds(await fs.readFile(path.join(tmp, lowestName, 'index.m3u8'), 'utf8'));
  if (produced < run.duration - 2) throw new MediaRejection(m.damaged);
  const mp4Source = path.join(tmp, 'mp4-source');
  await fs.cp(path.join(tmp, lowestName), mp4Source, { recursive: true });
  await publish(run, lowest);
  return mp4Source;
}

/**
 * The `lowestPublished` event: the video is approved, now playable; false if it was deleted (or taken down)
 * meanwhile.
 */
async function approve(run: Run): Promise<boolean> {
  const { deps, dir, info } = run;
  const videoId = run.video.id;
  const now = new Date();
  const [approved] = await deps.db
    .update(videos)
    .set({
      status: 'approved',
      statusReason: null,
      playlistPath: `${dir}/master.m3u8`,
      ...shapeOf(info),
      durationSeconds: run.duration,
      renditions: renditionsColumn(listed(run)),
      approvedAt: now,
      // Into the operators' review queue (server/admin/review-machine.ts), held back or public by the mode.
      ...queueOnMediaReady(deps.uploadReview ?? 'before', now),
      // Published now, or at the scheduled time if that is later; still held if no details came yet.
      publishAt: sql`greatest(${videos.publishAt}, now())`,
      // The mark of a ladder still being built, kept until the MP4 and any higher renditions are
      // published (publishRest clears it): a worker that dies in between leaves the sweep a video to
      // finish, not one without its MP4.
      mediaHeartbeatAt: now,
      updatedAt: now,
    })
    .where(and(eq(videos.id, videoId), inStates(fromOf('lowestPublished'))))
    .returning({ id: videos.id });
  if (!approved) {
    await discardIfDeleted(deps, videoId, dir);
    return false;
  }
  contentChanged(deps.db);
  return true;
}

/** The lowest rendition's progressive MP4, unless it is published already. */
async function makeMp4(run: Run, lowest: Rendition, encoded: string | undefined) {
  const { deps, dir, tmp } = run;
  const lowestName = renditionName(lowest);
  let mp4Source = encoded;
  const mp4 = path.join(tmp, `${lowestName}.mp4`);
  if (!mp4Source && !(await deps.storage.fetchFile(`${dir}/${lowestName}.mp4`, mp4))) {
    // Resumed between the lowest rendition's publication and its MP4: made from the published copy.
    mp4Source = path.join(tmp, 'mp4-source');
    await fetchRendition(deps.storage, `${dir}/${lowestName}`, mp4Source);
  }
  if (mp4Source) {
    await ffmpeg(progressiveMp4Args(path.join(mp4Source, 'index.m3u8'), mp4), {
      timeoutMs: 120_000 + run.duration * 1_000,
    });
    await deps.storage.putFile(`${dir}/${lowestName}.mp4`, mp4);
  }
}

/** The process stage's end: the higher renditions go to a ladder job. */
async function handOverLadder(run: Run) {
  const { deps, video, dir } = run;
  // Released before the ladder job exists, so it never finds the video still held by this one; the
  // heartbeat stays set, the mark of an unfinished ladder.
  const [current] = await deps.db
    .update(videos)
    .set({ mediaHeartbeatAt: RELEASED })
    .where(and(ownLease(video.id, video.mediaAttempts), inStates(['building'])))
    .returning({ id: videos.id });
  if (!current) {
    await discardIfDeleted(deps, video.id, dir);
    return;
  }
  if (!deps.jobs) throw new Error('processing needs the job queue to hand over');
  await enqueue(deps.jobs, video.id, 'ladder');
}

/**
 * Publishes the encoded higher renditions and records each while the video is building; the last record is
 * the `ladderDone` event, which ends the heartbeat.
 */
async function publishRest(run: Run, rest: Rendition[]) {
  const { deps, dir } = run;
  const videoId = run.video.id;
  // One run ends all of them at once; published one by one, lowest first, so the master only ever grows.
  for (const r of [...rest, undefined]) {
    if (r) await publish(run, r);
    const done = listed(run).length === run.ladder.length;
    const [current] = await deps.db
      .update(videos)
      .set({ renditions: renditionsColumn(listed(run)), mediaHeartbeatAt: done ? null : new Date() })
      .where(and(eq(videos.id, videoId), inStates(done ? fromOf('ladderDone') : ['building'])))
      .returning({ id: videos.id });
    // Deleted (or taken down) meanwhile: what this job published since is its own to remove.
    if (!current) {
      await discardIfDeleted(deps, videoId, dir);
      return;
    }
  }
}

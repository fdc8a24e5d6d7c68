import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';
import type { QueueSpec } from '../jobs/boss';
import { contentChanged } from '../videos/freshness';
import {
  AUDIO_KBPS,
  type DemoClip,
  demoClipArgs,
  masterPlaylist,
  type Rendition,
  renditionName,
  renditionOutput,
  stillImageArgs,
} from './args';
import { ffmpeg } from './ffmpeg';
import { demoPattern, demoSeconds, demoToneHz } from './patterns';
import { discardIfDeleted, finishPoster, UNFINISHED } from './pipeline';
import { type MediaStorage, videoMediaDir } from './storage';

export const DEMO_MEDIA_QUEUE: QueueSpec = {
  name: 'demo-media',
  expireInSeconds: 300,
  retryLimit: 3,
  // Two clips at a time keep both cores busy: some pattern filters are single-threaded.
  concurrency: 2,
};

/** 540x960: what most phones show at full width; also the size of the poster and of the video's row. */
const DEMO_TOP: Rendition = { width: 540, height: 960, maxrateKbps: 1500 };
/**
 * The demo's HLS ladder, lowest first: players start with the first variant (hls.js at level 0, native HLS
 * at the first listed), and the lowest is the one kept for offline. 270x480, a quarter of the pixels, is
 * what adaptive bitrate steps down to on a slow link (400 kbps plus audio holds on a weak 3G connection),
 * and costs a fraction of the 540p encode.
 */
export const DEMO_LADDER: readonly Rendition[] = [{ width: 270, height: 480, maxrateKbps: 400 }, DEMO_TOP];
const FPS = 30;

export const demoClip = (index: number): DemoClip => ({
  source: demoPattern(index).source,
  seconds: demoSeconds(index),
  fps: FPS,
  toneHz: demoToneHz(index),
  renditions: DEMO_LADDER,
});

/**
 * Generates HLS + thumbnail for one demo video and marks it approved, unless it is no longer unfinished (done,
 * or deleted meanwhile). Safe to run twice: it writes into a private temporary folder and swaps it in at the
 * end.
 */
export async function generateDemoVideo(
  deps: { db: Db; storage: MediaStorage },
  videoId: number,
): Promise<void> {
  const [video] = await deps.db.select().from(videos).where(eq(videos.id, videoId));
  if (!video?.demoRecipe || !UNFINISHED.includes(video.status)) return;
  const index = Number(video.demoRecipe.index);
  const clip = demoClip(index);
  const dir = videoMediaDir(video);
  const tmp = await fs.mkdtemp(path.join(await deps.storage.workDir('tmp'), `video-${videoId}-`));
  try {
    // Renditions are named by their short side, as players and people name them (540p, not 960p).
    for (const r of clip.renditions) await fs.mkdir(path.dirname(renditionOutput(tmp, r).playlist));
    await ffmpeg(demoClipArgs(clip, { dir: tmp, thumbnail: path.join(tmp, 'thumb.jpg') }), {
      timeoutMs: 120_000,
    });
    await finishPoster(tmp, 'thumb.jpg', DEMO_TOP);
    await fs.writeFile(
      path.join(tmp, 'master.m3u8'),
      masterPlaylist(
        clip.renditions.map((rendition) => ({
          uri: `${renditionName(rendition)}/index.m3u8`,
          rendition,
          audioKbps: AUDIO_KBPS,
          fps: clip.fps,
        })),
      ),
    );
    await deps.storage.publishDir(tmp, dir);
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw err;
  }
  const [approved] = await deps.db
    .update(videos)
    .set({
      status: 'approved',
      playlistPath: `${dir}/master.m3u8`,
      thumbnailPath: `${dir}/thumb.jpg`,
      tilePath: `${dir}/tile.jpg`,
      durationSeconds: clip.seconds,
      width: DEMO_TOP.width,
      height: DEMO_TOP.height,
      isVertical: true,
      // Lowest first, with the master playlist's BANDWIDTH, as the upload pipeline records them.
      renditions: clip.renditions.map((r) => ({
        width: r.width,
        height: r.height,
        bandwidth: (r.maxrateKbps + AUDIO_KBPS) * 1000,
      })),
      approvedAt: new Date(),
      updatedAt: new Date(),
    })
    // A delete while ffmpeg ran must stay a delete.
    .where(and(eq(videos.id, videoId), inArray(videos.status, UNFINISHED)))
    .returning({ id: videos.id });
  if (!approved) await discardIfDeleted(deps, videoId, dir);
  else contentChanged(deps.db);
}

/** Writes one generated still (avatar, cover, icon) and returns its media-relative path. */
export async function generateStill(
  storage: MediaStorage,
  source: string,
  size: { width: number; height: number },
  relative: string,
  /** Into private storage (never served): the demo's identity documents. */
  where: 'public' | 'private' = 'public',
): Promise<string> {
  const tmp = await fs.mkdtemp(path.join(await storage.workDir('tmp'), 'still-'));
  try {
    const out = path.join(tmp, path.basename(relative));
    await ffmpeg(stillImageArgs(source, size.width, size.height, out), { timeoutMs: 30_000 });
    if (where === 'private') await storage.putPrivate(relative, out);
    else await storage.putFile(relative, out);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return relative;
}

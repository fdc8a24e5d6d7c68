import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';
import type { QueueSpec } from '../jobs/boss';
import { demoPattern, demoSeconds, demoToneHz } from '../seed/patterns';
import { contentChanged } from '../videos/freshness';
import { type DemoClip, demoClipArgs, masterPlaylist, type Rendition, stillImageArgs } from './args';
import { ffmpeg } from './ffmpeg';
import { discardIfDeleted, finishPoster, UNFINISHED } from './pipeline';
import { type MediaStorage, videoMediaDir } from './storage';

export const DEMO_MEDIA_QUEUE: QueueSpec = {
  name: 'demo-media',
  expireInSeconds: 300,
  retryLimit: 3,
  // Two clips at a time keep both cores busy: some pattern filters are single-threaded.
  concurrency: 2,
};

/** Vertical 540x960: the smallest size the issue allows, and what most phones show at full width. */
export const DEMO_RENDITION: Rendition = { width: 540, height: 960, maxrateKbps: 1500 };
const AUDIO_KBPS = 96;
const FPS = 30;

export const demoClip = (index: number): DemoClip => ({
  source: demoPattern(index).source,
  seconds: demoSeconds(index),
  fps: FPS,
  toneHz: demoToneHz(index),
  rendition: DEMO_RENDITION,
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
    const variant = `${Math.min(clip.rendition.width, clip.rendition.height)}p`;
    await fs.mkdir(path.join(tmp, variant));
    await ffmpeg(
      demoClipArgs(clip, {
        playlist: path.join(tmp, variant, 'index.m3u8'),
        segmentPattern: path.join(tmp, variant, 'seg_%03d.ts'),
        thumbnail: path.join(tmp, 'thumb.jpg'),
      }),
      { timeoutMs: 120_000 },
    );
    await finishPoster(tmp, 'thumb.jpg', clip.rendition);
    await fs.writeFile(
      path.join(tmp, 'master.m3u8'),
      masterPlaylist([{ uri: `${variant}/index.m3u8`, rendition: clip.rendition, audioKbps: AUDIO_KBPS }]),
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
      width: clip.rendition.width,
      height: clip.rendition.height,
      isVertical: true,
      renditions: [
        {
          width: clip.rendition.width,
          height: clip.rendition.height,
          bandwidth: clip.rendition.maxrateKbps * 1000,
        },
      ],
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

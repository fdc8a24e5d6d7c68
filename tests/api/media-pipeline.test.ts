// The media pipeline on real ffmpeg and real pg-boss: an accepted upload goes through preprocess and the
// HLS ladder to approved; silent and rotated sources; a worker that died mid-job is replaced by the sweep;
// a video that keeps failing ends in error; the lowest rendition plays before the rest exist, the rest are
// a job of their own at the lowest CPU priority, and a ladder cut in the middle is finished by the next job
// without touching what was published.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as t from '../../server/db/schema';
import { configureBinaries, ffmpeg, ffprobe } from '../../server/media/ffmpeg';
import {
  acceptUpload,
  enqueue,
  ladderVideo,
  MAX_MEDIA_ATTEMPTS,
  type PipelineDeps,
  preprocessVideo,
  processVideo,
  startMediaWorkers,
  sweepStuckVideos,
  UNPUBLISHED_AT,
  VIDEO_LADDER_QUEUE,
  VIDEO_PREPROCESS_QUEUE,
  VIDEO_PROCESS_QUEUE,
} from '../../server/media/pipeline';
import { type MediaStorage, videoMediaDir } from '../../server/media/storage';
import { createTestContext, insertUser, type TestContext, waitForLadder } from './helpers';
import { ffmpegNicenessWhile, makeClip, probeFile, probeHls } from './media-fixtures';

const STALE_SECONDS = 3;

async function waitForStatus(ctx: TestContext, id: number, wanted: string[], timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    if (row && wanted.includes(row.status)) return row;
    if (Date.now() > until) throw new Error(`video ${id} still ${row?.status} (${row?.statusReason})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function pipelineOf(
  ctx: TestContext,
): PipelineDeps & { database: TestContext['database']; jobs: NonNullable<TestContext['jobs']> } {
  if (!ctx.jobs) throw new Error('jobs expected');
  return {
    db: ctx.database.db,
    database: ctx.database,
    storage: ctx.storage,
    jobs: ctx.jobs,
    staleSeconds: STALE_SECONDS,
  };
}

/** The pg-boss jobs of a video, oldest first. */
const jobStatesOf = async (ctx: TestContext, id: number) =>
  (
    (await ctx.database.executeSql(
      `select name, state::text as state from pgboss.job where data->>'videoId' = $1 order by created_on`,
      [String(id)],
    )) as { rows: { name: string; state: string }[] }
  ).rows;

/** acceptUpload moves its file away: give it a copy. */
async function accept(ctx: TestContext, source: string, userId: number) {
  const copy = path.join(ctx.config.dataDir, `upload-${Math.random().toString(36).slice(2)}`);
  await fs.copyFile(source, copy);
  const outcome = await acceptUpload(pipelineOf(ctx), copy, userId);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.videoId;
}

describe('media pipeline with running workers', () => {
  let ctx: TestContext;
  let owner: number;
  let stopSweep = () => {};
  let fixtures: string;

  beforeAll(async () => {
    ctx = await createTestContext({ jobs: true });
    owner = (await insertUser(ctx)).id;
    fixtures = await fs.mkdtemp(path.join(ctx.config.dataDir, 'fixtures-'));
    stopSweep = await startMediaWorkers(pipelineOf(ctx));
  });
  afterAll(async () => {
    stopSweep();
    await ctx.close();
  });

  it('takes a vertical upload through preprocess and the ladder up to its size, metadata stripped', async () => {
    const source = path.join(fixtures, 'tagged.mp4');
    await makeClip(fixtures, 'plain.mp4', { width: 540, height: 960, seconds: 3 });
    // Metadata a phone leaves in a file: none of it may reach what we publish.
    await ffmpeg([
      '-v',
      'error',
      '-y',
      '-i',
      path.join(fixtures, 'plain.mp4'),
      '-c',
      'copy',
      '-metadata',
      'title=private-title-1234',
      '-metadata',
      'location=+48.8566+002.3522/',
      source,
    ]);
    const id = await accept(ctx, source, owner);
    const [uploaded] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    expect(uploaded).toMatchObject({ userId: owner, width: 540, height: 960, isVertical: true });
    expect(uploaded?.publishAt.getTime()).toBe(UNPUBLISHED_AT.getTime());
    // Served without a login, so its folder is named with a random key rather than by its id alone.
    expect(uploaded?.mediaKey).toMatch(/^[\w-]{22}$/);
    const folder = `videos/${id}-${uploaded?.mediaKey}`;
    expect(uploaded?.thumbnailPath).toBe(`${folder}/first.jpg`);
    // The original is private: under DATA_DIR/private, not the served media root.
    expect(uploaded?.sourcePath).toBe(`originals/${id}/source`);
    await fs.access(ctx.storage.privateAbs(`originals/${id}/source`));

    const video = await waitForLadder(ctx.database.db, id);
    expect(video.playlistPath).toBe(`${folder}/master.m3u8`);
    expect(video.thumbnailPath).toBe(`${folder}/thumb.jpg`);
    expect(video.tilePath).toBe(`${folder}/tile.jpg`);
    expect(video.renditions).toEqual([
      { width: 360, height: 640, bandwidth: 896_000 },
      { width: 540, height: 960, bandwidth: 1_596_000 },
    ]);
    // No details yet: processed, but not public.
    expect(video.publishAt.getTime()).toBe(UNPUBLISHED_AT.getTime());

    const dir = ctx.storage.abs(folder);
    const master = await fs.readFile(path.join(dir, 'master.m3u8'), 'utf8');
    expect(master).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=896000,RESOLUTION=360x640,CODECS="avc1.4d401e,mp4a.40.2"\n360p/index.m3u8\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=1596000,RESOLUTION=540x960,CODECS="avc1.4d401f,mp4a.40.2"\n540p/index.m3u8\n',
    );
    for (const [name, width, height] of [
      ['360p', 360, 640],
      ['540p', 540, 960],
    ] as const) {
      const media = await fs.readFile(path.join(dir, name, 'index.m3u8'), 'utf8');
      expect(media).toContain('#EXT-X-ENDLIST');
      expect(media).toMatch(/#EXT-X-TARGETDURATION:2\n/);
      const probe = await probeHls(path.join(dir, name, 'index.m3u8'), ctx.config.dataDir);
      expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width, height });
      expect(probe.duration).toBeCloseTo(3, 0);
      const segments = await fs.readdir(path.join(dir, name));
      for (const segment of segments) {
        const bytes = await fs.readFile(path.join(dir, name, segment));
        expect(bytes.includes('private-title-1234'), segment).toBe(false);
        expect(bytes.includes('48.8566'), segment).toBe(false);
      }
    }
    // Keyframes every 2 s, so each 2 s segment starts with one.
    const { stdout } = await ffprobe([
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time,flags',
      '-of',
      'csv=p=0',
      path.join(dir, '360p.mp4'),
    ]);
    const keyframes = stdout
      .trim()
      .split('\n')
      .filter((line) => line.split(',')[1]?.startsWith('K'))
      .map((line) => Number(line.split(',')[0]));
    expect(keyframes.map((k) => Number((k - (keyframes[0] ?? 0)).toFixed(2)))).toEqual([0, 2]);
    // The progressive fallback starts playing before it is loaded: index (moov) before data (mdat).
    const mp4 = await fs.readFile(path.join(dir, '360p.mp4'));
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
    expect(mp4.includes('private-title-1234')).toBe(false);
    const thumb = await probeFile(path.join(dir, 'thumb.jpg'));
    expect(thumb.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 540, height: 960 });
    expect((await probeFile(path.join(dir, 'first.jpg'))).streams[0]).toMatchObject({ codec_name: 'mjpeg' });
    // Grids load the tile: half the poster's size each way, and a fraction of its bytes.
    const tile = await probeFile(path.join(dir, 'tile.jpg'));
    expect(tile.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 270, height: 480 });
    const bytes = async (name: string) => (await fs.stat(path.join(dir, name))).size;
    expect(await bytes('tile.jpg')).toBeLessThan((await bytes('thumb.jpg')) / 2);
    // No work folders are left behind.
    expect(await fs.readdir(ctx.storage.privateAbs('tmp'))).toEqual([]);
  });

  it('gives a silent source a silent AAC track and never upscales a small one', async () => {
    const file = await makeClip(fixtures, 'silent.mp4', {
      width: 180,
      height: 320,
      seconds: 2,
      audio: false,
    });
    const id = await accept(ctx, file, owner);
    const video = await waitForStatus(ctx, id, ['approved', 'error']);
    expect(video.status, video.statusReason ?? '').toBe('approved');
    expect(video.renditions).toEqual([{ width: 180, height: 320, bandwidth: 896_000 }]);
    const probe = await probeHls(ctx.storage.abs(video.playlistPath ?? ''), ctx.config.dataDir);
    expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });

  it('applies the rotation a phone stores: a landscape frame marked 90° is a vertical video', async () => {
    const file = await makeClip(fixtures, 'rotated.mp4', { width: 320, height: 180, seconds: 1, rotate: 90 });
    const id = await accept(ctx, file, owner);
    const video = await waitForStatus(ctx, id, ['approved', 'error']);
    expect(video.status, video.statusReason ?? '').toBe('approved');
    expect(video).toMatchObject({ width: 180, height: 320, isVertical: true });
    const probe = await probeHls(
      ctx.storage.abs(`${videoMediaDir(video)}/180p/index.m3u8`),
      ctx.config.dataDir,
    );
    expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 180, height: 320 });
  });

  it('gives up with a reason after too many attempts instead of looping', async () => {
    const file = await makeClip(fixtures, 'doomed.mp4', { width: 180, height: 320, seconds: 1 });
    const id = await accept(ctx, file, owner);
    await waitForStatus(ctx, id, ['approved', 'error']);
    // As if workers had died on this video again and again.
    await ctx.database.db
      .update(t.videos)
      .set({ status: 'processing', mediaAttempts: MAX_MEDIA_ATTEMPTS })
      .where(eq(t.videos.id, id));
    await enqueue(pipelineOf(ctx).jobs, id, 'process');
    const video = await waitForStatus(ctx, id, ['error'], 20_000);
    expect(video.statusReason).toBe('The video could not be processed.');
  });
});

describe('the sweep', () => {
  let ctx: TestContext;
  let owner: number;
  let clip: string;

  beforeAll(async () => {
    ctx = await createTestContext({ jobs: true });
    owner = (await insertUser(ctx)).id;
    clip = await makeClip(ctx.config.dataDir, 'clip.mp4', { width: 180, height: 320, seconds: 1 });
  });
  afterAll(() => ctx.close());

  const jobStates = (id: number) => jobStatesOf(ctx, id);

  it('starts a video that never got a job (a crash between the row and the queue)', async () => {
    const deps = pipelineOf(ctx);
    const id = await accept(ctx, clip, owner);
    // Remove its job as if the process had died before sending it.
    await ctx.database.executeSql(`delete from pgboss.job where data->>'videoId' = $1`, [String(id)]);
    await ctx.database.db
      .update(t.videos)
      .set({ updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(t.videos.id, id));
    expect(await sweepStuckVideos(deps)).toEqual([id]);
    expect(await jobStates(id)).toEqual([{ name: VIDEO_PREPROCESS_QUEUE.name, state: 'created' }]);
    // A processing video with no job goes back to the processing queue, not to the start.
    await ctx.database.db
      .update(t.videos)
      .set({ status: 'processing', updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(t.videos.id, id));
    await ctx.database.executeSql(`delete from pgboss.job where data->>'videoId' = $1`, [String(id)]);
    expect(await sweepStuckVideos(deps)).toEqual([id]);
    expect(await jobStates(id)).toEqual([{ name: VIDEO_PROCESS_QUEUE.name, state: 'created' }]);
  });

  it('hands a video whose worker died mid-job to a new job, and leaves waiting ones alone', async () => {
    const deps = pipelineOf(ctx);
    const orphaned = await accept(ctx, clip, owner);
    const waiting = await accept(ctx, clip, owner);
    // Both have a queued preprocess job. A "worker" takes the first one's, and died an hour ago.
    const [orphanJob] = await deps.jobs.boss.fetch<{ videoId: number }>(VIDEO_PREPROCESS_QUEUE.name);
    expect(orphanJob?.data.videoId).toBe(orphaned);
    if (!orphanJob) throw new Error('job expected');
    await ctx.database.executeSql(
      `update pgboss.job set started_on = now() - interval '1 hour' where id = $1`,
      [orphanJob.id],
    );
    await ctx.database.db
      .update(t.videos)
      .set({
        status: 'preprocess',
        mediaAttempts: 1,
        mediaHeartbeatAt: sql`now() - interval '1 hour'`,
        updatedAt: sql`now() - interval '1 hour'`,
      })
      .where(eq(t.videos.id, orphaned));
    await ctx.database.db
      .update(t.videos)
      .set({ updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(t.videos.id, waiting));

    expect(await sweepStuckVideos(deps)).toEqual([orphaned]);
    expect(await jobStates(orphaned)).toEqual([
      { name: VIDEO_PREPROCESS_QUEUE.name, state: 'cancelled' },
      { name: VIDEO_PREPROCESS_QUEUE.name, state: 'created' },
    ]);
    // A second sweep finds the new job waiting and does nothing.
    expect(await sweepStuckVideos(deps)).toEqual([]);

    const stop = await startMediaWorkers(deps);
    try {
      for (const id of [waiting, orphaned]) {
        const video = await waitForStatus(ctx, id, ['approved', 'error']);
        expect(video.status, video.statusReason ?? '').toBe('approved');
      }
    } finally {
      stop();
    }
  });
});

describe('the ladder, lowest rendition first', () => {
  let ctx: TestContext;
  let owner: number;
  let clip: string;

  beforeAll(async () => {
    // Jobs on, but no workers: the test runs each stage itself, as a worker would, and looks in between.
    ctx = await createTestContext({ jobs: true });
    owner = (await insertUser(ctx)).id;
    clip = await makeClip(ctx.config.dataDir, 'ladder.mp4', { width: 720, height: 1280, seconds: 3 });
  });
  afterAll(() => ctx.close());

  const row = async (id: number) => {
    const [video] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    if (!video) throw new Error(`video ${id} is gone`);
    return video;
  };
  const job = (retryCount: number) => ({ id: 'test', retryCount });
  const served = (url: string) => ctx.app.inject({ method: 'GET', url });

  /**
   * The storage, except that publishing what ends in `ending` (a rendition's folder, '/540p', or a file,
   * '.mp4') first waits for `gate` (or fails).
   */
  function storageStoppingAt(ending: string, gate: () => Promise<void>): MediaStorage {
    const storage = ctx.storage;
    const stop = async (relative: string) => {
      if (relative.endsWith(ending)) await gate();
    };
    return new Proxy(storage, {
      get(target, key, receiver) {
        if (key === 'publishDir')
          return async (local: string, relative: string) => {
            await stop(relative);
            return storage.publishDir(local, relative);
          };
        if (key === 'putFile')
          return async (relative: string, local: string) => {
            await stop(relative);
            return storage.putFile(relative, local);
          };
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** A gate for storageStoppingAt that says when a job reached it (`reached`) and holds it until `release`. */
  function heldGate() {
    let release = () => {};
    let arrive = () => {};
    const reached = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gate = () => {
      arrive();
      return held;
    };
    return { reached, release, gate };
  }

  async function preprocessed() {
    const id = await accept(ctx, clip, owner);
    await preprocessVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    expect((await row(id)).status).toBe('preprocess');
    return id;
  }

  const MASTER_360 =
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
    '#EXT-X-STREAM-INF:BANDWIDTH=896000,RESOLUTION=360x640,CODECS="avc1.4d401e,mp4a.40.2"\n360p/index.m3u8\n';
  const MASTER_ALL =
    `${MASTER_360}` +
    '#EXT-X-STREAM-INF:BANDWIDTH=1596000,RESOLUTION=540x960,CODECS="avc1.4d401f,mp4a.40.2"\n540p/index.m3u8\n' +
    '#EXT-X-STREAM-INF:BANDWIDTH=2896000,RESOLUTION=720x1280,CODECS="avc1.4d401f,mp4a.40.2"\n720p/index.m3u8\n';

  it('approves and serves the video with its lowest rendition, and leaves the others to a ladder job', async () => {
    const id = await preprocessed();
    // With priorities on (as the server runs), the first rendition at MEDIA_NICENESS.
    configureBinaries({ mediaNiceness: 10 });
    onTestFinished(() => configureBinaries({}));
    expect(await ffmpegNicenessWhile(() => processVideo(pipelineOf(ctx))({ videoId: id }, job(0)))).toEqual([
      10,
    ]);

    // Playable now: approved, one rendition, its MP4, the mark of a ladder still being built, and the
    // higher renditions waiting on a queue of their own (the next upload's lowest one goes first).
    const early = await row(id);
    const folder = videoMediaDir(early);
    expect(early.status).toBe('approved');
    expect(early.renditions).toEqual([{ width: 360, height: 640, bandwidth: 896_000 }]);
    expect(early.mediaHeartbeatAt).not.toBeNull();
    const master = await served(`/media/${folder}/master.m3u8`);
    expect(master.statusCode).toBe(200);
    expect(master.body).toBe(MASTER_360);
    // A master that grows may be cached for seconds only; what it names is complete and keeps longer.
    expect(master.headers['cache-control']).toBe('public, max-age=5');
    expect((await served(`/media/${folder}/360p/index.m3u8`)).headers['cache-control']).toBe(
      'public, max-age=60',
    );
    const probe = await probeHls(ctx.storage.abs(`${folder}/360p/index.m3u8`), ctx.config.dataDir);
    expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 360, height: 640 });
    expect(probe.duration).toBeCloseTo(3, 0);
    expect((await served(`/media/${folder}/360p.mp4`)).statusCode).toBe(200);
    expect((await served(`/media/${folder}/540p/index.m3u8`)).statusCode).toBe(404);
    expect(await jobStatesOf(ctx, id)).toContainEqual({ name: VIDEO_LADDER_QUEUE.name, state: 'created' });

    // The rest at the lowest priority: when both queues have work, the CPU goes to the video nobody can
    // watch yet.
    expect(await ffmpegNicenessWhile(() => ladderVideo(pipelineOf(ctx))({ videoId: id }, job(0)))).toEqual([
      19,
    ]);
    const done = await row(id);
    expect(done).toMatchObject({ status: 'approved', mediaHeartbeatAt: null });
    expect(done.approvedAt?.getTime()).toBe(early.approvedAt?.getTime());
    expect(done.renditions).toEqual([
      { width: 360, height: 640, bandwidth: 896_000 },
      { width: 540, height: 960, bandwidth: 1_596_000 },
      { width: 720, height: 1280, bandwidth: 2_896_000 },
    ]);
    expect((await served(`/media/${folder}/master.m3u8`)).body).toBe(MASTER_ALL);
    for (const name of ['540p', '720p']) {
      const media = await fs.readFile(ctx.storage.abs(`${folder}/${name}/index.m3u8`), 'utf8');
      expect(media).toContain('#EXT-X-ENDLIST');
    }
    expect(await fs.readdir(ctx.storage.privateAbs('tmp'))).toEqual([]);
  }, 120_000);

  it('keeps the mark of an unfinished ladder until a one-rendition video has its MP4', async () => {
    // A 360x640 upload: its ladder is the one rendition it is approved with, and the MP4 still follows.
    const small = await makeClip(ctx.config.dataDir, 'small.mp4', { width: 360, height: 640, seconds: 1 });
    const id = await accept(ctx, small, owner);
    await preprocessVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    const { reached: atMp4, release, gate } = heldGate();
    const storage = storageStoppingAt('.mp4', gate);
    const running = processVideo({ ...pipelineOf(ctx), storage })({ videoId: id }, job(0));
    await atMp4;
    // Playable, but a worker dying now must leave a video the sweep finishes, not one without its MP4.
    const early = await row(id);
    expect(early.status).toBe('approved');
    expect(early.renditions).toEqual([{ width: 360, height: 640, bandwidth: 896_000 }]);
    expect(early.mediaHeartbeatAt).not.toBeNull();
    release();
    await running;
    expect(await row(id)).toMatchObject({ status: 'approved', mediaHeartbeatAt: null });
    expect((await served(`/media/${videoMediaDir(early)}/360p.mp4`)).statusCode).toBe(200);
  });

  it('leaves a video alone while another job is building its ladder, then lets a retry in at once', async () => {
    const id = await preprocessed();
    await processVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    const { reached: atSecond, release, gate } = heldGate();
    const storage = storageStoppingAt('/540p', gate);
    const first = ladderVideo({ ...pipelineOf(ctx), storage })({ videoId: id }, job(0));
    await atSecond;
    const during = await row(id);
    const folder = videoMediaDir(during);
    const lowest = await fs.stat(ctx.storage.abs(`${folder}/360p/seg_000.ts`));

    // What pg-boss does when a job outlives its expiry, or a sweep on another machine: a second job for the
    // same video while the first still beats. It must not encode, publish or clear anything of the first's.
    await ladderVideo(pipelineOf(ctx))({ videoId: id }, job(1));
    await processVideo(pipelineOf(ctx))({ videoId: id }, job(1));
    const after = await row(id);
    expect(after.mediaAttempts).toBe(during.mediaAttempts);
    expect(after.mediaHeartbeatAt).not.toBeNull();
    expect(await fs.readFile(ctx.storage.abs(`${folder}/master.m3u8`), 'utf8')).toBe(MASTER_360);
    expect((await fs.stat(ctx.storage.abs(`${folder}/360p/seg_000.ts`))).mtimeMs).toBe(lowest.mtimeMs);

    release();
    await first;
    const done = await row(id);
    expect(done).toMatchObject({
      status: 'approved',
      mediaHeartbeatAt: null,
      mediaAttempts: during.mediaAttempts,
    });
    expect(await fs.readFile(ctx.storage.abs(`${folder}/master.m3u8`), 'utf8')).toBe(MASTER_ALL);

    // A job that throws hands the video back at once: pg-boss's retry does not wait for the lease to go stale.
    const again = await preprocessed();
    await processVideo(pipelineOf(ctx))({ videoId: again }, job(0));
    const failing = storageStoppingAt('/540p', async () => {
      throw new Error('disk full');
    });
    await expect(
      ladderVideo({ ...pipelineOf(ctx), storage: failing })({ videoId: again }, job(0)),
    ).rejects.toThrow('disk full');
    await ladderVideo(pipelineOf(ctx))({ videoId: again }, job(1));
    expect(await row(again)).toMatchObject({ status: 'approved', mediaHeartbeatAt: null });
  }, 90_000);

  it('finishes a ladder whose worker died after the lowest rendition, without redoing or repeating any', async () => {
    const id = await preprocessed();
    await processVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    const storage = storageStoppingAt('/540p', async () => {
      throw new Error('worker killed');
    });
    // The ladder job dies while the higher renditions are being published; pg-boss would retry it.
    await expect(ladderVideo({ ...pipelineOf(ctx), storage })({ videoId: id }, job(0))).rejects.toThrow(
      'worker killed',
    );
    const cut = await row(id);
    const folder = videoMediaDir(cut);
    expect(cut).toMatchObject({ status: 'approved', mediaAttempts: 3 });
    expect(cut.mediaHeartbeatAt).not.toBeNull();
    expect(await fs.readFile(ctx.storage.abs(`${folder}/master.m3u8`), 'utf8')).toBe(MASTER_360);
    const lowest = ctx.storage.abs(`${folder}/360p/seg_000.ts`);
    const before = await fs.stat(lowest);
    // What a kill in the middle of a publication leaves: a folder the master does not name.
    await fs.mkdir(ctx.storage.abs(`${folder}/540p`), { recursive: true });
    await fs.writeFile(ctx.storage.abs(`${folder}/540p/index.m3u8`), '#EXTM3U\n#EXT-X-TARGETDURATION:2\n');

    // No job left for it and the heartbeat stale: the sweep hands the approved video to a ladder job.
    // (With the other tests' process and ladder jobs, sent by the stages before and never taken here.)
    await ctx.database.executeSql(`delete from pgboss.job where data->>'videoId' = $1 or name in ($2, $3)`, [
      String(id),
      VIDEO_PROCESS_QUEUE.name,
      VIDEO_LADDER_QUEUE.name,
    ]);
    await ctx.database.db
      .update(t.videos)
      .set({ mediaHeartbeatAt: sql`now() - interval '1 hour'` })
      .where(eq(t.videos.id, id));
    expect(await sweepStuckVideos(pipelineOf(ctx))).toEqual([id]);
    // A worker takes the job the sweep sent (run here rather than by started workers, which would stay
    // subscribed to the queue and race the next test's own calls).
    const [handed] = await pipelineOf(ctx).jobs.boss.fetch<{ videoId: number }>(VIDEO_LADDER_QUEUE.name);
    expect(handed?.data).toEqual({ videoId: id });
    await ladderVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    {
      const done = await row(id);
      expect(done).toMatchObject({ status: 'approved', mediaHeartbeatAt: null });
      // Still the same approval, never withdrawn; the lowest rendition was not encoded again.
      expect(done.approvedAt?.getTime()).toBe(cut.approvedAt?.getTime());
      expect(done.mediaAttempts).toBe(4);
      expect(done.renditions?.map((r) => r.height)).toEqual([640, 960, 1280]);
      expect((await fs.stat(lowest)).mtimeMs).toBe(before.mtimeMs);
      expect(await fs.readFile(ctx.storage.abs(`${folder}/master.m3u8`), 'utf8')).toBe(MASTER_ALL);
      const media = await fs.readFile(ctx.storage.abs(`${folder}/540p/index.m3u8`), 'utf8');
      expect(media).toContain('#EXT-X-ENDLIST');
      const probe = await probeHls(ctx.storage.abs(`${folder}/540p/index.m3u8`), ctx.config.dataDir);
      expect(probe.duration).toBeCloseTo(3, 0);
    }
    // A sweep after the end finds nothing to hand over.
    await ctx.database.db
      .update(t.videos)
      .set({ updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(t.videos.id, id));
    expect(await sweepStuckVideos(pipelineOf(ctx))).toEqual([]);
  }, 90_000);

  it('approves without encoding again when the master was published but the row never said so', async () => {
    const id = await preprocessed();
    await processVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    await ladderVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    const first = await row(id);
    const folder = videoMediaDir(first);
    const lowest = await fs.stat(ctx.storage.abs(`${folder}/360p/seg_000.ts`));
    await fs.rm(ctx.storage.abs(`${folder}/360p.mp4`));
    // As if the worker had died between writing the master and approving the row.
    await ctx.database.db
      .update(t.videos)
      .set({
        status: 'processing',
        approvedAt: null,
        renditions: null,
        mediaHeartbeatAt: sql`now() - interval '1 hour'`,
      })
      .where(eq(t.videos.id, id));
    await processVideo(pipelineOf(ctx))({ videoId: id }, job(0));
    const again = await row(id);
    expect(again).toMatchObject({ status: 'approved', mediaHeartbeatAt: null });
    expect(again.renditions?.map((r) => r.height)).toEqual([640, 960, 1280]);
    expect((await fs.stat(ctx.storage.abs(`${folder}/360p/seg_000.ts`))).mtimeMs).toBe(lowest.mtimeMs);
    expect(await fs.readFile(ctx.storage.abs(`${folder}/master.m3u8`), 'utf8')).toBe(MASTER_ALL);
    // The MP4 fallback the first attempt had not made yet is made from the published rendition.
    const mp4 = await probeFile(ctx.storage.abs(`${folder}/360p.mp4`));
    expect(mp4.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  }, 60_000);
});

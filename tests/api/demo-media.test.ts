// Real ffmpeg, real pg-boss on the test database: the demo seed produces playable HLS and survives being
// run again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { playlistSeconds } from '../../server/media/args';
import { DEMO_MEDIA_QUEUE, generateDemoVideo } from '../../server/media/demo';
import {
  ensureHouseInstream,
  HOUSE_INSTREAM_DIR,
  HOUSE_INSTREAM_SECONDS,
} from '../../server/media/house-ads';
import { liveJobsOf, POSTER_MAX_BYTES, sweepStuckVideos } from '../../server/media/pipeline';
import { videoMediaDir } from '../../server/media/storage';
import { seedDemo } from '../../server/seed';
import { demoCreators, demoPages } from '../../server/seed/content';
import { createTestContext, type TestContext } from './helpers';
import { probeHls } from './media-fixtures';

let ctx: TestContext;
const VIDEOS = 2;

beforeAll(async () => {
  ctx = await createTestContext({ jobs: true });
  const jobs = ctx.jobs;
  if (!jobs) throw new Error('jobs expected');
  await jobs.work<{ videoId: number }>(DEMO_MEDIA_QUEUE, ({ videoId }) =>
    generateDemoVideo({ db: ctx.database.db, storage: ctx.storage }, videoId),
  );
  const pending = await seedDemo(
    { database: ctx.database, storage: ctx.storage, jobs, log: () => {} },
    { videoCount: VIDEOS },
  );
  expect(pending).toBe(VIDEOS);
  await jobs.idle(DEMO_MEDIA_QUEUE.name);
}, 180_000);
afterAll(() => ctx.close());

const count = async (table: typeof t.users | typeof t.videos | typeof t.pages) => {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row?.n ?? 0;
};

describe('demo seed', () => {
  it('creates creators, pages and videos, and the job queue approves every video', async () => {
    expect(await count(t.pages)).toBe(Object.keys(demoPages).length);
    const creators = await ctx.database.db.select().from(t.users).where(eq(t.users.isDemo, true));
    expect(creators.filter((u) => u.type !== 'user')).toHaveLength(demoCreators.length);
    expect(creators.filter((u) => u.type !== 'user').every((u) => u.avatarPath && u.coverPath)).toBe(true);
    const videos = await ctx.database.db.select().from(t.videos);
    expect(videos.map((v) => v.status)).toEqual(Array(VIDEOS).fill('approved'));
    // Each in its own folder named with a random key, as uploads are.
    for (const v of videos)
      expect(v.playlistPath).toMatch(new RegExp(`^videos/${v.id}-[\\w-]{22}/master\\.m3u8$`));
  });

  it("gives Luna her contest, 'Loop of the month', on her public profile", async () => {
    const luna = demoCreators.find((c) => c.username === 'luna_vega');
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/users/luna_vega' });
    expect(res.statusCode).toBe(200);
    const { contests } = res.json().data;
    expect(contests).toEqual([{ id: expect.any(Number), ...luna?.contest }]);
    expect(contests[0].title).toBe('Loop of the month');
  });

  it("fills Discover's four ranked carousels, the two 'this week' ones too", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/discover' });
    expect(res.statusCode).toBe(200);
    const { videos } = res.json();
    for (const group of ['liked_weekly', 'liked_all_time', 'viewed_weekly', 'viewed_all_time'])
      expect(videos[group], group).toHaveLength(VIDEOS);
  });

  it('writes a valid HLS ladder: 270x480 then 540x960, each H.264 + AAC, 5 to 15 s, 2 s segments', async () => {
    const [video] = await ctx.database.db.select().from(t.videos).orderBy(t.videos.id).limit(1);
    const master = ctx.storage.abs(video?.playlistPath ?? '');
    const text = await fs.readFile(master, 'utf8');
    // Lowest first: players start with the first variant, and the lowest is the one kept offline.
    expect(text.split('\n').filter((line) => line.endsWith('.m3u8'))).toEqual([
      '270p/index.m3u8',
      '540p/index.m3u8',
    ]);
    expect([...text.matchAll(/RESOLUTION=(\d+x\d+)/g)].map((m) => m[1])).toEqual(['270x480', '540x960']);
    for (const [variant, width, height] of [
      ['270p', 270, 480],
      ['540p', 540, 960],
    ] as const) {
      const playlist = path.join(path.dirname(master), variant, 'index.m3u8');
      const probe = await probeHls(playlist, ctx.config.dataDir);
      expect(probe.streams.map((s) => s.codec_name).sort(), variant).toEqual(['aac', 'h264']);
      expect(
        probe.streams.find((s) => s.codec_name === 'h264'),
        variant,
      ).toMatchObject({ width, height });
      expect(probe.duration, variant).toBeGreaterThanOrEqual(5);
      expect(probe.duration, variant).toBeLessThanOrEqual(15.5);
      const media = await fs.readFile(playlist, 'utf8');
      expect(media).toContain('#EXT-X-ENDLIST');
      expect(media).toMatch(/#EXT-X-TARGETDURATION:2\n/);
    }
    // The row keeps the size of the highest rendition (its poster's), and records both, lowest first.
    expect(video).toMatchObject({ width: 540, height: 960 });
    expect(video?.renditions).toEqual([
      { width: 270, height: 480, bandwidth: 496_000 },
      { width: 540, height: 960, bandwidth: 1_596_000 },
    ]);
  });

  it("serves every variant the master playlist lists, and each one's first segment", async () => {
    for (const video of await ctx.database.db.select().from(t.videos).orderBy(t.videos.id)) {
      const folder = `/media/${path.posix.dirname(video.playlistPath ?? '')}`;
      const master = await ctx.app.inject({ method: 'GET', url: `${folder}/master.m3u8` });
      expect(master.statusCode).toBe(200);
      const variants = master.body.split('\n').filter((line) => line.endsWith('.m3u8'));
      expect(variants, `video ${video.id}`).toEqual(['270p/index.m3u8', '540p/index.m3u8']);
      for (const variant of variants) {
        const media = await ctx.app.inject({ method: 'GET', url: `${folder}/${variant}` });
        expect(media.statusCode, variant).toBe(200);
        const first = media.body.split('\n').find((line) => line.endsWith('.ts'));
        expect(first, variant).toBe('seg_000.ts');
        const segment = await ctx.app.inject({
          method: 'GET',
          url: `${folder}/${path.posix.dirname(variant)}/${first}`,
        });
        expect(segment.statusCode, variant).toBe(200);
        expect(segment.rawPayload[0], variant).toBe(0x47); // MPEG-TS sync byte
      }
    }
  });

  it('serves playlists, segments and thumbnails with range support and proper types', async () => {
    const [video] = await ctx.database.db.select().from(t.videos).orderBy(t.videos.id).limit(1);
    const master = await ctx.app.inject({ method: 'GET', url: `/media/${video?.playlistPath}` });
    expect(master.statusCode).toBe(200);
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    const thumb = await ctx.app.inject({ method: 'GET', url: `/media/${video?.thumbnailPath}` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The grid-size tile is served too, lighter than the poster.
    const tile = await ctx.app.inject({ method: 'GET', url: `/media/${video?.tilePath}` });
    expect(tile.statusCode).toBe(200);
    expect(tile.rawPayload.length).toBeLessThan(thumb.rawPayload.length);
    const segment = `/media/${path.posix.dirname(video?.playlistPath ?? '')}/540p/seg_000.ts`;
    const ranged = await ctx.app.inject({ method: 'GET', url: segment, headers: { range: 'bytes=0-187' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toMatch(/^bytes 0-187\/\d+$/);
    expect(ranged.rawPayload.length).toBe(188);
    expect(ranged.rawPayload[0]).toBe(0x47); // MPEG-TS sync byte
  });

  it('keeps every poster light enough not to hold back the first segments, busy patterns too', async () => {
    const all = await ctx.database.db.select().from(t.videos).orderBy(t.videos.id);
    for (const video of all) {
      const poster = await fs.readFile(ctx.storage.abs(video.thumbnailPath ?? ''));
      expect(poster.length, `poster of video ${video.id}`).toBeLessThanOrEqual(POSTER_MAX_BYTES);
      expect(poster.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
  });

  it('refuses paths that escape the media folder', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/media/..%2F..%2Fetc%2Fpasswd' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('lists no folder and answers one exactly as a name that does not exist: 404 JSON', async () => {
    const [video] = await ctx.database.db.select().from(t.videos).orderBy(t.videos.id).limit(1);
    const folder = `/media/${path.posix.dirname(video?.playlistPath ?? '')}`;
    const missing = `${folder}-missing`;
    const get = (url: string) => ctx.app.inject({ method: 'GET', url });
    expect((await get(`${folder}/master.m3u8`)).statusCode).toBe(200);
    for (const url of [
      '/media/',
      '/media/videos/',
      `${folder}/`,
      folder,
      `${folder}/540p/`,
      `${folder}/540p/..`,
      `${folder}/.`,
      `${folder}%2F`,
      `${folder}/%2e`,
      `${missing}/`,
      missing,
      `${folder}/missing.ts`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'Not found.' });
    }
  });

  it('makes the house instream ad that the shipped ads.json plays, and every creative it names exists', async () => {
    const shipped = JSON.parse(await fs.readFile(path.resolve('public/ads.json'), 'utf8')) as {
      type: string;
      src?: string;
    }[];
    expect(shipped.map((p) => p.type).sort()).toEqual([
      'banner',
      'footer',
      'im',
      'instream',
      'native',
      'pop',
    ]);
    const instream = shipped.find((p) => p.type === 'instream');
    expect(instream?.src).toBe(`/media/${HOUSE_INSTREAM_DIR}/master.m3u8`);
    const master = await ctx.app.inject({ method: 'GET', url: instream?.src ?? '' });
    expect(master.statusCode).toBe(200);
    const variant = master.body.split('\n').find((line) => line.endsWith('.m3u8')) ?? '';
    const media = await ctx.app.inject({ method: 'GET', url: `/media/${HOUSE_INSTREAM_DIR}/${variant}` });
    expect(media.statusCode).toBe(200);
    // Long enough that Skip (at 5 s) comes before its end.
    expect(playlistSeconds(media.body)).toBeCloseTo(HOUSE_INSTREAM_SECONDS, 0);
    // The images are files of the build, beside ads.json.
    for (const p of shipped.filter((p) => p.src?.startsWith('/ads/')))
      await expect(fs.stat(path.resolve('public', `.${p.src}`))).resolves.toBeTruthy();

    // Made once: a restart finds it and leaves it alone.
    const file = ctx.storage.abs(`${HOUSE_INSTREAM_DIR}/master.m3u8`);
    const before = (await fs.stat(file)).mtimeMs;
    await ensureHouseInstream(ctx.storage, () => {});
    expect((await fs.stat(file)).mtimeMs).toBe(before);
  });

  it('does nothing the second time: no duplicate rows, nothing queued', async () => {
    const before = [await count(t.users), await count(t.videos), await count(t.pages)];
    const jobs = ctx.jobs;
    if (!jobs) throw new Error('jobs expected');
    const pending = await seedDemo(
      { database: ctx.database, storage: ctx.storage, jobs, log: () => {} },
      { videoCount: VIDEOS },
    );
    expect(pending).toBe(0);
    expect([await count(t.users), await count(t.videos), await count(t.pages)]).toEqual(before);
  });

  it('finishes a video whose media was lost mid-way when it is queued again', async () => {
    const [video] = await ctx.database.db.select().from(t.videos).orderBy(t.videos.id).limit(1);
    if (!video) throw new Error('video expected');
    const id = video.id;
    await ctx.storage.remove(videoMediaDir(video));
    await ctx.database.db.update(t.videos).set({ status: 'processing' }).where(eq(t.videos.id, id));
    const jobs = ctx.jobs;
    if (!jobs) throw new Error('jobs expected');
    expect(
      await seedDemo(
        { database: ctx.database, storage: ctx.storage, jobs, log: () => {} },
        { videoCount: VIDEOS },
      ),
    ).toBe(1);
    await jobs.idle(DEMO_MEDIA_QUEUE.name);
    const [after] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    expect(after?.status).toBe('approved');
    await expect(fs.stat(ctx.storage.abs(`${videoMediaDir(video)}/master.m3u8`))).resolves.toBeTruthy();
  });
});

// Demo videos have no upload: only their own job can make them, and nothing may approve a deleted one.
describe('demo videos waiting for their job', () => {
  const firstVideo = async () => {
    const [video] = await ctx.database.db.select().from(t.videos).orderBy(t.videos.id).limit(1);
    if (!video) throw new Error('video expected');
    return video;
  };
  const setStatus = (id: number, status: typeof t.videos.$inferSelect.status) =>
    ctx.database.db
      .update(t.videos)
      .set({ status, updatedAt: sql`now() - interval '1 hour'` })
      .where(eq(t.videos.id, id));
  const jobs = () => {
    if (!ctx.jobs) throw new Error('jobs expected');
    return ctx.jobs;
  };

  it('are left alone by the stuck-video sweep of the upload pipeline', async () => {
    const video = await firstVideo();
    await setStatus(video.id, 'processing');
    const deps = {
      database: ctx.database,
      db: ctx.database.db,
      storage: ctx.storage,
      jobs: jobs(),
      staleSeconds: 3,
    };
    expect(await sweepStuckVideos(deps)).toEqual([]);
    expect(await liveJobsOf(ctx.database, video.id)).toEqual([]);
  });

  it('are queued once by a restart in any unfinished status, however often it runs', async () => {
    const video = await firstVideo();
    await ctx.storage.remove(videoMediaDir(video));
    // Where the sweep used to leave them.
    await setStatus(video.id, 'preprocess');
    await ctx.database.executeSql(`delete from pgboss.job where name = $1 and data->>'videoId' = $2`, [
      DEMO_MEDIA_QUEUE.name,
      String(video.id),
    ]);
    const seed = () =>
      seedDemo(
        { database: ctx.database, storage: ctx.storage, jobs: jobs(), log: () => {} },
        { videoCount: VIDEOS },
      );
    await seed();
    await seed();
    const { rows } = await ctx.database.executeSql(
      `select count(*)::int as n from pgboss.job where name = $1 and data->>'videoId' = $2`,
      [DEMO_MEDIA_QUEUE.name, String(video.id)],
    );
    expect(rows).toEqual([{ n: 1 }]);
    await jobs().idle(DEMO_MEDIA_QUEUE.name);
    expect((await firstVideo()).status).toBe('approved');
  });

  it('stay deleted when the delete comes while the demo job runs', async () => {
    const video = await firstVideo();
    await ctx.storage.remove(videoMediaDir(video));
    await setStatus(video.id, 'processing');
    const running = generateDemoVideo({ db: ctx.database.db, storage: ctx.storage }, video.id);
    await setStatus(video.id, 'deleting');
    await running;
    expect((await firstVideo()).status).toBe('deleting');
    await expect(fs.stat(ctx.storage.abs(videoMediaDir(video)))).rejects.toThrow();
  });
});

// /media has no login (a <video> element sends no token), so a video's folder name is its lock: real uploads
// through the real workers, then what a stranger can guess, what each API caller is told, and what is
// served. Rows from before folder keys keep videos/{id}, through the migration itself too.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { cleanupVideo, VIDEO_CLEANUP_QUEUE } from '../../server/media/cleanup';
import { originalPath, startMediaWorkers, UNPUBLISHED_AT } from '../../server/media/pipeline';
import { videoMediaDir } from '../../server/media/storage';
import { multipartBody } from './form';
import { approveUpload, createPostgresDatabase, createTestContext, type TestContext } from './helpers';
import { makeClip } from './media-fixtures';
import { type Cast, createCast, type Role } from './social-helpers';

let ctx: TestContext;
let cast: Cast;
let clip: string;
let stopWorkers = () => {};

beforeAll(async () => {
  ctx = await createTestContext({ jobs: true });
  const jobs = ctx.jobs;
  if (!jobs) throw new Error('jobs expected');
  stopWorkers = await startMediaWorkers({
    db: ctx.database.db,
    database: ctx.database,
    storage: ctx.storage,
    jobs,
    staleSeconds: 30,
  });
  await jobs.work<{ videoId: number }>(VIDEO_CLEANUP_QUEUE, ({ videoId }) =>
    cleanupVideo({ db: ctx.database.db, storage: ctx.storage }, videoId),
  );
  cast = await createCast(ctx);
  clip = await makeClip(ctx.config.dataDir, 'clip.mp4', { width: 180, height: 320, seconds: 2 });
}, 60_000);
afterAll(async () => {
  stopWorkers();
  await ctx.close();
});

const get = (url: string, who: Role = 'guest') =>
  ctx.app.inject({ method: 'GET', url, headers: cast.headers[who] });

async function upload(): Promise<{ videoId: number; screenshot: string }> {
  const body = multipartBody({
    video: { filename: 'clip.mp4', contentType: 'video/mp4', data: await fs.readFile(clip) },
  });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/videos/upload',
    headers: { ...cast.headers.owner, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function waitApproved(id: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    if (row?.status === 'approved') return row;
    if (row?.status === 'error' || Date.now() > deadline) throw new Error(`video ${id}: ${row?.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const publish = async (videoId: number) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/videos/upload-details',
    headers: cast.headers.owner,
    payload: { videoId, title: 'Out now' },
  });
  expect(res.statusCode, res.body).toBe(200);
};

/** The video as a list shows it to `who`, if it is there. */
const listed = async (url: string, who: Role, id: number) =>
  ((await get(url, who)).json().data as { id: number; playlistUrl: string; thumbnailUrl: string }[]).find(
    (v) => v.id === id,
  );

describe('media of a video that is not public', () => {
  it('lives at an address the id does not give, that only its owner’s list reveals; public once published', async () => {
    const { videoId: id, screenshot } = await upload();
    const other = await upload();
    const key = screenshot.match(new RegExp(`^/media/videos/${id}-([\\w-]{22})/first\\.jpg$`))?.[1];
    expect(key, screenshot).toBeDefined();
    expect(other.screenshot).not.toContain(`${key}`);
    // The creator may look at their upload at once.
    expect((await get(screenshot, 'owner')).statusCode).toBe(200);

    // Processed, but no details yet: private.
    const row = await waitApproved(id);
    expect(row.publishAt.getTime()).toBe(UNPUBLISHED_AT.getTime());
    const folder = `/media/videos/${id}-${key}`;
    for (const file of ['master.m3u8', 'thumb.jpg', 'first.jpg']) {
      expect((await get(`${folder}/${file}`)).statusCode, file).toBe(200);
      // What the id alone lets anyone try.
      const guessed = await get(`/media/videos/${id}/${file}`);
      expect(guessed.statusCode, file).toBe(404);
      expect(guessed.json()).toEqual({ message: 'Not found.' });
    }
    for (const url of ['/media/videos/', `/media/videos/${id}/`, `${folder}/`]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }

    // No public call reveals the key, whoever asks; the owner and their studio's manager see the video.
    const owners = `/v1/users/${cast.ids.owner}/videos`;
    for (const who of ['guest', 'user', 'other'] as const) {
      for (const url of ['/v1/videos?per_page=50', owners, `/v1/videos/start/${id}`, '/v1/discover']) {
        expect((await get(url, who)).body, `${who} ${url}`).not.toContain(`${key}`);
      }
      expect((await get(`/v1/videos/start/${id}`, who)).statusCode).toBe(404);
    }
    for (const who of ['owner', 'manager'] as const) {
      expect(await listed(owners, who, id)).toMatchObject({
        playlistUrl: `${folder}/master.m3u8`,
        thumbnailUrl: `${folder}/thumb.jpg`,
      });
    }

    await publish(id);
    // Held for the operators (UPLOAD_REVIEW=before): still in no list, until one approves it.
    expect(await listed('/v1/videos?per_page=50', 'guest', id)).toBeUndefined();
    await approveUpload(ctx, id);
    const shown = await listed('/v1/videos?per_page=50', 'guest', id);
    expect(shown).toMatchObject({
      playlistUrl: `${folder}/master.m3u8`,
      thumbnailUrl: `${folder}/thumb.jpg`,
    });
    const master = await get(shown?.playlistUrl ?? '');
    expect(master.statusCode).toBe(200);
    const variant = master.body.split('\n').find((line) => line.endsWith('.m3u8')) ?? '';
    const media = await get(`${folder}/${variant}`);
    expect(media.statusCode, variant).toBe(200);
    const segment = media.body.split('\n').find((line) => line.endsWith('.ts')) ?? '';
    expect((await get(`${folder}/${path.posix.dirname(variant)}/${segment}`)).statusCode).toBe(200);
    expect((await get(shown?.thumbnailUrl ?? '')).statusCode).toBe(200);

    // Deleted: the keyed folder goes with it.
    expect((await get(`/v1/videos/${id}/delete`, 'owner')).statusCode).toBe(200);
    await ctx.jobs?.idle(VIDEO_CLEANUP_QUEUE.name);
    await expect(fs.access(ctx.storage.abs(`videos/${id}-${key}`))).rejects.toThrow();
    expect((await get(`${folder}/master.m3u8`)).statusCode).toBe(404);
  }, 120_000);
});

describe('a video from before folder keys', () => {
  it('is processed, served and deleted in videos/{id}', async () => {
    // As an upload accepted by the previous version left it: no key, the original in place, jobs pending.
    const [video] = await ctx.database.db
      .insert(t.videos)
      .values({ userId: cast.ids.owner, slug: 'video', status: 'uploaded', publishAt: UNPUBLISHED_AT })
      .returning();
    if (!video) throw new Error('insert failed');
    const id = video.id;
    expect(video.mediaKey).toBeNull();
    await ctx.storage.ensurePrivate(`originals/${id}`);
    await fs.copyFile(clip, ctx.storage.privateAbs(originalPath(id)));
    // The details start the processing a lost hand-over never started.
    await publish(id);
    const row = await waitApproved(id);
    expect(row.playlistPath).toBe(`videos/${id}/master.m3u8`);
    await approveUpload(ctx, id);
    const shown = await listed('/v1/videos?per_page=50', 'guest', id);
    expect(shown).toMatchObject({
      playlistUrl: `/media/videos/${id}/master.m3u8`,
      thumbnailUrl: `/media/videos/${id}/thumb.jpg`,
    });
    expect((await get(shown?.playlistUrl ?? '')).statusCode).toBe(200);
    expect((await get(shown?.thumbnailUrl ?? '')).statusCode).toBe(200);

    expect((await get(`/v1/videos/${id}/delete`, 'owner')).statusCode).toBe(200);
    await ctx.jobs?.idle(VIDEO_CLEANUP_QUEUE.name);
    await expect(fs.access(ctx.storage.abs(`videos/${id}`))).rejects.toThrow();
  }, 120_000);

  it('keeps no key through the migration that adds it, so its folder stays videos/{id}', async () => {
    const migrations = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));
    const journal = JSON.parse(await fs.readFile(path.join(migrations, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const keyed = journal.entries.findIndex((e) => e.tag.endsWith('_private_media'));
    expect(keyed).toBeGreaterThan(0);
    // The migrations as they were before the key.
    const before = await fs.mkdtemp(path.join(ctx.config.dataDir, 'migrations-'));
    await fs.mkdir(path.join(before, 'meta'));
    const earlier = journal.entries.slice(0, keyed);
    await fs.writeFile(
      path.join(before, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: earlier }),
    );
    for (const e of earlier)
      await fs.copyFile(path.join(migrations, `${e.tag}.sql`), path.join(before, `${e.tag}.sql`));

    const pg = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
    const database = await openDatabase({ databaseUrl: pg?.url ?? 'memory://', dataDir: ctx.config.dataDir });
    try {
      if (database.kind === 'postgres') await migratePg(database.db as never, { migrationsFolder: before });
      else await migratePglite(database.db as never, { migrationsFolder: before });
      // Raw SQL: the app's schema already has columns this database does not.
      const { rows: users } = await database.executeSql(
        `insert into users (type, name, username, slug, email, password_hash)
         values ('model', 'Old', 'old_creator', 'old_creator', 'old@example.test', 'x') returning id`,
      );
      const { rows } = await database.executeSql(
        `insert into videos (user_id, slug) values ($1, 'old') returning id`,
        [(users[0] as { id: number }).id],
      );
      const id = (rows[0] as { id: number }).id;
      await database.migrate();
      const [row] = await database.db.select().from(t.videos).where(eq(t.videos.id, id));
      if (!row) throw new Error('row expected');
      expect(row.mediaKey).toBeNull();
      expect(videoMediaDir(row)).toBe(`videos/${id}`);
    } finally {
      await database.close();
      await pg?.drop();
    }
  });
});

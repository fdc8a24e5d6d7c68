// A finished tus upload becomes a video whenever the server dies: the real server process is killed with
// SIGKILL while it finishes an upload (before the video row exists, right after it, and after everything but
// marking the session complete), then started again on the same data. The kill lands in its window by a
// hook, not by timing: with SHORTCAMS_CRASH_POINT set, the server stops at that point and says so
// (server/util/crash-point.ts). A client resuming after the restart (HEAD, as tus-js-client does) gets the
// video, which is then processed to approved; there is exactly one video, and nothing is left in the upload
// area.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { CRASH_POINT_ENV } from '../../server/util/crash-point';
import { type RunningServer, startServer } from '../e2e/server';
import { createPostgresDatabase } from './helpers';
import { makeClip } from './media-fixtures';
import { until } from './until';

let dataDir: string;
let pg: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
let env: Record<string, string>;
let auth: Record<string, string>;
let creatorId: number;
let clip: Buffer;

/** The database as the dead server left it (PGlite lets one process at a time open its files). */
async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) {
  const database = await openDatabase({ ...loadConfig({}), dataDir, databaseUrl: pg?.url });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-crash-'));
  pg = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  // A short stale time: the media sweep runs every 2 s and must leave an upload being finished alone.
  env = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    MEDIA_STALE_SECONDS: '4',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  await withDatabase(async (database) => {
    await database.migrate();
    const [creator] = await database.db
      .insert(t.users)
      .values({
        type: 'model',
        name: 'Crash Test',
        username: 'crash_test',
        slug: 'crash-test',
        email: 'crash@example.test',
        passwordHash: 'x',
        verificationStatus: 'approved',
      })
      .returning();
    creatorId = creator?.id ?? 0;
    auth = { authorization: `Bearer ${await issueAccessToken(database.db, creatorId, false)}` };
  });
  clip = await fs.readFile(await makeClip(dataDir, 'crash.mp4', { width: 180, height: 320, seconds: 3 }));
}, 120_000);

afterAll(async () => {
  await pg?.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const tus = (extra: Record<string, string> = {}) => ({ ...auth, 'tus-resumable': '1.0.0', ...extra });

/** Starts the server, sends a whole upload, and kills -9 the server when it reports reaching `point`. */
async function uploadAndKillAt(point: string): Promise<string> {
  const server = await startServer({ env: { ...env, [CRASH_POINT_ENV]: point }, timeoutMs: 120_000 });
  const reached = new Promise<void>((resolve) => {
    let out = '';
    server.process.stdout?.on('data', (data) => {
      out += data;
      if (out.includes(`[crash-point] ${point}`)) resolve();
    });
  });
  const created = await fetch(`${server.url}/v1/uploads`, {
    method: 'POST',
    headers: tus({ 'upload-length': String(clip.length) }),
  });
  expect(created.status).toBe(201);
  const location = String(created.headers.get('location'));
  const patch = fetch(`${server.url}${location}`, {
    method: 'PATCH',
    headers: tus({ 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
    body: new Uint8Array(clip),
  }).then(
    (res) => res.status,
    () => 'no answer',
  );
  await reached;
  await kill(server);
  // The client never heard back: it has no Video-Id.
  expect(await patch).toBe('no answer');
  return location;
}

async function kill(server: RunningServer) {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGKILL');
  await exited;
}

/** After the restart: the resuming client's HEAD gets the video, which is processed to approved. */
async function expectRecovered(location: string) {
  const server = await startServer({ env, timeoutMs: 120_000 });
  try {
    const head = await fetch(`${server.url}${location}`, { method: 'HEAD', headers: tus() });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(clip.length));
    const videoId = Number(head.headers.get('video-id'));
    expect(videoId).toBeGreaterThan(0);
    expect(head.headers.get('video-screenshot')).toMatch(/first\.jpg$/);
    const outcome = await fetch(`${server.url}${location}/video`, { headers: auth });
    expect(outcome.status).toBe(200);
    expect(await outcome.json()).toMatchObject({ videoId });
    await until(
      `video ${videoId} approved`,
      async () => {
        const res = await fetch(`${server.url}/v1/users/${creatorId}/videos`, { headers: auth });
        const list = (await res.json()) as { data: { id: number; status: string }[] };
        const status = list.data.find((v) => v.id === videoId)?.status;
        if (status === 'error') throw new Error(`video ${videoId} ended in error`);
        return status === 'approved' ? true : undefined;
      },
      120_000,
    );
    return videoId;
  } finally {
    await server.stop();
  }
}

const videosOfCreator = (database: Awaited<ReturnType<typeof openDatabase>>) =>
  database.db.select().from(t.videos).where(eq(t.videos.userId, creatorId));

describe('a server killed -9 while it finishes a tus upload', () => {
  it('before the video row exists: the complete file becomes the video after the restart', async () => {
    const before = await withDatabase(async (db) => (await videosOfCreator(db)).length);
    const location = await uploadAndKillAt('upload-finish:before-accept');
    const id = location.split('/').pop() as string;
    // The window: every byte on disk, no video, the session open.
    expect((await fs.stat(path.join(dataDir, 'private/tus', id))).size).toBe(clip.length);
    await withDatabase(async (db) => {
      expect((await videosOfCreator(db)).length).toBe(before);
      const [session] = await db.db.select().from(t.uploadSessions).where(eq(t.uploadSessions.id, id));
      expect(session).toMatchObject({ videoId: null, completedAt: null });
    });
    await expectRecovered(location);
    await withDatabase(async (db) => expect((await videosOfCreator(db)).length).toBe(before + 1));
    expect(await fs.readdir(path.join(dataDir, 'private/tus'))).not.toContain(id);
  }, 300_000);

  it('right after the row, before the file moved: one video, not an orphan row and a copy', async () => {
    const before = await withDatabase(async (db) => (await videosOfCreator(db)).length);
    const location = await uploadAndKillAt('upload-finish:row-created');
    const id = location.split('/').pop() as string;
    const half = await withDatabase(async (db) => {
      const [session] = await db.db.select().from(t.uploadSessions).where(eq(t.uploadSessions.id, id));
      expect(session?.videoId).toEqual(expect.any(Number));
      expect(session?.completedAt).toBeNull();
      const [row] = await db.db
        .select()
        .from(t.videos)
        .where(eq(t.videos.id, session?.videoId ?? 0));
      expect(row).toMatchObject({ status: 'uploaded', sourcePath: null });
      return row?.id;
    });
    expect((await fs.stat(path.join(dataDir, 'private/tus', id))).size).toBe(clip.length);
    const videoId = await expectRecovered(location);
    expect(videoId).not.toBe(half);
    await withDatabase(async (db) => expect((await videosOfCreator(db)).length).toBe(before + 1));
  }, 300_000);

  it('after the video was made, before the session was marked complete: that same video', async () => {
    const before = await withDatabase(async (db) => (await videosOfCreator(db)).length);
    const location = await uploadAndKillAt('upload-finish:before-complete');
    const id = location.split('/').pop() as string;
    const made = await withDatabase(async (db) => {
      const [session] = await db.db.select().from(t.uploadSessions).where(eq(t.uploadSessions.id, id));
      expect(session?.completedAt).toBeNull();
      const [row] = await db.db
        .select()
        .from(t.videos)
        .where(eq(t.videos.id, session?.videoId ?? 0));
      expect(row?.sourcePath).toBe(`originals/${row?.id}/source`);
      return row?.id;
    });
    expect(await expectRecovered(location)).toBe(made);
    await withDatabase(async (db) => expect((await videosOfCreator(db)).length).toBe(before + 1));
  }, 300_000);
});

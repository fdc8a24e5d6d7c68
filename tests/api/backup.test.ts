// Issue 32: `npm run admin -- backup DIR` of a server that is running, with a processed video, a like and a tus
// upload half sent, then `restore DIR` into another, empty data dir (and database) served on another port.
// Everything is real: the server processes, the CLI as an operator types it (on PGlite its command goes to the
// running server over the operator socket), ffmpeg, PGlite on disk, or pg_dump and pg_restore when the suite
// runs on PostgreSQL (DATABASE_URL). What the backup holds is the moment it was taken: a like withdrawn after
// it is still there once restored, and the upload resumes from the bytes the backup had.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backup, restore } from '../../server/admin/backup';
import { hashPassword } from '../../server/auth/password';
import { CliError } from '../../server/cli';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { S3Storage } from '../../server/media/storage';
import { type RunningServer, startServer } from '../e2e/server';
import { createPostgresDatabase, createTestContext, insertUser } from './helpers';
import { makeClip } from './media-fixtures';
import { until } from './until';

const root = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'backup and restore';
const EMAIL = 'backup@example.test';

type PgDatabase = Awaited<ReturnType<typeof createPostgresDatabase>>;
let work: string;
let pgA: PgDatabase | undefined;
let pgB: PgDatabase | undefined;
let envA: Record<string, string>;
let envB: Record<string, string>;
let backupDir: string;
let server1: RunningServer | undefined;
let server2: RunningServer | undefined;
let creatorId: number;
let second: Buffer;

const onPostgres = Boolean(process.env.DATABASE_URL);

/** `npm run admin -- …` as an operator types it, with the data dir (and database) of `env`. */
function admin(env: Record<string, string>, ...argv: string[]) {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.DATABASE_URL;
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...argv], {
      cwd: root,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const modeOf = async (file: string) => (await fs.stat(file)).mode & 0o777;

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

async function login(base: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { access_token } = (await res.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}` };
}

interface ListedVideo {
  id: number;
  status: string;
  likeCount: number;
  playlistUrl: string;
  thumbnailUrl: string;
}
async function videosOf(base: string, headers: Record<string, string> = {}): Promise<ListedVideo[]> {
  const res = await fetch(`${base}/v1/users/${creatorId}/videos`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ListedVideo[] }).data;
}

/** The master playlist, the poster and the first segment of the first rendition, as a player fetches them. */
async function mediaOf(base: string, video: ListedVideo) {
  const master = await fetch(`${base}${video.playlistUrl}`);
  expect(master.status).toBe(200);
  const masterText = await master.text();
  const rendition = masterText.split('\n').find((line) => line && !line.startsWith('#')) ?? '';
  const renditionUrl = new URL(rendition, `${base}${video.playlistUrl}`);
  const playlist = await fetch(renditionUrl);
  expect(playlist.status).toBe(200);
  const segment = (await playlist.text()).split('\n').find((line) => line && !line.startsWith('#')) ?? '';
  const segmentRes = await fetch(new URL(segment, renditionUrl));
  expect(segmentRes.status).toBe(200);
  const poster = await fetch(`${base}${video.thumbnailUrl}`);
  expect(poster.status).toBe(200);
  expect(poster.headers.get('content-type')).toBe('image/jpeg');
  return {
    master: masterText,
    segment: Buffer.from(await segmentRes.arrayBuffer()),
    poster: Buffer.from(await poster.arrayBuffer()),
  };
}

const tusHeaders = (auth: Record<string, string>, extra: Record<string, string> = {}) => ({
  ...auth,
  'tus-resumable': '1.0.0',
  ...extra,
});

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-backup-'));
  const dataA = path.join(work, 'data-a');
  const dataB = path.join(work, 'data-b');
  backupDir = path.join(work, 'backup');
  if (process.env.DATABASE_URL) {
    pgA = await createPostgresDatabase(process.env.DATABASE_URL);
    pgB = await createPostgresDatabase(process.env.DATABASE_URL);
  }
  // Uploads are public once processed: the restored server must list the video to anyone.
  const common = { SEED_DEMO: 'false', UPLOAD_REVIEW: 'after', MEDIA_STALE_SECONDS: '4' };
  envA = { ...common, DATA_DIR: dataA, ...(pgA ? { DATABASE_URL: pgA.url } : {}) };
  envB = { ...common, DATA_DIR: dataB, ...(pgB ? { DATABASE_URL: pgB.url } : {}) };

  // The creator exists before the server starts (PGlite lets one process at a time open its files).
  const database = await openDatabase({ ...loadConfig({}), dataDir: dataA, databaseUrl: pgA?.url });
  await database.migrate();
  const [creator] = await database.db
    .insert(t.users)
    .values({
      type: 'model',
      name: 'Backup Test',
      username: 'backup_test',
      slug: 'backup-test',
      email: EMAIL,
      passwordHash: await hashPassword(PASSWORD),
      verificationStatus: 'approved',
    })
    .returning();
  creatorId = creator?.id ?? 0;
  await database.close();
  second = await fs.readFile(await makeClip(work, 'second.mp4', { width: 180, height: 320, seconds: 4 }));
  server1 = await startServer({ env: envA, timeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await server1?.stop();
  await server2?.stop();
  await pgA?.drop();
  await pgB?.drop();
  await fs.rm(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  let half: number;
  let location: string;
  let before: { master: string; segment: Buffer; poster: Buffer };
  let videoId: number;

  it('backs up a running server, and a restore on another port has every row and file', async () => {
    const base = server1?.url ?? '';
    const auth = await login(base);

    // A video uploaded, published and processed to the end of its ladder (its MP4 is written last).
    const clip = await makeClip(work, 'first.mp4', { width: 180, height: 320, seconds: 3 });
    const form = new FormData();
    form.append('video', new Blob([await fs.readFile(clip)], { type: 'video/mp4' }), 'first.mp4');
    const uploaded = await fetch(`${base}/v1/videos/upload`, { method: 'POST', headers: auth, body: form });
    expect(uploaded.status).toBe(201);
    videoId = ((await uploaded.json()) as { videoId: number }).videoId;
    const details = await fetch(`${base}/v1/videos/upload-details`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ videoId, title: 'Kept safe', tags: 'backup' }),
    });
    expect(details.status, await details.clone().text()).toBe(200);
    const video = await until('the video approved', async () => {
      const found = (await videosOf(base, auth)).find((v) => v.id === videoId);
      if (found?.status === 'error') throw new Error('the video failed');
      return found?.status === 'approved' ? found : undefined;
    });
    const folder = path.join(envA.DATA_DIR ?? '', path.dirname(video.playlistUrl));
    await until('the MP4', async () =>
      (await fs.readdir(folder)).some((f) => f.endsWith('.mp4')) ? true : undefined,
    );
    before = await mediaOf(base, video);

    const like = await fetch(`${base}/v1/video-like`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ video_id: videoId, type: 'add' }),
    });
    expect(((await like.json()) as { data: { likeCount: number } }).data.likeCount).toBe(1);

    // An upload in flight: half of its bytes sent.
    const created = await fetch(`${base}/v1/uploads`, {
      method: 'POST',
      headers: tusHeaders(auth, { 'upload-length': String(second.length) }),
    });
    expect(created.status).toBe(201);
    location = String(created.headers.get('location'));
    half = Math.floor(second.length / 2);
    const patched = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: tusHeaders(auth, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
      body: new Uint8Array(second.subarray(0, half)),
    });
    expect(patched.status).toBe(204);
    expect(patched.headers.get('upload-offset')).toBe(String(half));

    // The backup, while the server runs and holds its database.
    const backedUp = await admin(envA, 'backup', backupDir);
    expect(backedUp.stderr).toBe('');
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain(`backup written to ${backupDir}`);
    expect(await modeOf(backupDir)).toBe(0o700);
    for (const file of await filesUnder(backupDir))
      expect(await modeOf(path.join(backupDir, file))).toBe(0o600);
    const manifest = JSON.parse(await fs.readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as {
      database: { kind: string; file: string; rows: Record<string, number> };
      files: { path: string; size: number }[];
    };
    expect(manifest.database.kind).toBe(onPostgres ? 'postgres' : 'pglite');
    expect(manifest.database.file).toBe(onPostgres ? 'database.pgdump' : 'database.tar.gz');
    expect(manifest.database.rows).toMatchObject({ users: 1, videos: 1, video_likes: 1, upload_sessions: 1 });
    const uploadId = path.basename(location);
    expect(manifest.files).toContainEqual({ path: `private/tus/${uploadId}`, size: half, mode: 0o600 });
    expect(manifest.files.map((f) => f.path)).toContain(`media${video.playlistUrl.replace(/^\/media/, '')}`);

    // After the backup: the like is withdrawn. The backup keeps the moment it was taken.
    const unlike = await fetch(`${base}/v1/video-like`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ video_id: videoId, type: 'remove' }),
    });
    expect(((await unlike.json()) as { data: { likeCount: number } }).data.likeCount).toBe(0);

    // The restore, into a data dir (and database) that has never been used.
    const restored = await admin(envB, 'restore', backupDir);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`restored ${backupDir}`);
    const dataB = envB.DATA_DIR ?? '';
    expect(await modeOf(path.join(dataB, 'private'))).toBe(0o700);
    expect(await modeOf(path.join(dataB, 'private', 'tus'))).toBe(0o700);
    expect(await modeOf(path.join(dataB, 'private', 'tus', uploadId))).toBe(0o600);
    if (!onPostgres) expect(await modeOf(path.join(dataB, 'pgdata'))).toBe(0o700);
    // Every file of the backup is back in place, whole.
    for (const file of manifest.files) {
      expect({ file: file.path, size: (await fs.stat(path.join(dataB, file.path))).size }).toEqual({
        file: file.path,
        size: file.size,
      });
    }
    expect(manifest.files.length).toBeGreaterThan(5);

    // Every table has the rows the manifest counted, and the migrations have nothing left to do.
    const database = await openDatabase({ ...loadConfig({}), dataDir: dataB, databaseUrl: pgB?.url });
    try {
      for (const [table, rows] of Object.entries(manifest.database.rows)) {
        const { rows: found } = await database.executeSql(`select count(*)::int as n from "${table}"`);
        expect({ table, rows: (found[0] as { n: number }).n }).toEqual({ table, rows });
      }
      const migrations = async () =>
        (
          (await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations'))
            .rows[0] as { n: number }
        ).n;
      const applied = await migrations();
      expect(applied).toBeGreaterThan(0);
      await database.migrate();
      expect(await migrations()).toBe(applied);
    } finally {
      await database.close();
    }

    server2 = await startServer({ env: envB, timeoutMs: 120_000 });
    const base2 = server2.url;
    expect(base2).not.toBe(base);
    const auth2 = await login(base2);
    // Listed to anyone, playable, with the like it had when the backup was taken.
    const listed = (await videosOf(base2)).find((v) => v.id === videoId);
    expect(listed).toMatchObject({ status: 'approved', likeCount: 1, title: 'Kept safe' });
    const after = await mediaOf(base2, listed as ListedVideo);
    expect(after.master).toBe(before.master);
    expect(after.segment.equals(before.segment)).toBe(true);
    expect(after.poster.equals(before.poster)).toBe(true);

    // The upload resumes where the backup left it, and finishes as a video.
    const head = await fetch(`${base2}${location}`, { method: 'HEAD', headers: tusHeaders(auth2) });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const rest = await fetch(`${base2}${location}`, {
      method: 'PATCH',
      headers: tusHeaders(auth2, {
        'upload-offset': String(half),
        'content-type': 'application/offset+octet-stream',
      }),
      body: new Uint8Array(second.subarray(half)),
    });
    expect(rest.status, await rest.clone().text()).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(second.length));
    expect(Number(rest.headers.get('video-id'))).toBeGreaterThan(videoId);
  }, 400_000);

  it('refuses a backup into a folder that is not empty, and a restore anywhere but an empty data dir', async () => {
    // Into the folder of the last backup, while the server runs.
    const again = await admin(envA, 'backup', backupDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${backupDir} is not empty: a backup goes into a new or empty folder`);
    // Nothing of the backup was touched.
    expect(JSON.parse(await fs.readFile(path.join(backupDir, 'manifest.json'), 'utf8'))).toMatchObject({
      format: 'shortcams-backup',
    });

    // Over the data of a running server.
    const overRunning = await admin(envA, 'restore', backupDir);
    expect(overRunning.code).toBe(1);
    expect(overRunning.stderr).toMatch(
      onPostgres
        ? /the database of DATABASE_URL \(test_\w+\) already has tables: restore goes into an empty database/
        : /data-a is in use by the server \(pid \d+\): restore goes into a data dir that no server uses/,
    );

    // Over a restored data dir, its server stopped.
    await server2?.stop();
    server2 = undefined;
    const overRestored = await admin(envB, 'restore', backupDir);
    expect(overRestored.code).toBe(1);
    expect(overRestored.stderr).toMatch(
      onPostgres
        ? /already has tables: restore goes into an empty database/
        : /data-b already has a database \(.*pgdata\): restore goes into an empty data dir/,
    );

    // From a folder that is not a backup.
    const empty = path.join(work, 'not-a-backup');
    await fs.mkdir(empty);
    const fresh = { ...envB, DATA_DIR: path.join(work, 'data-c') };
    const noManifest = await admin(fresh, 'restore', empty);
    expect(noManifest.code).toBe(1);
    expect(noManifest.stderr).toContain(`${empty} has no manifest.json: it is not a backup of this app`);

    // Into the other kind of database.
    const otherKind: Record<string, string> = { DATA_DIR: path.join(work, 'data-d') };
    if (!onPostgres) otherKind.DATABASE_URL = 'postgres://127.0.0.1:1/unused';
    const mismatch = await admin(otherKind, 'restore', backupDir);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain(
      onPostgres
        ? 'holds a PostgreSQL (DATABASE_URL) database, but this configuration uses PGlite (DATABASE_URL unset)'
        : 'holds a PGlite (DATABASE_URL unset) database, but this configuration uses PostgreSQL (DATABASE_URL)',
    );
    // None of the refused restores left anything behind.
    for (const dir of ['data-c', 'data-d']) {
      expect(await fs.readdir(path.join(work, dir)).catch(() => [])).toEqual([]);
    }
  }, 200_000);

  it('with S3, writes the database alone: the bucket keeps the media, and a restore leaves them there', async () => {
    const ctx = await createTestContext();
    const target = onPostgres ? await createPostgresDatabase(process.env.DATABASE_URL ?? '') : undefined;
    try {
      const user = await insertUser(ctx);
      // Media in a bucket, which the backup must not try to copy (nothing listens at this endpoint).
      const s3 = {
        bucket: 'shortcams-media',
        endpoint: 'http://127.0.0.1:9',
        region: 'us-east-1',
        accessKeyId: 'x',
        secretAccessKey: 'x',
        forcePathStyle: true,
      };
      const storage = new S3Storage({ dataDir: ctx.config.dataDir, mediaPublicUrl: undefined, s3 });
      // A local file beside the database, which a backup of local storage would copy.
      await fs.mkdir(path.join(ctx.config.dataDir, 'media'), { recursive: true });
      await fs.writeFile(path.join(ctx.config.dataDir, 'media', 'stray.jpg'), 'x');
      const dir = path.join(work, 's3-backup');
      const lines = await backup({ config: ctx.config, database: ctx.database, storage }, dir);
      expect(lines.join('\n')).toContain(
        'media: not copied, it stays in the S3 bucket "shortcams-media": keep it with the bucket\'s versioning',
      );
      const manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({ media: { storage: 's3', bucket: 'shortcams-media' }, files: [] });
      expect(await fs.readdir(dir)).toEqual([
        `database.${onPostgres ? 'pgdump' : 'tar.gz'}`,
        'manifest.json',
      ]);

      const dataDir = path.join(work, 'data-s3');
      const restored = await restore({ dataDir, databaseUrl: target?.url, s3 }, dir);
      expect(restored.join('\n')).toContain('media: in the S3 bucket "shortcams-media", not in the backup');
      const database = await openDatabase({ ...loadConfig({}), dataDir, databaseUrl: target?.url });
      try {
        const { rows } = await database.executeSql(`select email from users where id = ${user.id}`);
        expect(rows).toEqual([{ email: user.email }]);
      } finally {
        await database.close();
      }
      // A backup of local media cannot go where the server reads a bucket: its files would be lost there.
      await expect(
        restore({ dataDir: path.join(work, 'data-s3-local'), databaseUrl: target?.url, s3 }, backupDir),
      ).rejects.toThrow(
        new CliError(
          `the backup in ${backupDir} holds media files of local storage, but S3_BUCKET is set: restore with ` +
            `S3_BUCKET unset, or copy ${path.join(backupDir, 'media')} into the bucket yourself`,
        ),
      );
    } finally {
      await target?.drop();
      await ctx.close();
    }
  }, 120_000);
});

// The shared stores of a scaled-out deployment, on the real things: rate limits and counters in Redis
// (Debian's redis-server) seen alike by two apps, and media in an S3-compatible bucket (s3rver, standing in
// for S3, MinIO or R2): the storage interface, /media served from the bucket, a tus upload into the bucket
// through @tus/s3-store, and the pipeline from that upload to an approved HLS ladder.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { type Jobs, startJobs } from '../../server/jobs/boss';
import { cleanupVideo } from '../../server/media/cleanup';
import { startMediaWorkers } from '../../server/media/pipeline';
import { S3Storage, videoMediaDir } from '../../server/media/storage';
import { waitForLadder } from '../api/helpers';
import { makeClip } from '../api/media-fixtures';
import { type Service, startPostgres, startRedis, startS3 } from './services';

let redis: Service & { url: string; port: number };
let s3: Awaited<ReturnType<typeof startS3>>;
let postgres: Service & { url: string };
let work: string;

beforeAll(async () => {
  [redis, s3, postgres] = await Promise.all([startRedis(), startS3(), startPostgres()]);
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-stores-'));
}, 120_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), s3?.stop(), postgres?.stop()]);
  await fs.rm(work, { recursive: true, force: true });
});

interface Node {
  app: FastifyInstance;
  database: Database;
  storage: S3Storage;
  config: Config;
  jobs?: Jobs;
  close(): Promise<void>;
}

/** One API node as main.ts builds it, on the shared PostgreSQL, Redis and bucket. */
async function node(overrides: Partial<Config> = {}, withJobs = false): Promise<Node> {
  const dataDir = await fs.mkdtemp(path.join(work, 'node-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: postgres.url,
    distDir: path.join(dataDir, 'no-dist'),
    seedDemo: false,
    // SCALE_LOG=error shows what a node logs, for a failure to explain itself.
    logLevel: process.env.SCALE_LOG ?? 'silent',
    redisUrl: redis.url,
    s3: s3.s3,
    mediaStaleSeconds: 3,
    ...overrides,
  };
  const database = await openDatabase(config);
  await database.migrate();
  const storage = new S3Storage({ dataDir, mediaPublicUrl: config.mediaPublicUrl, s3: s3.s3 });
  const jobs = withJobs ? await startJobs(database) : undefined;
  const app = await buildApp({ config, database, storage, jobs });
  await app.ready();
  return {
    app,
    database,
    storage,
    config,
    jobs,
    async close() {
      await app.close();
      await jobs?.stop();
      await database.close();
    },
  };
}

const objectKeys = async (storage: S3Storage, prefix: string) =>
  (
    (await storage.client.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: prefix })))
      .Contents ?? []
  ).map((o) => o.Key as string);

describe('limits in Redis', () => {
  it('count the requests of both nodes together', async () => {
    const [a, b] = await Promise.all([
      node({ checkUsernameRateLimit: 4, loginFailureLimit: 3 }),
      node({ checkUsernameRateLimit: 4, loginFailureLimit: 3 }),
    ]);
    try {
      const check = (n: Node) =>
        n.app.inject({
          method: 'POST',
          url: '/v1/check-username',
          payload: { username: 'shared_count' },
          remoteAddress: '198.51.100.7',
        });
      const statuses = [];
      for (const n of [a, b, a, b, a, b]) statuses.push((await check(n)).statusCode);
      // Alone, each node would have allowed 4 of them.
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);

      const login = (n: Node) =>
        n.app.inject({
          method: 'POST',
          url: '/v1/login',
          payload: { email: 'victim@example.test', password: 'guess-guess' },
          // One guesser, whichever node nginx hands it to: its failures on this email count together.
          remoteAddress: '203.0.113.77',
        });
      const logins = [];
      for (const n of [a, b, a, b]) logins.push((await login(n)).statusCode);
      expect(logins).toEqual([401, 401, 401, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('hold through Redis killed and restarted: no guess is checked meanwhile, no 500, and the limits count again', async () => {
    const [a, b] = await Promise.all([
      node({ checkUsernameRateLimit: 5, loginFailureLimit: 10, authRateLimit: 1000 }),
      node({ checkUsernameRateLimit: 5, loginFailureLimit: 10, authRateLimit: 1000 }),
    ]);
    try {
      const login = (n: Node, email = 'outage-victim@example.test') =>
        n.app.inject({
          method: 'POST',
          url: '/v1/login',
          payload: { email, password: 'guess-guess' },
          remoteAddress: '203.0.113.90',
        });
      const check = (n: Node) =>
        n.app.inject({
          method: 'POST',
          url: '/v1/check-username',
          payload: { username: 'outage_count' },
          remoteAddress: '198.51.100.90',
        });
      const statuses = async (send: (n: Node) => Promise<{ statusCode: number }>, times: number) => {
        const out: number[] = [];
        for (let i = 0; i < times; i++) out.push((await send(i % 2 ? b : a)).statusCode);
        return out;
      };
      expect(await statuses(login, 4)).toEqual(Array(4).fill(401));

      await redis.stop();
      // Before issue 32: 25 guesses got through a limit of 10 while Redis was down, and per-address limits
      // were skipped. Now no guess is checked (503, Retry-After), and the other limits count per node.
      const during = await statuses(login, 25);
      expect(during).toEqual(Array(25).fill(503));
      const checks = await statuses(check, 16);
      expect(checks.filter((s) => s === 200)).toHaveLength(10);
      expect(checks.every((s) => s === 200 || s === 429)).toBe(true);

      redis = await startRedis(redis.port);
      // The nodes try Redis again every 5 s; a login for another email says when they have.
      const until = Date.now() + 20_000;
      for (const n of [a, b])
        while ((await login(n, 'outage-probe@example.test')).statusCode === 503 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 500));
      // This Redis keeps nothing on disk: it starts empty, and the guess limit counts from 0 again, shared.
      const after = await statuses(login, 12);
      expect(after).toEqual([...Array(10).fill(401), 429, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('media in an S3-compatible bucket', () => {
  it('keeps media and private files apart, replaces folders whole and serves /media from the bucket', async () => {
    const n = await node({ mediaPublicUrl: undefined });
    try {
      const { storage } = n;
      const local = path.join(work, 'folder');
      await fs.mkdir(path.join(local, '360p'), { recursive: true });
      await fs.writeFile(path.join(local, 'master.m3u8'), '#EXTM3U\n');
      await fs.writeFile(path.join(local, '360p', 'seg_000.ts'), Buffer.alloc(1000, 7));
      await storage.publishDir(local, 'videos/1-key');
      await fs.mkdir(path.join(local, '540p'), { recursive: true });
      await fs.writeFile(path.join(local, 'master.m3u8'), '#EXTM3U\n#2\n');
      await fs.writeFile(path.join(local, '540p', 'seg_000.ts'), Buffer.alloc(10, 1));
      await storage.publishDir(local, 'videos/1-key');
      // The second folder replaced the first: nothing of 360p is left.
      expect((await objectKeys(storage, 'media/videos/1-key/')).sort()).toEqual([
        'media/videos/1-key/540p/seg_000.ts',
        'media/videos/1-key/master.m3u8',
      ]);

      const original = path.join(work, 'original');
      await fs.writeFile(original, 'not served');
      await storage.putPrivate('originals/1/source', original);
      expect(await objectKeys(storage, 'private/originals/1/')).toEqual(['private/originals/1/source']);
      const copy = await storage.openPrivate('originals/1/source');
      expect(await fs.readFile(copy.path, 'utf8')).toBe('not served');
      await copy.release();
      await expect(storage.openPrivate('originals/2/source')).rejects.toMatchObject({ code: 'ENOENT' });

      const playlist = await n.app.inject({ method: 'GET', url: '/media/videos/1-key/master.m3u8' });
      expect(playlist.statusCode).toBe(200);
      expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
      expect(playlist.body).toBe('#EXTM3U\n#2\n');
      const range = await n.app.inject({
        method: 'GET',
        url: '/media/videos/1-key/540p/seg_000.ts',
        headers: { range: 'bytes=2-5' },
      });
      expect(range.statusCode).toBe(206);
      expect(range.headers['content-range']).toBe('bytes 2-5/10');
      expect(range.rawPayload).toHaveLength(4);
      for (const url of [
        '/media/originals/1/source',
        '/media/../private/originals/1/source',
        '/media/videos/',
      ]) {
        expect((await n.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      }
      expect(
        (await n.app.inject({ method: 'GET', url: '/media/videos/1-key/master.m3u8' })).headers,
      ).toHaveProperty('content-security-policy');

      await storage.remove('videos/1-key');
      await storage.removePrivate('originals/1');
      expect(await objectKeys(storage, 'media/videos/1-key/')).toEqual([]);
      expect(await objectKeys(storage, 'private/originals/1/')).toEqual([]);
    } finally {
      await n.close();
    }
  });

  it('links media under the configured CDN base', async () => {
    const n = await node({ mediaPublicUrl: 'https://cdn.example.test/media' });
    try {
      expect(n.storage.url('videos/1-key/master.m3u8')).toBe(
        'https://cdn.example.test/media/videos/1-key/master.m3u8',
      );
    } finally {
      await n.close();
    }
  });

  it('takes a tus upload into the bucket and makes an approved HLS video of it', async () => {
    const n = await node({}, true);
    try {
      const [creator] = await n.database.db
        .insert(t.users)
        .values({
          type: 'model',
          name: 'S3 Creator',
          username: 's3_creator',
          slug: 's3_creator',
          email: 's3.creator@example.test',
          passwordHash: 'x',
          verificationStatus: 'approved',
        })
        .returning();
      const { issueAccessToken } = await import('../../server/auth/tokens');
      const auth = {
        authorization: `Bearer ${await issueAccessToken(n.database.db, creator?.id ?? 0, false)}`,
      };
      const clip = await fs.readFile(
        await makeClip(work, 'clip.mp4', { width: 320, height: 568, seconds: 3 }),
      );
      const created = await n.app.inject({
        method: 'POST',
        url: '/v1/uploads',
        headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-length': String(clip.length) },
      });
      expect(created.statusCode).toBe(201);
      const location = String(created.headers.location);
      const id = location.split('/').pop() as string;
      const half = Math.floor(clip.length / 2);
      const patch = (offset: number, bytes: Buffer) =>
        n.app.inject({
          method: 'PATCH',
          url: location,
          headers: {
            ...auth,
            'tus-resumable': '1.0.0',
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          payload: bytes,
        });
      expect((await patch(0, clip.subarray(0, half))).statusCode).toBe(204);
      // The bytes in progress are in the bucket, not on this node.
      expect(await objectKeys(n.storage, id)).toEqual(expect.arrayContaining([`${id}.info`]));
      const last = await patch(half, clip.subarray(half));
      expect(last.statusCode).toBe(204);
      const videoId = Number(last.headers['video-id']);
      expect(videoId).toBeGreaterThan(0);
      // The original moved into private storage; tus's objects are gone.
      expect(await objectKeys(n.storage, `private/originals/${videoId}/`)).toHaveLength(1);
      expect(await objectKeys(n.storage, id)).toEqual([]);

      const stop = await startMediaWorkers({
        database: n.database,
        db: n.database.db,
        storage: n.storage,
        jobs: n.jobs as Jobs,
        staleSeconds: 3,
      });
      try {
        const video = await waitForLadder(n.database.db, videoId, 120_000);
        const dir = videoMediaDir(video);
        const keys = await objectKeys(n.storage, `media/${dir}/`);
        for (const name of ['master.m3u8', 'first.jpg', 'thumb.jpg', 'tile.jpg'])
          expect(keys, name).toContain(`media/${dir}/${name}`);
        // The smallest rendition as MP4, and its HLS segments.
        expect(keys.some((k) => /\/\d+p\.mp4$/.test(k))).toBe(true);
        expect(keys.some((k) => k.endsWith('.ts'))).toBe(true);
        const master = await n.app.inject({ method: 'GET', url: `/media/${dir}/master.m3u8` });
        // Every rendition of the ladder, each published to the bucket before the master named it.
        expect(master.body.match(/#EXT-X-STREAM-INF/g)?.length).toBe(video?.renditions?.length);
        expect(video?.renditions?.length).toBeGreaterThan(0);

        await n.database.db.update(t.videos).set({ status: 'deleting' }).where(eq(t.videos.id, videoId));
        await cleanupVideo({ db: n.database.db, storage: n.storage }, videoId);
        expect(await objectKeys(n.storage, `media/${dir}/`)).toEqual([]);
        expect(await objectKeys(n.storage, `private/originals/${videoId}/`)).toEqual([]);
      } finally {
        stop();
      }
    } finally {
      await n.close();
    }
  });
});

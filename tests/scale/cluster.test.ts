// The README's "Scaling past one machine", run on loopback: PostgreSQL, Redis, an S3 stand-in, two API
// nodes (RUN_WORKERS=false), one worker node and nginx in front. It shows that a tus upload whose PATCHes
// alternate between the API nodes completes although one node is killed half-way; that rate-limit counts
// are shared by the nodes; that 200 connections of mixed reads and writes through nginx for 60 s get no
// error; and that a worker killed with -9 mid-transcode finishes the video after its restart. The figures
// are printed at the end (lines starting with [scale]).
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { makeClip } from '../api/media-fixtures';
import {
  type Node,
  query,
  randomKey,
  type Service,
  startNginx,
  startNode,
  startPostgres,
  startRedis,
  startS3,
} from './services';

const LOAD_SECONDS = Number(process.env.SCALE_LOAD_SECONDS ?? 60);
const LOAD_CONNECTIONS = 200;
const figures: string[] = [];
const figure = (line: string) => {
  figures.push(line);
  console.log(`[scale] ${line}`);
};

let postgres: Service & { url: string };
let redis: Service & { url: string };
let s3: Awaited<ReturnType<typeof startS3>>;
let env: Record<string, string>;
let apiA: Node;
let apiB: Node;
let worker: Node;
let nginx: Awaited<ReturnType<typeof startNginx>>;
let database: Database;
let auth: Record<string, string>;
let work: string;
const videoIds: number[] = [];
let uploadedVideo = 0;

const root = path.resolve(import.meta.dirname, '../..');
const apiEnv = () => ({ ...env, RUN_WORKERS: 'false' });

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-cluster-'));
  [postgres, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3()]);
  env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    ...s3.env,
    // nginx on this machine is the only proxy; it replaces X-Forwarded-For with the client's address.
    TRUST_PROXY: 'loopback',
    MEDIA_STALE_SECONDS: '3',
    CHECK_USERNAME_RATE_LIMIT: '6',
    // The load below comes from one address (this test): the per-address guest limits would stop it.
    GUESTS_PER_ADDRESS: '1000000',
    GUEST_ACTIONS_PER_ADDRESS: '1000000',
    // A restarted node keeps serving this long after SIGTERM, closing each connection it answers: longer than
    // nginx's upstream keepalive_timeout (5 s), so that nginx holds no idle connection to it when it closes.
    DRAIN_DELAY_MS: '6000',
  };
  // All three at once on the empty database, as a deploy starts them: each runs the migrations on start, and
  // the advisory lock lets one apply them while the others wait (checked below).
  [apiA, apiB, worker] = await Promise.all([
    startNode('api-a', apiEnv()),
    startNode('api-b', apiEnv()),
    startNode('worker', env),
  ]);
  nginx = await startNginx([apiA.port, apiB.port]);

  database = await openDatabase({ ...loadConfig({}), databaseUrl: postgres.url });
  const [creator] = await database.db
    .insert(t.users)
    .values({
      type: 'model',
      name: 'Scale Creator',
      username: `scale_${randomKey()}`,
      slug: `scale_${randomKey()}`,
      email: `scale.${randomKey()}@example.test`,
      passwordHash: 'x',
      verificationStatus: 'approved',
    })
    .returning();
  if (!creator) throw new Error('no creator');
  auth = { authorization: `Bearer ${await issueAccessToken(database.db, creator.id, false)}` };
  // Published videos for the reads and writes of the load (their media is not what the load reads).
  const rows = await database.db
    .insert(t.videos)
    .values(
      Array.from({ length: 40 }, (_, i) => ({
        userId: creator.id,
        slug: `clip-${i}`,
        title: `Clip ${i}`,
        status: 'approved' as const,
        durationSeconds: 8,
        playlistPath: `videos/load-${i}/master.m3u8`,
        thumbnailPath: `videos/load-${i}/thumb.jpg`,
        publishAt: new Date(Date.now() - i * 60_000),
      })),
    )
    .returning({ id: t.videos.id });
  videoIds.push(...rows.map((r) => r.id));
}, 900_000);

afterAll(async () => {
  console.log(`\n[scale] figures\n${figures.map((f) => `[scale]   ${f}`).join('\n')}`);
  await database?.close();
  for (const service of [nginx, apiA, apiB, worker]) await service?.stop().catch(() => {});
  await Promise.all([redis?.stop(), s3?.stop(), postgres?.stop()]);
  await fs.rm(work, { recursive: true, force: true });
}, 120_000);

const tus = (extra: Record<string, string> = {}) => ({ ...auth, 'Tus-Resumable': '1.0.0', ...extra });

async function statusOf(videoId: number) {
  const [row] = await query<{ status: string; status_reason: string | null }>(
    postgres.url,
    'select status, status_reason from videos where id = $1',
    [videoId],
  );
  return row;
}

async function waitForStatus(videoId: number, wanted: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await statusOf(videoId);
    if (row?.status === wanted) return;
    if (row?.status === 'error' || Date.now() > until)
      throw new Error(`video ${videoId} is ${row?.status} (${row?.status_reason}), not ${wanted}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a scaled-out deployment', () => {
  it('applies each migration once when the nodes start together on an empty database', async () => {
    const journal = JSON.parse(
      await fs.readFile(path.join(root, 'server/db/migrations/meta/_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const { rows } = await database.executeSql(
      'select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash',
    );
    expect(rows).toHaveLength(journal.entries.length);
    expect((rows as { n: number }[]).every((r) => r.n === 1)).toBe(true);
    // And every node came up on it: none failed on a table another had just made.
    for (const node of [apiA, apiB, worker]) expect((await fetch(`${node.url}/readyz`)).status).toBe(200);
  });

  it('completes a tus upload whose PATCHes alternate between the nodes, one node killed half-way', async () => {
    // 20 s of 720p: long enough a transcode for the worker to be killed in the middle of it; high quality,
    // so that the file spans several PATCHes of a whole S3 part each.
    const file = await makeClip(work, 'upload.mp4', { width: 1280, height: 720, seconds: 20, crf: 8 });
    const bytes = await fs.readFile(file);
    const started = performance.now();
    const created = await fetch(`${apiA.url}/v1/uploads`, {
      method: 'POST',
      headers: tus({ 'Upload-Length': String(bytes.length) }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    // S3's smallest part (5 MiB): each PATCH is stored as whole parts, so what a node acknowledged survives
    // the node. (@tus/s3-store keeps a smaller PATCH as one ".part" object that each PATCH rewrites: a node
    // lost mid-PATCH loses it, and the client resumes from the last whole part.)
    const chunk = 5 * 1024 * 1024;
    expect(bytes.length).toBeGreaterThan(3 * chunk);
    const log: string[] = [];
    let offset = 0;
    let patches = 0;
    let killedAt = -1;
    let response: Response | undefined;
    while (offset < bytes.length) {
      const node = patches % 2 === 0 ? apiA : apiB;
      const body = bytes.subarray(offset, Math.min(offset + chunk, bytes.length));
      patches++;
      // The first PATCH to api-b past half of the file.
      if (node === apiB && killedAt < 0 && offset >= bytes.length / 2) {
        // Half of this PATCH reaches B, then B dies: a machine lost mid-request.
        killedAt = offset;
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(body.subarray(0, body.length / 2));
            await new Promise((r) => setTimeout(r, 500));
            await apiB.crash();
            controller.close();
          },
        });
        const lost = await fetch(`${apiB.url}${location}`, {
          method: 'PATCH',
          headers: tus({
            'Upload-Offset': String(offset),
            'Content-Type': 'application/offset+octet-stream',
          }),
          body: stream,
          duplex: 'half',
        } as RequestInit).catch((err: Error) => err);
        log.push(
          `PATCH ${patches} to api-b killed mid-request (${lost instanceof Error ? 'no answer' : lost.status})`,
        );
        // The client asks the surviving node where to resume, as tus-js-client does after an error.
        const head = await fetch(`${apiA.url}${location}`, { method: 'HEAD', headers: tus() });
        expect(head.status).toBe(200);
        offset = Number(head.headers.get('upload-offset'));
        log.push(`HEAD on api-a: resume at ${offset} of ${bytes.length}`);
        // Nothing a node acknowledged is lost with the other node.
        expect(offset).toBe(killedAt);
        continue;
      }
      const target = killedAt < 0 ? node : apiA;
      response = await fetch(`${target.url}${location}`, {
        method: 'PATCH',
        headers: tus({ 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
        body,
      });
      expect(response.status, await response.clone().text()).toBe(204);
      offset = Number(response.headers.get('upload-offset'));
      log.push(`PATCH ${patches} to ${target.name}: offset ${offset}`);
    }
    uploadedVideo = Number(response?.headers.get('video-id'));
    expect(uploadedVideo).toBeGreaterThan(0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    figure(
      `tus upload of ${(bytes.length / 1e6).toFixed(1)} MB in ${patches} PATCHes alternating api-a/api-b, api-b ` +
        `killed mid-PATCH at byte ${killedAt}, resumed on api-a at byte ${killedAt}: complete in ${seconds} s, ` +
        `video ${uploadedVideo}`,
    );
    for (const line of log) console.log(`[scale]   ${line}`);
    // The killed node comes back on its address: the API nodes hold nothing of their own.
    apiB = await startNode('api-b', apiEnv(), apiB.port);
  });

  it('finishes the video after its worker is killed with -9 mid-transcode and restarted', async () => {
    expect(uploadedVideo).toBeGreaterThan(0);
    await waitForStatus(uploadedVideo, 'processing', 120_000);
    // Let ffmpeg get going on the ladder.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await statusOf(uploadedVideo))?.status).toBe('processing');
    await worker.crash();
    const killed = performance.now();
    figure(`worker killed with -9 while video ${uploadedVideo} was processing`);
    worker = await startNode('worker', env);
    await waitForStatus(uploadedVideo, 'approved', 240_000);
    figure(
      `video ${uploadedVideo} approved ${((performance.now() - killed) / 1000).toFixed(1)} s after the kill`,
    );
    const [video] = await query<{ playlist_path: string }>(
      postgres.url,
      'select playlist_path from videos where id = $1',
      [uploadedVideo],
    );
    const master = await fetch(`${nginx.url}/media/${video?.playlist_path}`);
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('#EXT-X-STREAM-INF');
  });

  it('shares rate-limit counts between the nodes (Redis)', async () => {
    const statuses: string[] = [];
    for (const node of [apiA, apiB, apiA, apiB, apiA, apiB, apiA, apiB]) {
      const res = await fetch(`${node.url}/v1/check-username`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'shared_limit' }),
      });
      statuses.push(`${node.name}:${res.status}`);
    }
    expect(statuses.map((s) => s.split(':')[1])).toEqual([
      '200',
      '200',
      '200',
      '200',
      '200',
      '200',
      '429',
      '429',
    ]);
    figure(`check-username limit 6 per address, counted across both nodes: ${statuses.join(' ')}`);
  });

  it(`answers ${LOAD_CONNECTIONS} connections of mixed reads and writes through nginx for ${LOAD_SECONDS} s without an error`, async () => {
    const guests = Array.from({ length: 500 }, (_, i) => `load-guest-${i}-${randomKey()}`);
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)] as T;
    const json = { 'content-type': 'application/json' };
    const result = await autocannon({
      url: nginx.url,
      connections: LOAD_CONNECTIONS,
      duration: LOAD_SECONDS,
      timeout: 30,
      requests: [
        { method: 'GET', path: '/v1/videos?per_page=10' },
        { method: 'GET', path: '/v1/sidebar/left' },
        {
          method: 'POST',
          path: '/v1/video-view',
          headers: json,
          // A key of its own on each, as the app's outbox sends views: nginx may then send one that met a
          // reset connection to the other node (nginx.conf, @replayable).
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, 'Idempotency-Key': `roll-${randomKey()}${randomKey()}` },
            body: JSON.stringify({ video_id: pick(videoIds), guest_id: pick(guests) }),
          }),
        },
        { method: 'GET', path: '/v1/discover' },
        {
          method: 'POST',
          path: '/v1/video-like',
          headers: json,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              video_id: pick(videoIds),
              guest_id: pick(guests),
              type: pick(['add', 'remove']),
            }),
          }),
        },
        { method: 'GET', path: `/v1/tags/video-rating/unrated` },
      ],
    });
    figure(
      `load: ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s through nginx to 2 API nodes: ` +
        `${result.requests.total} requests (${result.requests.average.toFixed(0)}/s), ` +
        `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
        `errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`,
    );
    expect(result.requests.total).toBeGreaterThan(0);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
  });

  it('sends a POST with an Idempotency-Key that met a reset connection to another node, and no POST without one', async () => {
    // What nginx meets when a draining node's listen queue is reset: the request written, then a reset.
    const resetter = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    let resets = 0;
    resetter.on('connection', () => resets++);
    await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
    const proxy = await startNginx([(resetter.address() as net.AddressInfo).port, apiA.port]);
    try {
      const view = async (guest: string, key?: string) => {
        const res = await fetch(`${proxy.url}/v1/video-view`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
          body: JSON.stringify({ video_id: videoIds[0], guest_id: guest }),
        });
        return res.status;
      };
      const viewsOf = async (guest: string) =>
        (
          await query<{ n: number }>(
            postgres.url,
            'select count(*)::int as n from video_views where guest_id = $1',
            [guest],
          )
        )[0]?.n;
      // nginx takes the two upstreams in turn, so every other post meets the reset first.
      const keyed = Array.from({ length: 4 }, () => `reset-keyed-${randomKey()}`);
      const keyedAnswers: number[] = [];
      for (const guest of keyed) keyedAnswers.push(await view(guest, `view-${randomKey()}`));
      expect(keyedAnswers).toEqual([200, 200, 200, 200]);
      expect(resets).toBeGreaterThanOrEqual(2);
      // Each counted once, on the node that answered.
      for (const guest of keyed) expect(await viewsOf(guest)).toBe(1);

      // Without a key nginx cannot know that sending it again is safe: the one that met the reset fails,
      // and nothing counts it.
      const unkeyed = Array.from({ length: 4 }, () => `reset-unkeyed-${randomKey()}`);
      const answers: number[] = [];
      for (const guest of unkeyed) answers.push(await view(guest));
      expect(answers.filter((s) => s === 502).length).toBeGreaterThan(0);
      for (const [i, guest] of unkeyed.entries())
        expect(await viewsOf(guest)).toBe(answers[i] === 200 ? 1 : 0);
    } finally {
      await proxy.stop();
      await new Promise((resolve) => resetter.close(resolve));
    }
  });

  it('restarts the API nodes one at a time under load without a failed request or a lost upload', async () => {
    const guests = Array.from({ length: 100 }, (_, i) => `roll-guest-${i}-${randomKey()}`);
    const logBefore = (await nginx.errorLog()).length;
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)] as T;
    // The load runs until the restarts are over and the upload is complete, not for a fixed time: what it
    // proves is that the requests around the restarts succeed (50 s before, of which the last 35 added none).
    const loadStarted = performance.now();
    const load = autocannon({
      url: nginx.url,
      connections: 40,
      duration: 120,
      timeout: 30,
      requests: [
        { method: 'GET', path: '/v1/videos?per_page=10' },
        {
          method: 'POST',
          path: '/v1/video-view',
          headers: { 'content-type': 'application/json' },
          // A key of its own on each, as the app's outbox sends views: nginx may then send one that met a
          // reset connection to the other node (nginx.conf, @replayable).
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, 'Idempotency-Key': `roll-${randomKey()}${randomKey()}` },
            body: JSON.stringify({ video_id: pick(videoIds), guest_id: pick(guests) }),
          }),
        },
        { method: 'GET', path: '/v1/discover' },
      ],
    });
    const clientErrors: string[] = [];
    // Without a callback autocannon's typings give only the promise; the instance is an emitter as well.
    const instance = load as unknown as NodeJS.EventEmitter & { stop(): void };
    instance.on('reqError', (err: NodeJS.ErrnoException) =>
      clientErrors.push(`${err.code ?? ''} ${err.message}`),
    );
    // An upload sent in small PATCHes through nginx the whole time: none may fail, none may be resent.
    const bytes = await fs.readFile(
      await makeClip(work, 'rolling.mp4', { width: 360, height: 640, seconds: 12 }),
    );
    const created = await fetch(`${nginx.url}/v1/uploads`, {
      method: 'POST',
      headers: tus({ 'Upload-Length': String(bytes.length) }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    // 40 PATCHes half a second apart: the upload is under way before the first restart and after the last.
    const chunk = Math.ceil(bytes.length / 40);
    const upload = (async () => {
      const answers: number[] = [];
      for (let offset = 0; offset < bytes.length; offset += chunk) {
        const res = await fetch(`${nginx.url}${location}`, {
          method: 'PATCH',
          headers: tus({
            'Upload-Offset': String(offset),
            'Content-Type': 'application/offset+octet-stream',
          }),
          body: bytes.subarray(offset, Math.min(offset + chunk, bytes.length)),
        });
        answers.push(res.status);
        await new Promise((r) => setTimeout(r, 500));
      }
      return answers;
    })();

    const restarts: string[] = [];
    await new Promise((r) => setTimeout(r, 4000));
    for (const which of ['a', 'b'] as const) {
      const node = which === 'a' ? apiA : apiB;
      const before = performance.now();
      await node.stop();
      const stopped = performance.now();
      const fresh = await startNode(`api-${which}`, apiEnv(), node.port);
      if (which === 'a') apiA = fresh;
      else apiB = fresh;
      restarts.push(
        `api-${which}: drained and stopped in ${((stopped - before) / 1000).toFixed(1)} s, answering again ` +
          `${((performance.now() - stopped) / 1000).toFixed(1)} s later`,
      );
      await new Promise((r) => setTimeout(r, 3000));
    }
    const patches = await upload;
    await new Promise((r) => setTimeout(r, 1000));
    instance.stop();
    const result = await load;
    const loadSeconds = ((performance.now() - loadStarted) / 1000).toFixed(0);
    // Requests nginx wrote into a connection a stopping node reset, and sent to the other node instead.
    const resets = (await nginx.errorLog())
      .slice(logBefore)
      .split('\n')
      .filter((line) => line.includes('(104: Connection reset by peer)')).length;
    figure(
      `rolling restart under load (40 connections, ${loadSeconds} s): ${result.requests.total} requests, errors ` +
        `${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx} ` +
        `(${JSON.stringify(result.statusCodeStats)}${clientErrors.length ? `; ${clientErrors.join(', ')}` : ''}); ${patches.length} PATCHes, ` +
        `${patches.filter((s) => s !== 204).length} not 204; ${resets} reset by a stopping node and sent again; ` +
        restarts.join('; '),
    );
    // A 502 here came about once in four to eight CI runs (a view POST in a connection the stopping node's
    // listen queue held, reset by the kernel) until the posts carried keys that let nginx send them again
    // (the test above). Should another come, nginx's log says what it met (a reset, a refused connect, which
    // node), so that it can be explained.
    const failed = result.errors + result.timeouts + result.non2xx > 0;
    // Less the refused connects of a stopped node's port: nginx passed those requests on, as it should.
    const nginxLog = failed
      ? (await nginx.errorLog())
          .split('\n')
          .filter((line) => line && !line.includes('(111: Connection refused) while connecting'))
          .slice(-40)
          .join('\n')
      : '';
    expect(result.errors, nginxLog).toBe(0);
    expect(result.timeouts, nginxLog).toBe(0);
    expect(result.non2xx, nginxLog).toBe(0);
    expect(patches.every((s) => s === 204)).toBe(true);
    const head = await fetch(`${nginx.url}${location}`, { method: 'HEAD', headers: tus() });
    expect(head.headers.get('upload-offset')).toBe(String(bytes.length));
  });
});

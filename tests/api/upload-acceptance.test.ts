// Issue 4 acceptance, on a real listening server: a generated 20 s vertical video uploaded with
// tus-js-client through a connection that is cut half-way, resumed from the server's offset, processed by
// the real workers to approved, and its HLS (master, renditions) and thumbnail checked with ffprobe over
// HTTP. Then the multipart path end to end, and a server killed mid-transcode that finishes the video
// after a restart.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { startMediaWorkers } from '../../server/media/pipeline';
import { startServer } from '../e2e/server';
import {
  approveUpload,
  createPostgresDatabase,
  createTestContext,
  insertUser,
  type TestContext,
  waitForLadder,
} from './helpers';
import { makeClip, probeFile, probeHls } from './media-fixtures';
import { until } from './until';

const CHUNK = 256 * 1024;

/**
 * tus-js-client's own Node HTTP stack, counting the body bytes it hands to each request: what the client
 * really sent, including the part of a chunk that died with the connection.
 */
class CountingHttpStack implements tus.HttpStack {
  private readonly inner = new tus.DefaultHttpStack({});
  bodyBytes = 0;
  requests: string[] = [];

  createRequest(method: string, url: string): tus.HttpRequest {
    const request = this.inner.createRequest(method, url);
    this.requests.push(method);
    const send = request.send.bind(request);
    request.send = (body?: unknown) => {
      if (body instanceof Readable) {
        const counted = body.pipe(
          new Transform({
            transform: (chunk: Buffer, _encoding, done) => {
              this.bodyBytes += chunk.length;
              done(null, chunk);
            },
          }),
        );
        // The stack reads the size for Content-Length.
        Object.assign(counted, { size: (body as Readable & { size?: number }).size });
        return send(counted);
      }
      if (body instanceof Uint8Array) this.bodyBytes += body.length;
      return send(body as never);
    };
    return request;
  }

  getName() {
    return 'CountingHttpStack';
  }
}

/** A TCP hop between client and server that drops every connection once, after `cutAfter` bytes up. */
async function flakyProxy(targetPort: number, cutAfter: number) {
  const sockets = new Set<net.Socket>();
  const state = { upBytes: 0, cuts: 0, connections: 0 };
  const server = net.createServer((client) => {
    state.connections++;
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (data: Buffer) => {
      state.upBytes += data.length;
      if (state.cuts === 0 && state.upBytes >= cutAfter) {
        state.cuts++;
        // Half of this packet gets through, then the line goes dead for everyone.
        upstream.write(data.subarray(0, Math.floor(data.length / 2)));
        for (const s of sockets) s.destroy();
        sockets.clear();
        return;
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => client.write(data));
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');

describe('upload acceptance on a listening server', () => {
  let ctx: TestContext;
  let base: string;
  let auth: Record<string, string>;
  let stopSweep = () => {};
  let fixtures: string;

  beforeAll(async () => {
    ctx = await createTestContext({ jobs: true });
    const jobs = ctx.jobs;
    if (!jobs) throw new Error('jobs expected');
    stopSweep = await startMediaWorkers({
      db: ctx.database.db,
      database: ctx.database,
      storage: ctx.storage,
      jobs,
      staleSeconds: 30,
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as net.AddressInfo).port}`;
    const creator = await insertUser(ctx);
    auth = { authorization: `Bearer ${await issueAccessToken(ctx.database.db, creator.id, false)}` };
    fixtures = await fs.mkdtemp(path.join(ctx.config.dataDir, 'fixtures-'));
  }, 120_000);
  afterAll(async () => {
    stopSweep();
    await ctx.close();
  });

  const waitApproved = (id: number) =>
    until(
      `video ${id} approved`,
      async () => {
        const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
        if (row?.status === 'error') throw new Error(`video ${id} failed: ${row.statusReason}`);
        return row?.status === 'approved' ? row : undefined;
      },
      180_000,
    );

  const publish = async (id: number, title: string) => {
    const res = await fetch(`${base}/v1/videos/upload-details`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ videoId: id, title, tags: 'acceptance,vertical' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  it('resumes a tus upload cut half-way, sends at most one chunk twice, and publishes valid HLS', async () => {
    const file = await makeClip(fixtures, 'vertical-20s.mp4', {
      width: 540,
      height: 960,
      seconds: 20,
      crf: 30,
    });
    const size = (await fs.stat(file)).size;
    expect(size).toBeGreaterThan(4 * CHUNK);
    const proxy = await flakyProxy(Number(new URL(base).port), Math.floor(size / 2));
    const stack = new CountingHttpStack();
    const started = performance.now();
    const result = await new Promise<{ videoId: number; screenshot: string }>((resolve, reject) => {
      // A file stream (with its path): tus-js-client re-reads slices from the server's offset after a failure.
      const upload = new tus.Upload(createReadStream(file), {
        endpoint: `${proxy.url}/v1/uploads`,
        headers: auth,
        chunkSize: CHUNK,
        retryDelays: [0, 250, 500, 1000, 2000],
        metadata: { filename: 'vertical-20s.mp4', filetype: 'video/mp4' },
        httpStack: stack,
        onError: reject,
        onSuccess: ({ lastResponse }) =>
          resolve({
            videoId: Number(lastResponse.getHeader('Video-Id')),
            screenshot: String(lastResponse.getHeader('Video-Screenshot')),
          }),
      });
      upload.start();
    });
    const seconds = (performance.now() - started) / 1000;
    await proxy.close();

    // The line was cut once, the client went back to the server (HEAD) and carried on from its offset.
    expect(proxy.state.cuts).toBe(1);
    expect(stack.requests.filter((m) => m === 'HEAD').length).toBeGreaterThanOrEqual(1);
    expect(stack.bodyBytes).toBeGreaterThanOrEqual(size);
    expect(stack.bodyBytes).toBeLessThanOrEqual(size + CHUNK);
    console.log(
      `tus upload: ${size} bytes in ${seconds.toFixed(2)} s through one cut; body bytes sent ${stack.bodyBytes} ` +
        `(+${stack.bodyBytes - size}), ${stack.requests.join(' ')}`,
    );

    // The server has exactly the file: nothing lost or doubled around the cut.
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, result.videoId));
    expect(row?.sourcePath).toBe(`originals/${result.videoId}/source`);
    expect(await sha256(ctx.storage.privateAbs(row?.sourcePath ?? ''))).toBe(await sha256(file));
    // Media folders are named with a random key: only the API, which knows who may see what, gives them out.
    expect(row?.mediaKey).toMatch(/^[\w-]{22}$/);
    const folder = `/media/videos/${result.videoId}-${row?.mediaKey}`;
    expect(result.screenshot).toBe(`${folder}/first.jpg`);
    expect((await fetch(`${base}${result.screenshot}`)).headers.get('content-type')).toBe('image/jpeg');

    await publish(result.videoId, 'Twenty seconds, resumed');
    const video = await waitApproved(result.videoId);
    expect(video.durationSeconds).toBeCloseTo(20, 0);

    // Everything below is read over HTTP from the listening server, as a player would.
    const masterUrl = `${base}${folder}/master.m3u8`;
    // Playable from the approval on: the lowest rendition is listed first, whatever follows it yet.
    expect(await (await fetch(masterUrl)).text()).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=896000,RESOLUTION=360x640,CODECS="avc1.4d401e,mp4a.40.2"\n360p/index.m3u8\n',
    );
    await waitForLadder(ctx.database.db, result.videoId, 120_000);
    const master = await (await fetch(masterUrl)).text();
    const variants = [
      ...master.matchAll(/#EXT-X-STREAM-INF:BANDWIDTH=(\d+),RESOLUTION=(\d+)x(\d+),CODECS="([^"]+)"\n(.+)/g),
    ];
    expect(variants.map((v) => [v[2], v[3], v[5]])).toEqual([
      ['360', '640', '360p/index.m3u8'],
      ['540', '960', '540p/index.m3u8'],
    ]);
    for (const [, bandwidth, width, height, codecs, uri] of variants) {
      expect(Number(bandwidth)).toBeGreaterThan(0);
      expect(codecs).toMatch(/^avc1\.4d40[0-9a-f]{2},mp4a\.40\.2$/);
      const media = await (await fetch(`${base}${folder}/${uri}`)).text();
      expect(media).toContain('#EXT-X-ENDLIST');
      const durations = [...media.matchAll(/#EXTINF:([\d.]+)/g)].map((x) => Number(x[1]));
      expect(durations.length).toBe(10);
      for (const d of durations) expect(d).toBeLessThanOrEqual(2.05);
      const probe = await probeHls(`${base}${folder}/${uri}`, fixtures);
      expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({
        width: Number(width),
        height: Number(height),
      });
      expect(probe.duration).toBeCloseTo(20, 0);
    }
    const thumb = path.join(fixtures, 'thumb.jpg');
    await fs.writeFile(thumb, Buffer.from(await (await fetch(`${base}${folder}/thumb.jpg`)).arrayBuffer()));
    expect((await probeFile(thumb)).streams[0]).toMatchObject({
      codec_name: 'mjpeg',
      width: 540,
      height: 960,
    });

    // Held for the operators until one approves it (UPLOAD_REVIEW=before); then it is in the feed.
    expect((await fetch(`${base}/v1/videos/start/${result.videoId}`)).status).toBe(404);
    await approveUpload(ctx, result.videoId);
    const start = await (await fetch(`${base}/v1/videos/start/${result.videoId}`)).json();
    expect(start.data[0]).toMatchObject({
      id: result.videoId,
      title: 'Twenty seconds, resumed',
      status: 'approved',
      playlistUrl: `${folder}/master.m3u8`,
      thumbnailUrl: `${folder}/thumb.jpg`,
    });
  }, 300_000);

  it('takes a multipart upload end to end, streamed from a real client', async () => {
    const file = await makeClip(fixtures, 'multipart.mp4', { width: 360, height: 640, seconds: 4 });
    const body = new FormData();
    body.append('video', new Blob([await fs.readFile(file)], { type: 'video/mp4' }), 'multipart.mp4');
    const res = await fetch(`${base}/v1/videos/upload`, { method: 'POST', headers: auth, body });
    expect(res.status).toBe(201);
    const { videoId, screenshot } = (await res.json()) as { videoId: number; screenshot: string };
    expect(screenshot).toMatch(new RegExp(`^/media/videos/${videoId}-[\\w-]{22}/first\\.jpg$`));
    await publish(videoId, 'Multipart');
    const video = await waitApproved(videoId);
    expect(video.renditions).toEqual([{ width: 360, height: 640, bandwidth: 896_000 }]);
    expect(`/media/${video.playlistPath}`).toBe(screenshot.replace(/first\.jpg$/, 'master.m3u8'));
    const probe = await probeHls(`${base}/media/${video.playlistPath}`, fixtures);
    expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 360, height: 640 });
    expect((await fetch(`${base}/v1/videos/start/${videoId}`)).status).toBe(404);
    await approveUpload(ctx, videoId);
    expect((await fetch(`${base}/v1/videos/start/${videoId}`)).status).toBe(200);
  }, 180_000);
});

describe('a server killed during a transcode', () => {
  it('finishes the video after a restart', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-kill-'));
    const pg = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
    const env = {
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      MEDIA_STALE_SECONDS: '4',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    };
    try {
      // The creator exists before the server starts (PGlite allows one process on its files at a time).
      const database = await openDatabase({ ...loadConfig({}), dataDir, databaseUrl: pg?.url });
      await database.migrate();
      const [creator] = await database.db
        .insert(t.users)
        .values({
          type: 'model',
          name: 'Kill Test',
          username: 'kill_test',
          slug: 'kill-test',
          email: 'kill@example.test',
          passwordHash: 'x',
          verificationStatus: 'approved',
        })
        .returning();
      const token = await issueAccessToken(database.db, creator?.id ?? 0, false);
      await database.close();
      const auth = { authorization: `Bearer ${token}` };
      const file = await makeClip(dataDir, 'kill.mp4', { width: 540, height: 960, seconds: 20, crf: 30 });

      let server = await startServer({ env, timeoutMs: 120_000 });
      const videoOf = async (url: string, id: number) => {
        const res = await fetch(`${url}/v1/users/${creator?.id}/videos`, { headers: auth });
        const list = (await res.json()) as { data: { id: number; status: string; playlistUrl: string }[] };
        return list.data.find((v) => v.id === id);
      };
      const statusOf = async (url: string, id: number) => (await videoOf(url, id))?.status;
      try {
        const body = new FormData();
        body.append('video', new Blob([await fs.readFile(file)], { type: 'video/mp4' }), 'kill.mp4');
        const res = await fetch(`${server.url}/v1/videos/upload`, { method: 'POST', headers: auth, body });
        expect(res.status).toBe(201);
        const { videoId } = (await res.json()) as { videoId: number };
        await until(
          'processing',
          async () => ((await statusOf(server.url, videoId)) === 'processing' ? true : undefined),
          60_000,
        );
        // Mid-ladder: kill the server and the ffmpeg it runs, with no chance to clean up.
        await new Promise((r) => setTimeout(r, 500));
        const pid = server.process.pid ?? 0;
        const children = (await fs.readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => ''))
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number);
        const exited = new Promise((r) => server.process.once('exit', r));
        server.process.kill('SIGKILL');
        for (const child of children) {
          try {
            process.kill(child, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
        await exited;

        server = await startServer({ env, timeoutMs: 120_000 });
        expect(await statusOf(server.url, videoId)).toBe('processing');
        await until(
          'approved after restart',
          async () => {
            const status = await statusOf(server.url, videoId);
            if (status === 'error') throw new Error('video ended in error');
            return status === 'approved' ? true : undefined;
          },
          150_000,
        );
        const masterUrl = `${server.url}${(await videoOf(server.url, videoId))?.playlistUrl}`;
        expect((await fetch(masterUrl)).status).toBe(200);
        // Approved once the lowest rendition plays; the ladder ends with 540p listed and no work folder left.
        await until(
          'the whole ladder',
          async () => {
            const master = await (await fetch(masterUrl)).text();
            const work = await fs.readdir(path.join(dataDir, 'private', 'tmp'));
            return master.includes('\n540p/index.m3u8\n') && work.length === 0 ? true : undefined;
          },
          150_000,
        );
        expect(await (await fetch(masterUrl)).text()).toMatch(
          /\n360p\/index\.m3u8\n.*\n540p\/index\.m3u8\n$/s,
        );
      } finally {
        await server.stop();
      }
    } finally {
      await pg?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

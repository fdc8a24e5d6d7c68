// What operators of the service watch (issue 32): liveness apart from readiness, Prometheus metrics that are
// never public, and a drain that readiness announces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/server';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { bearer } from './social-helpers';

let ctx: TestContext;
const TOKEN = 'metrics-token-for-tests-0123456789';
let metricsPort = 0;

beforeAll(async () => {
  metricsPort = await freePort();
  ctx = await createTestContext({
    jobs: true,
    config: { metricsToken: TOKEN, metricsPort, checkUsernameRateLimit: 1 },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

describe('liveness and readiness', () => {
  it('/healthz says the process answers; /readyz checks the database and the storage', async () => {
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok' } });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('says not ready while draining, so a load balancer stops sending before the node closes', async () => {
    ctx.app.draining = true;
    try {
      const res = await get('/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.server).toBe('draining');
      // Requests are still served meanwhile.
      expect((await get('/v1/videos')).statusCode).toBe(200);
    } finally {
      ctx.app.draining = false;
    }
  });
});

describe('/metrics', () => {
  it('is refused without the token on the main port, and answers with it', async () => {
    expect((await get('/metrics')).statusCode).toBe(401);
    expect((await get('/metrics', { authorization: 'Bearer not-the-token-at-all-0000000' })).statusCode).toBe(
      401,
    );
    const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('counts requests by route and status, refusals, replays, and reads the heap, lag and job queues', async () => {
    const creator = await insertUser(ctx);
    const video = await insertVideo(ctx, { userId: creator.id });
    await get('/v1/videos?per_page=5');
    await get(`/v1/videos/start/${video.id}`);
    for (let i = 0; i < 2; i++)
      await ctx.app.inject({
        method: 'POST',
        url: '/v1/check-username',
        payload: { username: 'metric_name' },
      });
    for (let i = 0; i < 2; i++)
      await ctx.app.inject({
        method: 'POST',
        url: '/v1/video-view',
        payload: { video_id: video.id, guest_id: 'metrics-guest-01' },
        headers: { 'idempotency-key': 'metrics-replay-0001' },
      });
    const text = (await get('/metrics', { authorization: `Bearer ${TOKEN}` })).body;
    expect(text).toMatch(
      /shortcams_http_requests_total\{method="GET",route="\/v1\/videos",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /shortcams_http_requests_total\{method="GET",route="\/v1\/videos\/start\/:id",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /shortcams_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/v1\/videos"/,
    );
    expect(text).toMatch(/shortcams_rate_limited_total\{route="\/v1\/check-username"\} [1-9]/);
    expect(text).toMatch(/shortcams_outbox_replays_total\{route="\/v1\/video-view"\} [1-9]/);
    expect(text).toMatch(/^shortcams_nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^shortcams_nodejs_heap_size_used_bytes \d/m);
    expect(text).toContain('# TYPE shortcams_job_queue_depth gauge');
    expect(text).toContain('# TYPE shortcams_upload_bytes_total counter');
    expect(text).toContain('# TYPE shortcams_transcode_seconds histogram');
  });

  it('counts the video bytes that uploads bring in', async () => {
    const total = async () => {
      const text = (await get('/metrics', { authorization: `Bearer ${TOKEN}` })).body;
      return Number(/^shortcams_upload_bytes_total (\d+)/m.exec(text)?.[1]);
    };
    const before = await total();
    const creator = await insertUser(ctx);
    const tus = { authorization: (await bearer(ctx, creator.id)).authorization, 'tus-resumable': '1.0.0' };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: { ...tus, 'upload-length': '5000' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: String(created.headers.location),
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.alloc(1234, 7),
    });
    expect(patched.statusCode).toBe(204);
    expect(await total()).toBe(before + 1234);
  });

  it('has a port of its own on loopback, without a token', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('shortcams_http_requests_total');
  });

  it('does not exist on the main port when no token is set', async () => {
    const open = await createTestContext();
    try {
      expect((await open.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await open.close();
    }
  });
});

// tus requests off the path tus-js-client takes by default: a creation that carries the first bytes
// (creation-with-upload), a creation of unknown length (Upload-Defer-Length), and a PATCH overtaken by the
// HEAD its client resumed with. Each either works whole or is refused before anything exists or is written;
// never a video behind an error answer, never an offset that stops being true.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { messages } from '../../src/contract';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { makeClip } from './media-fixtures';
import { bearer } from './social-helpers';

const m = messages.upload;
let ctx: TestContext;
let clip: Buffer;

/**
 * Holds the next PATCH of an upload after it has arrived, before the route's checks: what a slow connection
 * of the database pool (or a rate limit waiting on Redis) does to one request and not to the next.
 */
let holdPatch: { reached: () => void; release: Promise<void> } | undefined;
const heldPatch: preHandlerAsyncHookHandler = async () => {
  const hold = holdPatch;
  if (!hold) return;
  holdPatch = undefined;
  hold.reached();
  await hold.release;
};

beforeAll(async () => {
  ctx = await createTestContext({
    onRoute(route: RouteOptions) {
      if (route.method !== 'PATCH' || route.url !== '/v1/uploads/:id') return;
      route.preHandler = [heldPatch, ...[route.preHandler ?? []].flat()];
    },
  });
  const fixtures = await fs.mkdtemp(path.join(ctx.config.dataDir, 'fixtures-'));
  clip = await fs.readFile(await makeClip(fixtures, 'clip.mp4', { width: 180, height: 320, seconds: 2 }));
});
afterAll(() => ctx.close());

async function creator() {
  const user = await insertUser(ctx);
  const auth = await bearer(ctx, user.id);
  const tus = (extra: Record<string, string> = {}) => ({ ...auth, 'tus-resumable': '1.0.0', ...extra });
  const videos = () => ctx.database.db.select().from(t.videos).where(eq(t.videos.userId, user.id));
  const sessions = () =>
    ctx.database.db.select().from(t.uploadSessions).where(eq(t.uploadSessions.userId, user.id));
  return { user, auth, tus, videos, sessions };
}

const withBytes = { 'content-type': 'application/offset+octet-stream' };

describe('creation-with-upload (POST with the first bytes)', () => {
  it('takes a whole file in the POST: 201 with Location, Upload-Offset and the video, one video', async () => {
    const c = await creator();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: c.tus({ 'upload-length': String(clip.length), ...withBytes }),
      payload: clip,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['upload-offset']).toBe(String(clip.length));
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/v1\/uploads\/[0-9a-f]{32}$/);
    const videos = await c.videos();
    expect(videos).toHaveLength(1);
    const videoId = videos[0]?.id;
    expect(res.headers['video-id']).toBe(String(videoId));
    expect(videos[0]?.status).toBe('uploaded');

    // A client that lost this answer resumes as after a PATCH: the same video, not a second upload.
    const head = await ctx.app.inject({ method: 'HEAD', url: location, headers: c.tus() });
    expect(head.statusCode).toBe(200);
    expect(head.headers['video-id']).toBe(String(videoId));
    const outcome = await ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: c.auth });
    expect(outcome.json()).toMatchObject({ videoId, status: 'uploaded' });
    expect(await c.videos()).toHaveLength(1);
  });

  it('takes the first part in the POST and the rest by PATCH: one video at the end', async () => {
    const c = await creator();
    const half = Math.floor(clip.length / 2);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: c.tus({ 'upload-length': String(clip.length), ...withBytes }),
      payload: clip.subarray(0, half),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['upload-offset']).toBe(String(half));
    expect(res.headers['video-id']).toBeUndefined();
    expect(await c.videos()).toEqual([]);
    const location = String(res.headers.location);
    const head = await ctx.app.inject({ method: 'HEAD', url: location, headers: c.tus() });
    expect(head.headers['upload-offset']).toBe(String(half));
    const rest = await ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: c.tus({ 'upload-offset': String(half), ...withBytes }),
      payload: clip.subarray(half),
    });
    expect(rest.statusCode, rest.body).toBe(204);
    const videos = await c.videos();
    expect(videos).toHaveLength(1);
    expect(rest.headers['video-id']).toBe(String(videos[0]?.id));
  });

  it('answers odd tus headers with a JSON 4xx or a success, never a 5xx', async () => {
    const c = await creator();
    const valid = { 'upload-length': '1000', 'upload-offset': '0', ...withBytes };
    const odd = ['', ' ', '-1', '0', '1e3', 'abc', '99999999999999999999', '%00', 'a'.repeat(5000)];
    const names = [
      'upload-length',
      'upload-offset',
      'upload-metadata',
      'upload-defer-length',
      'upload-concat',
      'x-http-method-override',
    ];
    for (const name of names) {
      for (const value of odd) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/v1/uploads',
          headers: c.tus({ ...valid, [name]: value }),
          payload: Buffer.alloc(16, 1),
        });
        expect(res.statusCode, `${name}=${value.slice(0, 20)}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
      }
    }
  });

  it('answers a whole file that is no video with the 422 of a refused PATCH', async () => {
    const c = await creator();
    const text = Buffer.from('not a video at all');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: c.tus({ 'upload-length': String(text.length), ...withBytes }),
      payload: text,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: m.failed(m.notVideo), errors: { video: [m.notVideo] } });
    // A refused file is a video in error, as for any upload; its outcome is where the Location says.
    const videos = await c.videos();
    expect(videos.map((v) => v.status)).toEqual(['error']);
    const outcome = await ctx.app.inject({
      method: 'GET',
      url: `${res.headers.location}/video`,
      headers: c.auth,
    });
    expect(outcome.statusCode).toBe(422);
  });
});

describe('uploads of unknown length (Upload-Defer-Length)', () => {
  it('are no longer offered in OPTIONS', async () => {
    const options = await ctx.app.inject({ method: 'OPTIONS', url: '/v1/uploads' });
    expect(options.statusCode).toBe(204);
    const extensions = String(options.headers['tus-extension']).split(',');
    expect(extensions).toEqual(expect.arrayContaining(['creation', 'creation-with-upload', 'termination']));
    expect(extensions).not.toContain('creation-defer-length');
  });

  it.each([
    ['without bytes', {}, undefined],
    ['with bytes', withBytes, Buffer.from('some bytes')],
  ])('are refused %s: 400 with the reason, no session, no file, no video', async (_, extra, payload) => {
    const c = await creator();
    const before = await fs.readdir(ctx.storage.privateAbs('tus')).catch(() => [] as string[]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: c.tus({ 'upload-defer-length': '1', ...extra }),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: m.lengthRequired });
    expect(res.headers.location).toBeUndefined();
    expect(await c.sessions()).toEqual([]);
    expect(await c.videos()).toEqual([]);
    expect(await fs.readdir(ctx.storage.privateAbs('tus')).catch(() => [] as string[])).toEqual(before);
  });
});

describe('a PATCH overtaken by the HEAD its client resumed with', () => {
  it('is refused, so the offset the HEAD answered stays true and the next PATCH from it is taken', async () => {
    const c = await creator();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: c.tus({ 'upload-length': String(clip.length) }),
    });
    const location = String(created.headers.location);
    const half = Math.floor(clip.length / 2);

    // The PATCH arrives and waits in its checks; the client has given it up and asks where to resume.
    let reached = () => {};
    let release = () => {};
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    holdPatch = { reached, release: new Promise<void>((resolve) => (release = resolve)) };
    const stale = ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: c.tus({ 'upload-offset': '0', ...withBytes }),
      payload: clip.subarray(0, half),
    });
    await arrived;
    const head = await ctx.app.inject({ method: 'HEAD', url: location, headers: c.tus() });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');

    // The given-up PATCH comes out of its checks after the HEAD: it writes nothing.
    release();
    const late = await stale;
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: 'Upload-Offset conflict' });
    const again = await ctx.app.inject({ method: 'HEAD', url: location, headers: c.tus() });
    expect(again.headers['upload-offset']).toBe('0');

    // The client carries on from the offset it was told, once, and the upload becomes one video.
    const rest = await ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: c.tus({ 'upload-offset': '0', ...withBytes }),
      payload: clip,
    });
    expect(rest.statusCode, rest.body).toBe(204);
    expect(rest.headers['video-id']).toBeDefined();
    expect(await c.videos()).toHaveLength(1);
  });
});

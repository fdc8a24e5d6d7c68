import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
/** Every method and path the app registers, as `get /v1/users/:id`. */
const registered = new Set<string>();
// biome-ignore lint/suspicious/noExplicitAny: the document is JSON read back from the server.
let doc: any;

beforeAll(async () => {
  ctx = await createTestContext({
    onRoute(route) {
      for (const m of [route.method].flat()) registered.add(`${m.toLowerCase()} ${route.url}`);
    },
  });
  doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
});
afterAll(() => ctx.close());

describe('API reference', () => {
  it('serves OpenAPI 3.1 generated from the contract schemas, with the documented rules', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
    const follow = doc.paths['/v1/follow-model'].post;
    expect(follow.description).toMatch(/201.*only when a follow was created/);
    expect(Object.keys(follow.responses)).toEqual(expect.arrayContaining(['200', '201', '401', '422']));
    const body = follow.requestBody.content['application/json'].schema;
    expect(body.properties.action).toMatchObject({ enum: ['follow', 'unfollow'] });
    expect(body.required).toEqual(expect.arrayContaining(['model_id', 'action']));
    const stats = doc.paths['/v1/profile/stats'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(stats.properties.range.properties)).toEqual(
      expect.arrayContaining(['video_views', 'video_likes', 'new_followers', 'link_clicks']),
    );
    expect(doc.paths['/v1/users/{id}'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path' }),
    );
    expect(doc.paths['/v1/users'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['type', 'gender', 'page']),
    );
  });

  it('documents the upload calls: tus, multipart, the outcome and the details', () => {
    expect(Object.keys(doc.paths['/v1/uploads/{id}']).sort()).toEqual(['delete', 'head', 'options', 'patch']);
    expect(doc.paths['/v1/uploads/{id}'].patch.description).toMatch(/Video-Id/);
    expect(doc.paths['/v1/uploads/{id}'].patch.requestBody.content).toHaveProperty(
      'application/offset+octet-stream',
    );
    const upload = doc.paths['/v1/videos/upload'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.required).toEqual(['video']);
    expect(Object.keys(upload.responses['201'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['videoId', 'screenshot']),
    );
    const details = doc.paths['/v1/videos/upload-details'].post;
    expect(Object.keys(details.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['videoId', 'title', 'tags', 'is_nsfw', 'uploadDate', 'uploadDateTimezone']),
    );
    expect(Object.keys(details.responses)).toEqual(
      expect.arrayContaining(['200', '401', '403', '404', '422']),
    );
    expect(doc.paths['/v1/uploads/{id}/video'].get).toBeDefined();
  });

  it('documents every /v1 call the app registers, and only those', () => {
    const calls = [...registered].filter((call) => {
      const [method, url] = call.split(' ') as [string, string];
      // Fastify adds a HEAD for every GET by itself; a HEAD of its own (tus) is a call.
      return url.startsWith('/v1/') && !(method === 'head' && registered.has(`get ${url}`));
    });
    expect(calls.length).toBeGreaterThan(50);
    const documented = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(calls.sort());
  });

  it('gives every call a summary, its answers and, for path parameters, their names', () => {
    for (const [path, ops] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toEqual(expect.any(String));
        expect(Object.keys(op.responses as object).length, `${method} ${path}`).toBeGreaterThan(0);
        const names = ((op.parameters ?? []) as { name: string; in: string }[])
          .filter((p) => p.in === 'path')
          .map((p) => p.name);
        expect(names, `${method} ${path}`).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      }
    }
  });

  it('states the server-side rules where they apply', () => {
    const home = doc.paths['/v1/videos'].get;
    expect(home.description).toContain('engagement = max(1 + 3·likes + 0.25·views');
    expect(home.description).toContain('score      = engagement / (age_hours + 2)^1.5');
    expect(home.description).toMatch(/never sees a video twice/);
    expect(home.parameters.map((p: { name: string }) => p.name)).toContain('cursor');
    expect(doc.paths['/v1/video-view'].post.description).toMatch(/once per viewer per video per 6 hours/);
    const rate = doc.paths['/v1/video-rating/rate'].post;
    expect(rate.description).toMatch(/1 is the worst, 5 the best/);
    expect(rate.description).toMatch(/replaces the earlier rating/);
    expect(Object.keys(rate.responses)).toEqual(expect.arrayContaining(['401', '403']));
    for (const path of ['/v1/video-like', '/v1/video-view', '/v1/report-video', '/v1/event']) {
      const op = doc.paths[path].post;
      expect(op.description, path).toMatch(/Idempotent-Replayed: true/);
      expect(op.parameters, path).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
      );
      expect(op.responses, path).toHaveProperty('400');
    }
    const discover = doc.paths['/v1/discover'].get;
    expect(discover.description).toMatch(/ETag/);
    expect(discover.description).toMatch(/stale-while-revalidate=600/);
    expect(discover.responses).toHaveProperty('304');
    const search = doc.paths['/v1/discover/search'].post;
    expect(search.description).toMatch(/trigram/);
    expect(search.description).toMatch(/is_final: true/);
    expect(doc.paths['/v1/tags/{tag}/videos'].get.description).toMatch(/keyset on \(publish time, id\)/);
    expect(doc.paths['/v1/videos/{id}/delete'].get.description).toMatch(/`deleting`/);
    expect(doc.paths['/v1/report-video'].post.responses).toHaveProperty('429');
    expect(doc.paths['/v1/login'].post.description).toMatch(/60 days/);
  });

  it('serves a small HTML page that reads the document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('/v1/docs/openapi.json');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
const registered = new Set<string>();

beforeAll(async () => {
  ctx = await createTestContext({
    onRoute(route) {
      for (const m of [route.method].flat()) registered.add(`${m.toLowerCase()} ${route.url}`);
    },
  });
});
afterAll(() => ctx.close());

describe('API reference', () => {
  it('serves OpenAPI 3.1 generated from the contract schemas, with the documented rules', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
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

  it('documents the upload calls: tus, multipart, the outcome and the details', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
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

  it('documents only calls that exist', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(ops)) {
        expect(registered, `${method} ${path}`).toContain(`${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      }
    }
  });

  it('serves a small HTML page that reads the document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('/v1/docs/openapi.json');
  });
});

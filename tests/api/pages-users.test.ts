import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { publicUserResponseSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let creatorId = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.database.db.insert(t.pages).values({ slug: 'faq', title: 'FAQ', content: '<h2>Hello</h2>' });
  const creator = await insertUser(ctx, { username: 'Luna_Vega', slug: 'luna_vega', description: 'Hi' });
  creatorId = creator.id;
  const fan = await insertUser(ctx, { type: 'user' });
  await ctx.database.db.insert(t.follows).values({ followerId: fan.id, modelId: creator.id });
  await ctx.database.db.insert(t.links).values([
    { userId: creator.id, name: 'Second', url: 'https://b.example', position: 1 },
    { userId: creator.id, name: 'First', url: 'https://a.example', position: 0, isLive: true },
  ]);
  await insertVideo(ctx, { userId: creator.id, likeCount: 10, viewCount: 100 });
  await insertVideo(ctx, { userId: creator.id, likeCount: 5, viewCount: 50 });
  // Not public, so not part of the public totals.
  await insertVideo(ctx, { userId: creator.id, likeCount: 1000, viewCount: 1000, status: 'processing' });
});
afterAll(() => ctx.close());

describe('GET /v1/page/{slug}', () => {
  it('returns the page content', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/page/faq' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { slug: 'faq', title: 'FAQ', content: '<h2>Hello</h2>' } });
  });

  it.each(['nope', '..%2F..%2Fetc', 'UPPER'])('answers 404 "Page not found" for %s', async (slug) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/v1/page/${slug}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Page not found' });
  });
});

describe('GET /v1/users/{id}', () => {
  it('finds a profile by id and by slug in any case, with links in order and public totals', async () => {
    for (const key of [String(creatorId), 'luna_vega', 'LUNA_VEGA']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/v1/users/${key}` });
      expect(res.statusCode).toBe(200);
      const { data } = v.parse(publicUserResponseSchema, res.json());
      expect(data).toMatchObject({
        id: creatorId,
        slug: 'luna_vega',
        totalLikes: 15,
        totalVideoViews: 150,
        totalFollowers: 1,
      });
      expect(data.links.map((l) => [l.name, l.isLive])).toEqual([
        ['First', 1],
        ['Second', 0],
      ]);
    }
  });

  it('answers 404 for an unknown user', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/users/nobody-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('message');
  });
});

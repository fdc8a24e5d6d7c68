import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { followingModelsResponseSchema, publicUserResponseSchema } from '../../src/contract';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { bearer, type Cast, createCast, type Role } from './social-helpers';

let ctx: TestContext;
let cast: Cast;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

const follow = (headers: Record<string, string>, body: unknown) =>
  ctx.app.inject({ method: 'POST', url: '/v1/follow-model', headers, payload: body as object });

const followRows = async (modelId: number) =>
  (await ctx.database.db.select().from(t.follows)).filter((f) => f.modelId === modelId);

describe('POST /v1/follow-model', () => {
  it('follows once (201), answers 200 for a repeat without a second row, and unfollows idempotently', async () => {
    const target = await insertUser(ctx, { type: 'channel' });
    const first = await follow(cast.headers.user, { model_id: target.id, action: 'follow' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ isFollowing: true, totalFollowers: 1 });
    const again = await follow(cast.headers.user, { model_id: String(target.id), action: 'follow' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ isFollowing: true, totalFollowers: 1 });
    expect(await followRows(target.id)).toHaveLength(1);

    const off = await follow(cast.headers.user, { model_id: target.id, action: 'unfollow' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ isFollowing: false, totalFollowers: 0 });
    const offAgain = await follow(cast.headers.user, { model_id: target.id, action: 'unfollow' });
    expect(offAgain.statusCode).toBe(200);
    expect(await followRows(target.id)).toHaveLength(0);
  });

  it('is reflected in isFollowing of GET /v1/users/{id} for that viewer only', async () => {
    const target = await insertUser(ctx, { type: 'model' });
    await follow(cast.headers.user, { model_id: target.id, action: 'follow' });
    const mine = await ctx.app.inject({
      method: 'GET',
      url: `/v1/users/${target.id}`,
      headers: cast.headers.user,
    });
    expect(v.parse(publicUserResponseSchema, mine.json()).data).toMatchObject({
      isFollowing: true,
      totalFollowers: 1,
    });
    for (const headers of [cast.headers.guest, cast.headers.other]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/v1/users/${target.id}`, headers });
      expect(res.json().data.isFollowing).toBe(false);
    }
  });

  // Following is the viewer's own act: everyone logged in may follow a creator other than themselves.
  it.each<[Role, number]>([
    ['guest', 401],
    ['user', 201],
    ['owner', 422],
    ['other', 201],
    ['manager', 201],
  ])('permission matrix on the owner model: %s → %i', async (role, status) => {
    const res = await follow(cast.headers[role], { model_id: cast.ids.owner, action: 'follow' });
    expect(res.statusCode).toBe(status);
    expect(typeof res.json().message === 'string' || res.json().isFollowing === true).toBe(true);
    if (role === 'owner') expect(res.json()).toMatchObject({ message: 'You cannot follow yourself.' });
    if (role === 'guest') expect(res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('refuses plain users as targets, unknown ids and bad input with the contract messages', async () => {
    const plain = await follow(cast.headers.other, { model_id: cast.ids.user, action: 'follow' });
    expect(plain.statusCode).toBe(422);
    expect(plain.json()).toEqual({
      message: 'Only models and channels can be followed.',
      errors: { model_id: ['Only models and channels can be followed.'] },
    });
    const unknown = await follow(cast.headers.other, { model_id: 99_999_999, action: 'follow' });
    expect(unknown.statusCode).toBe(404);
    const missing = await follow(cast.headers.other, { action: 'follow' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.model_id).toEqual(['Missing model id.']);
    const badAction = await follow(cast.headers.other, { model_id: cast.ids.owner, action: 'like' });
    expect(badAction.statusCode).toBe(422);
    expect(badAction.json().errors.action).toEqual(['Action must be follow or unfollow.']);
  });

  it('treats a creator who geo-blocks the follower as unknown (404)', async () => {
    const hidden = await insertUser(ctx, { type: 'model' });
    await ctx.database.db.insert(t.geoBlocks).values({ userId: hidden.id, countryCode: 'DE' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/follow-model',
      headers: { ...cast.headers.user, 'cf-ipcountry': 'de' },
      payload: { model_id: hidden.id, action: 'follow' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /v1/profile/following-models', () => {
  it('lists followed creators, live first, leaves out geo-blocking ones, and needs a token', async () => {
    const fan = await insertUser(ctx, { type: 'user' });
    const headers = await bearer(ctx, fan.id);
    const live = await insertUser(ctx, { type: 'model', name: 'Live One', isLive: true });
    const quiet = await insertUser(ctx, { type: 'channel', name: 'Quiet One' });
    const blocking = await insertUser(ctx, { type: 'model', name: 'Blocking One' });
    await ctx.database.db
      .insert(t.geoBlocks)
      .values({ userId: blocking.id, countryCode: 'US', regionCode: 'TX' });
    for (const m of [quiet, live, blocking]) await follow(headers, { model_id: m.id, action: 'follow' });

    const res = await ctx.app.inject({ method: 'GET', url: '/v1/profile/following-models', headers });
    expect(res.statusCode).toBe(200);
    const { data } = v.parse(followingModelsResponseSchema, res.json());
    expect(data.map((d) => [d.model.name, d.model.isLive])).toEqual([
      ['Live One', 1],
      ['Blocking One', 0],
      ['Quiet One', 0],
    ]);
    const inTexas = await ctx.app.inject({
      method: 'GET',
      url: '/v1/profile/following-models',
      headers: { ...headers, 'cf-ipcountry': 'US', 'cf-region-code': 'US-TX' },
    });
    expect(inTexas.json().data.map((d: { model: { name: string } }) => d.model.name)).toEqual([
      'Live One',
      'Quiet One',
    ]);
    const guest = await ctx.app.inject({ method: 'GET', url: '/v1/profile/following-models' });
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toEqual({ message: 'Unauthenticated.' });
  });
});

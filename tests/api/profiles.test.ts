import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { channelListSchema, messages, videoListSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { bearer, type Cast, createCast, type Role } from './social-helpers';

let ctx: TestContext;
let cast: Cast;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  const owner = cast.ids.owner;
  const future = new Date(Date.now() + 86_400_000);
  await insertVideo(ctx, { userId: owner, title: 'Public' });
  await insertVideo(ctx, { userId: owner, title: 'Scheduled', publishAt: future });
  for (const status of ['uploaded', 'processing', 'rejected', 'error'] as const) {
    await insertVideo(ctx, { userId: owner, title: status, status });
  }
});
afterAll(() => ctx.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

describe('GET /v1/users/{id}/videos', () => {
  // The owner and their studio's managers see status badges and scheduled videos; nobody else does.
  it.each<[Role, number]>([
    ['guest', 1],
    ['user', 1],
    ['owner', 6],
    ['other', 1],
    ['manager', 6],
  ])('what %s sees of the owner model: %i videos', async (role, expected) => {
    const res = await get(`/v1/users/${cast.ids.owner}/videos`, cast.headers[role]);
    expect(res.statusCode).toBe(200);
    const list = v.parse(videoListSchema, res.json());
    expect(list.data).toHaveLength(expected);
    expect(list.links.next).toBeNull();
    if (expected === 1) expect(list.data[0]).toMatchObject({ title: 'Public', status: 'approved' });
    else
      expect(new Set(list.data.map((d) => d.status))).toEqual(
        new Set(['approved', 'uploaded', 'processing', 'rejected', 'error']),
      );
  });

  it('pages by 30 with a next link, by id or slug, and 404s for unknown users and bad pages', async () => {
    const creator = await insertUser(ctx, { username: 'Pager_Cam', slug: 'pager_cam' });
    for (let i = 0; i < 31; i++) await insertVideo(ctx, { userId: creator.id, title: `v${i}` });
    const first = v.parse(videoListSchema, (await get('/v1/users/PAGER_CAM/videos')).json());
    expect(first.data).toHaveLength(30);
    expect(first.links.next).toBe('/v1/users/PAGER_CAM/videos?page=2');
    const second = v.parse(videoListSchema, (await get(first.links.next ?? '')).json());
    expect(second.data).toHaveLength(1);
    expect(second.links.next).toBeNull();
    expect((await get('/v1/users/nobody-at-all/videos')).statusCode).toBe(404);
    const bad = await get(`/v1/users/${creator.id}/videos?page=zero`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.page).toEqual([messages.server.invalidPage]);
  });

  it('marks the videos the viewer liked', async () => {
    const creator = await insertUser(ctx);
    const liked = await insertVideo(ctx, { userId: creator.id, title: 'Liked' });
    await insertVideo(ctx, { userId: creator.id, title: 'Not liked' });
    await ctx.database.db
      .insert(t.videoLikes)
      .values({ videoId: liked.id, userId: cast.ids.user, viewerKey: `u:${cast.ids.user}` });
    const res = await get(`/v1/users/${creator.id}/videos`, cast.headers.user);
    const flags = Object.fromEntries(
      res.json().data.map((d: { title: string; isLiked: boolean }) => [d.title, d.isLiked]),
    );
    expect(flags).toEqual({ Liked: true, 'Not liked': false });
  });
});

describe('GET /v1/users?type=channel&gender=m', () => {
  it('lists creator cards of one type and gender, live first, with a next link', async () => {
    await insertUser(ctx, {
      type: 'channel',
      gender: 'm',
      name: 'Alpha TV',
      color: '#ff0000',
      description: 'News',
    });
    await insertUser(ctx, { type: 'channel', gender: 'm', name: 'Beta TV', isLive: true });
    await insertUser(ctx, { type: 'channel', gender: 't', name: 'Gamma TV' });
    const res = await get('/v1/users?type=channel&gender=m');
    expect(res.statusCode).toBe(200);
    const list = v.parse(channelListSchema, res.json());
    expect(list.data.map((c) => c.name)).toEqual(['Beta TV', 'Alpha TV']);
    expect(list.data[1]).toMatchObject({ color: '#ff0000', description: 'News', isLive: 0, cover: null });
    expect(Object.keys(list.data[0] ?? {}).sort()).toEqual(
      ['avatar', 'color', 'cover', 'description', 'id', 'isLive', 'name', 'slug'].sort(),
    );
    expect(list.links.next).toBeNull();
    const both = v.parse(channelListSchema, (await get('/v1/users?type=channel&gender=m,t')).json());
    expect(both.data.map((c) => c.name)).toEqual(['Beta TV', 'Alpha TV', 'Gamma TV']);
  });

  it('pages by 30 and validates its query', async () => {
    for (let i = 0; i < 31; i++)
      await insertUser(ctx, { type: 'channel', gender: 't', name: `Zed ${String(i).padStart(2, '0')}` });
    const first = v.parse(channelListSchema, (await get('/v1/users?type=channel&gender=t')).json());
    expect(first.data).toHaveLength(30);
    expect(first.links.next).toBe('/v1/users?type=channel&gender=t&page=2');
    const second = v.parse(channelListSchema, (await get(first.links.next ?? '')).json());
    expect(second.data.length).toBeGreaterThanOrEqual(1);
    for (const [query, field] of [
      ['type=user', 'type'],
      ['gender=x', 'gender'],
      ['page=-1', 'page'],
    ]) {
      const res = await get(`/v1/users?${query}`);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
  });
});

describe('GET /v1/profile/liked-videos', () => {
  it('lists the public videos the user liked, newest like first, and needs a token', async () => {
    const fan = await insertUser(ctx, { type: 'user' });
    const headers = await bearer(ctx, fan.id);
    const creator = await insertUser(ctx);
    const old = await insertVideo(ctx, { userId: creator.id, title: 'Old like' });
    const recent = await insertVideo(ctx, { userId: creator.id, title: 'Recent like' });
    const hidden = await insertVideo(ctx, { userId: creator.id, title: 'Rejected', status: 'rejected' });
    const other = await insertVideo(ctx, { userId: creator.id, title: 'Guest like' });
    const blocker = await insertUser(ctx);
    const blocked = await insertVideo(ctx, { userId: blocker.id, title: 'Blocked in CA' });
    await ctx.database.db.insert(t.geoBlocks).values({ userId: blocker.id, countryCode: 'CA' });
    const key = `u:${fan.id}`;
    await ctx.database.db.insert(t.videoLikes).values([
      { videoId: old.id, userId: fan.id, viewerKey: key, createdAt: new Date(Date.now() - 60_000) },
      { videoId: recent.id, userId: fan.id, viewerKey: key },
      { videoId: hidden.id, userId: fan.id, viewerKey: key },
      { videoId: blocked.id, userId: fan.id, viewerKey: key, createdAt: new Date(Date.now() - 120_000) },
      { videoId: other.id, guestId: 'guest-1234', viewerKey: 'g:guest-1234' },
    ]);
    const res = await get('/v1/profile/liked-videos', headers);
    expect(res.statusCode).toBe(200);
    const list = v.parse(videoListSchema, res.json());
    expect(list.data.map((d) => [d.title, d.isLiked])).toEqual([
      ['Recent like', true],
      ['Old like', true],
      ['Blocked in CA', true],
    ]);
    const inCanada = v.parse(
      videoListSchema,
      (await get('/v1/profile/liked-videos', { ...headers, 'cf-ipcountry': 'CA' })).json(),
    );
    expect(inCanada.data.map((d) => d.title)).toEqual(['Recent like', 'Old like']);
    const guest = await get('/v1/profile/liked-videos');
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toEqual({ message: 'Unauthenticated.' });
  });
});

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { sixMonthsAgo } from '../../server/routes/stats';
import { statsResponseSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { bearer, type Cast, createCast, type Role } from './social-helpers';

let ctx: TestContext;
let cast: Cast;
let headers: Record<string, string>;

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const at = (offset: number) => new Date(Date.now() + offset * DAY);

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  const { db } = ctx.database;
  const creator = await insertUser(ctx, { type: 'model' });
  headers = await bearer(ctx, creator.id);
  const a = await insertVideo(ctx, { userId: creator.id, likeCount: 7, viewCount: 70 });
  await insertVideo(ctx, { userId: creator.id, likeCount: 3, viewCount: 30, status: 'processing' });
  const someoneElse = await insertUser(ctx);
  const theirs = await insertVideo(ctx, { userId: someoneElse.id, likeCount: 100, viewCount: 100 });
  const fans = await Promise.all([1, 2, 3].map(() => insertUser(ctx, { type: 'user' })));
  // Views: 2 today, 1 ten days ago, 1 forty days ago; one on someone else's video that must not count.
  await db.insert(t.videoViews).values([
    { videoId: a.id, viewerKey: 'g:a', createdAt: at(0) },
    { videoId: a.id, viewerKey: 'g:b', createdAt: at(0) },
    { videoId: a.id, viewerKey: 'g:c', createdAt: at(-10) },
    { videoId: a.id, viewerKey: 'g:d', createdAt: at(-40) },
    { videoId: theirs.id, viewerKey: 'g:a', createdAt: at(0) },
  ]);
  await db.insert(t.videoLikes).values([
    { videoId: a.id, viewerKey: 'g:a', createdAt: at(-1) },
    { videoId: a.id, viewerKey: 'g:b', createdAt: at(-50) },
  ]);
  await db.insert(t.follows).values([
    { followerId: fans[0]?.id ?? 0, modelId: creator.id, createdAt: at(-2) },
    { followerId: fans[1]?.id ?? 0, modelId: creator.id, createdAt: at(-45) },
    { followerId: fans[2]?.id ?? 0, modelId: creator.id, createdAt: at(-100) },
  ]);
  const [site] = await db
    .insert(t.links)
    .values([
      { userId: creator.id, name: 'Site', url: 'https://site.example', position: 0 },
      { userId: creator.id, name: 'Shop', url: 'https://shop.example', position: 1 },
    ])
    .returning();
  await db.insert(t.linkClicks).values([
    { linkId: site?.id ?? 0, guestId: 'g1', createdAt: at(0) },
    { linkId: site?.id ?? 0, guestId: 'g2', createdAt: at(-3) },
    { linkId: site?.id ?? 0, guestId: 'g3', createdAt: at(-60) },
  ]);
});
afterAll(() => ctx.close());

const stats = (h: Record<string, string>, payload?: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/profile/stats',
    headers: h,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('POST /v1/profile/stats', () => {
  it('without a body: lifetime totals and the last 30 days', async () => {
    const res = await stats(headers);
    expect(res.statusCode).toBe(200);
    const body = v.parse(statsResponseSchema, res.json());
    expect(body.lifetime).toEqual({ total_videos: 2, total_likes: 10, total_views: 100, total_followers: 3 });
    expect(body.range).toEqual({
      from: day(-29),
      to: day(0),
      video_views: 3,
      video_likes: 1,
      new_followers: 1,
      link_clicks: [
        { name: 'Site', clicks: 2 },
        { name: 'Shop', clicks: 0 },
      ],
      daily: expect.any(Array),
    });
  });

  it('adds a daily series that covers exactly the range, quiet days as zeros, and sums to the range', async () => {
    const body = v.parse(statsResponseSchema, (await stats(headers)).json());
    const { daily } = body.range;
    expect(daily).toHaveLength(30);
    expect(daily.map((d) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => day(i - 29)));
    const on = (date: string) => daily.find((d) => d.date === date);
    expect(on(day(0))).toEqual({ date: day(0), views: 2, likes: 0 });
    expect(on(day(-1))).toEqual({ date: day(-1), views: 0, likes: 1 });
    expect(on(day(-10))).toEqual({ date: day(-10), views: 1, likes: 0 });
    expect(on(day(-5))).toEqual({ date: day(-5), views: 0, likes: 0 });
    expect(daily.reduce((n, d) => n + d.views, 0)).toBe(body.range.video_views);
    expect(daily.reduce((n, d) => n + d.likes, 0)).toBe(body.range.video_likes);

    // A chosen range: its own days only, both ends included; one day is one entry.
    const chosen = v.parse(
      statsResponseSchema,
      (await stats(headers, { from: day(-60), to: day(-40) })).json(),
    );
    expect(chosen.range.daily).toHaveLength(21);
    expect(chosen.range.daily[0]?.date).toBe(day(-60));
    expect(chosen.range.daily.at(-1)?.date).toBe(day(-40));
    expect(chosen.range.daily.filter((d) => d.views + d.likes > 0)).toEqual([
      { date: day(-50), views: 0, likes: 1 },
      { date: day(-40), views: 1, likes: 0 },
    ]);
    const single = v.parse(
      statsResponseSchema,
      (await stats(headers, { from: day(-3), to: day(-3) })).json(),
    );
    expect(single.range.daily).toEqual([{ date: day(-3), views: 0, likes: 0 }]);
  });

  it('counts a view at 23:59 UTC on its own day, not the next one', async () => {
    const creator = await insertUser(ctx, { type: 'model' });
    const video = await insertVideo(ctx, { userId: creator.id });
    const yesterday = day(-1);
    await ctx.database.db.insert(t.videoViews).values([
      { videoId: video.id, viewerKey: 'g:late', createdAt: new Date(`${yesterday}T23:59:30Z`) },
      { videoId: video.id, viewerKey: 'g:early', createdAt: new Date(`${day(0)}T00:00:00Z`) },
    ]);
    const res = await stats(await bearer(ctx, creator.id), { from: yesterday, to: day(0) });
    expect(res.json().range.daily).toEqual([
      { date: yesterday, views: 1, likes: 0 },
      { date: day(0), views: 1, likes: 0 },
    ]);
  });

  it('counts a chosen range, both ends inclusive', async () => {
    const res = await stats(headers, { from: day(-60), to: day(-40) });
    expect(res.statusCode).toBe(200);
    expect(res.json().range).toMatchObject({
      video_views: 1,
      video_likes: 1,
      new_followers: 1,
      link_clicks: [
        { name: 'Site', clicks: 1 },
        { name: 'Shop', clicks: 0 },
      ],
    });
    const single = await stats(headers, { from: day(0), to: day(0) });
    expect(single.json().range.video_views).toBe(2);
  });

  it('limits the range to six months ago .. today with per-field messages', async () => {
    const earliest = sixMonthsAgo(new Date());
    expect((await stats(headers, { from: earliest, to: day(0) })).statusCode).toBe(200);
    const cases: [unknown, string, string][] = [
      [{ from: day(-200), to: day(0) }, 'from', 'The start date cannot be more than six months ago.'],
      [{ from: day(-5), to: day(1) }, 'to', 'The end date cannot be in the future.'],
      [{ from: day(-1), to: day(-5) }, 'from', 'The start date must not be after the end date.'],
      [{ from: '2024-13-01', to: day(0) }, 'from', 'Dates must look like YYYY-MM-DD.'],
      [{ from: '01/02/2025' }, 'from', 'Dates must look like YYYY-MM-DD.'],
      [{ to: 20250101 }, 'to', 'Dates must look like YYYY-MM-DD.'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await stats(headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ message, errors: { [field]: [message] } });
    }
  });

  it.each<[Role, number]>([
    ['guest', 401],
    ['user', 403],
    ['owner', 200],
    ['other', 200],
    ['manager', 200],
  ])('permission matrix (a creator sees their own stats): %s → %i', async (role, status) => {
    const res = await stats(cast.headers[role]);
    expect(res.statusCode).toBe(status);
    if (status === 200) expect(res.json().lifetime.total_videos).toBe(0);
    else expect(typeof res.json().message).toBe('string');
  });
});

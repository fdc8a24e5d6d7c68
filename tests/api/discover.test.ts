import { eq, inArray } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { discoverResponseSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.database.db;
  const liveM = await insertUser(ctx, { gender: 'm', isLive: true, name: 'Alpha' });
  const liveT = await insertUser(ctx, { gender: 't', isLive: true, name: 'Beta', type: 'channel' });
  const blocker = await insertUser(ctx, { gender: 'm', isLive: true, name: 'Gamma' });
  await insertUser(ctx, { gender: 'm', isLive: true, type: 'user', name: 'Plain viewer' });
  await db.insert(t.geoBlocks).values({ userId: blocker.id, countryCode: 'US', regionCode: 'CA' });
  ids.liveM = liveM.id;
  ids.liveT = liveT.id;
  ids.blocker = blocker.id;
  // old: many all-time likes but none this week; fresh: a few likes this week. The counters are those the
  // writes of the rows below would have left (weekly-counts.test.ts covers the writes themselves).
  const old = await insertVideo(ctx, { userId: liveM.id, title: 'old', likeCount: 50, viewCount: 500 });
  const fresh = await insertVideo(ctx, {
    userId: liveT.id,
    title: 'fresh',
    likeCount: 2,
    viewCount: 3,
    weekLikeCount: 2,
    weekViewCount: 1,
  });
  const blocked = await insertVideo(ctx, {
    userId: blocker.id,
    title: 'blocked',
    likeCount: 90,
    viewCount: 900,
    weekLikeCount: 1,
  });
  await insertVideo(ctx, { userId: liveM.id, title: 'hidden', status: 'rejected', likeCount: 99 });
  Object.assign(ids, { old: old.id, fresh: fresh.id, blocked: blocked.id });
  const longAgo = new Date(Date.now() - 30 * 24 * 3600_000);
  await db.insert(t.videoLikes).values([
    { videoId: old.id, viewerKey: 'g:old-1', createdAt: longAgo },
    { videoId: fresh.id, viewerKey: 'g:new-1' },
    { videoId: fresh.id, viewerKey: 'g:new-2' },
    { videoId: blocked.id, viewerKey: 'g:new-3' },
  ]);
  await db.insert(t.videoViews).values([
    { videoId: old.id, viewerKey: 'g:old-1', createdAt: longAgo },
    { videoId: fresh.id, viewerKey: 'g:new-1' },
  ]);
  await db.insert(t.webcamSites).values([
    { slug: 'camsite-b', name: 'Cam B', icon: '/icons/b.png', position: 2 },
    { slug: 'camsite-a', name: 'Cam A', icon: 'sites/a.png', position: 1 },
  ]);
});
afterAll(() => ctx.close());

const discover = async (url = '/v1/discover', headers: Record<string, string> = {}) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode).toBe(200);
  return { res, body: v.parse(discoverResponseSchema, res.json()) };
};
const titles = (list: { title: string }[]) => list.map((x) => x.title);

describe('GET /v1/discover', () => {
  it('groups creators, weekly and all-time videos, and cam sites', async () => {
    const { body } = await discover();
    expect(body.liveUsers.map((u) => u.name)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(body.liveUsers[1]?.type).toBe('channel');
    expect(body.latestUsers.map((u) => u.id)).toEqual([ids.blocker, ids.liveT, ids.liveM]);
    expect(titles(body.videos.liked_weekly)).toEqual(['fresh', 'blocked']);
    expect(titles(body.videos.liked_all_time)).toEqual(['blocked', 'old', 'fresh']);
    expect(titles(body.videos.viewed_weekly)).toEqual(['fresh']);
    expect(titles(body.videos.viewed_all_time)).toEqual(['blocked', 'old', 'fresh']);
    expect(body.webcam_sites).toEqual([
      { name: 'Cam A', slug: 'camsite-a', icon: '/media/sites/a.png' },
      { name: 'Cam B', slug: 'camsite-b', icon: '/icons/b.png' },
    ]);
  });

  it('filters by gender and leaves out creators who geo-block the viewer', async () => {
    const trans = await discover('/v1/discover?gender=t');
    expect(trans.body.liveUsers.map((u) => u.name)).toEqual(['Beta']);
    expect(titles(trans.body.videos.liked_all_time)).toEqual(['fresh']);
    const california = await discover('/v1/discover', { 'cf-ipcountry': 'US', 'cf-region-code': 'US-CA' });
    expect(california.body.liveUsers.map((u) => u.name)).toEqual(['Alpha', 'Beta']);
    expect(titles(california.body.videos.liked_all_time)).toEqual(['old', 'fresh']);
    expect(titles(california.body.videos.liked_weekly)).toEqual(['fresh']);
    const texas = await discover('/v1/discover', { 'cf-ipcountry': 'US', 'cf-region-code': 'TX' });
    expect(texas.body.liveUsers).toHaveLength(3);
    const bad = await ctx.app.inject({ method: 'GET', url: '/v1/discover?gender=x' });
    expect(bad.statusCode).toBe(422);
  });

  it('is cacheable: strong ETag, Cache-Control, 304 on If-None-Match, the same for guests and users', async () => {
    const { res } = await discover();
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(String(res.headers.vary)).toContain('cf-ipcountry');
    const asGuest = await discover('/v1/discover?guest_id=guest-1234-abcd');
    expect(asGuest.res.headers.etag).toBe(etag);
    const again = await ctx.app.inject({
      method: 'GET',
      url: '/v1/discover',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stale = await ctx.app.inject({
      method: 'GET',
      url: '/v1/discover',
      headers: { 'if-none-match': '"x"' },
    });
    expect(stale.statusCode).toBe(200);
    // The page is built once a minute per gender and place: a new like shows when that minute is over.
    const like = await ctx.app.inject({
      method: 'POST',
      url: '/v1/video-like',
      payload: { video_id: ids.old, type: 'add', guest_id: 'guest-new-9999' },
    });
    expect(like.statusCode).toBe(200);
    expect((await discover()).res.headers.etag).toBe(etag);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + ctx.config.discoverCacheMs + 1);
      const changed = await discover();
      expect(changed.res.headers.etag).not.toBe(etag);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is built anew at once when a video is deleted, and once for requests that arrive together', async () => {
    const creator = await insertUser(ctx, { gender: 'm', name: 'Delta' });
    const hit = await insertVideo(ctx, { userId: creator.id, title: 'short-lived hit', likeCount: 99_999 });
    // Rows written behind the API's back show when the minute is over (past the one the test above built).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3 * ctx.config.discoverCacheMs);
    const before = await discover().finally(() => vi.useRealTimers());
    expect(before.body.videos.liked_all_time[0]?.id).toBe(hit.id);
    const token = await issueAccessToken(ctx.database.db, creator.id, false);
    const gone = await ctx.app.inject({
      method: 'GET',
      url: `/v1/videos/${hit.id}/delete`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.statusCode).toBe(200);
    const together = await Promise.all([discover(), discover(), discover()]);
    const tags = new Set(together.map((r) => r.res.headers.etag));
    expect(tags.size).toBe(1);
    expect(tags.has(before.res.headers.etag)).toBe(false);
    expect(together[0]?.body.videos.liked_all_time.map((video) => video.id)).not.toContain(hit.id);
  });
});

describe('GET /v1/discover/category/{group}/videos', () => {
  const list = async (url: string, headers: Record<string, string> = {}) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { data: { title: string; isLiked: boolean }[]; links: { next: string | null } };
  };

  it('pages through a carousel in the discover order, with the same filters', async () => {
    const { body } = await discover();
    const all = await list('/v1/discover/category/most-liked-all-time/videos');
    expect(titles(all.data)).toEqual(titles(body.videos.liked_all_time));
    expect(all.links.next).toBeNull();
    const weekly = await list('/v1/discover/category/most-viewed-this-week/videos?gender=t');
    expect(titles(weekly.data)).toEqual(['fresh']);
    const california = await list('/v1/discover/category/most-viewed-all-time/videos', {
      'cf-ipcountry': 'US',
      'cf-region-code': 'US-CA',
    });
    expect(titles(california.data)).toEqual(['old', 'fresh']);
  });

  it('follows links.next page by page without repeating a video, and marks the viewer’s likes', async () => {
    const first = await list('/v1/discover/category/most-liked-all-time/videos?per_page=2');
    expect(first.data).toHaveLength(2);
    expect(first.links.next).toContain('page=2');
    const second = await list(first.links.next ?? '');
    const { body } = await discover();
    expect(titles([...first.data, ...second.data])).toEqual(titles(body.videos.liked_all_time));
    expect(second.links.next).toBeNull();
    await ctx.database.db
      .insert(t.videoLikes)
      .values({ videoId: ids.fresh ?? 0, viewerKey: 'g:guest-abcdef12' });
    const guest = await list('/v1/discover/category/most-liked-all-time/videos?guest_id=guest-abcdef12');
    expect(guest.data.map((v) => [v.title, v.isLiked])).toEqual([
      ['blocked', false],
      ['old', false],
      ['fresh', true],
    ]);
  });

  it('never repeats or skips a video while likes move between pages', async () => {
    const db = ctx.database.db;
    const creator = await insertUser(ctx, { gender: 'm' });
    const made = [];
    for (let i = 0; i < 12; i++) {
      const video = await insertVideo(ctx, {
        userId: creator.id,
        title: `rank${i}`,
        likeCount: 10 + i,
        weekLikeCount: i + 1,
      });
      made.push(video);
    }
    const idOf = new Map(made.map((v) => [v.title, v.id]));
    // Each group reads a counter on the video row: move the one it reads.
    const counterOf = {
      'most-liked-all-time': 'likeCount',
      'most-liked-this-week': 'weekLikeCount',
    } as const;
    const moves = Object.fromEntries(
      Object.entries(counterOf).map(([group, counter]) => [
        group,
        (title: string, to: number) =>
          db
            .update(t.videos)
            .set({ [counter]: to })
            .where(eq(t.videos.id, idOf.get(title) ?? 0)),
      ]),
    );
    for (const [group, move] of Object.entries(moves)) {
      const url = `/v1/discover/category/${group}/videos`;
      const expected = titles((await list(`${url}?per_page=50`)).data).sort();
      const served: string[] = [];
      let next: string | null = `${url}?per_page=3`;
      let round = 0;
      while (next) {
        const body = await list(next);
        served.push(...titles(body.data));
        next = body.links.next;
        // Between pages the least-liked video not served yet becomes the top hit (it would shift every
        // offset by one: a repeat) and a served one falls to the bottom (a skip).
        const waiting = made.map((v) => v.title).filter((x) => !served.includes(x));
        const servedRank = made.map((v) => v.title).find((x) => served.includes(x));
        if (waiting[0]) await move(waiting[0], 100 + round++);
        if (servedRank) await move(servedRank, 1);
      }
      expect(new Set(served).size, group).toBe(served.length);
      expect([...served].sort(), group).toEqual(expected);
    }
    await db.delete(t.videos).where(inArray(t.videos.id, [...idOf.values()]));
  });
});

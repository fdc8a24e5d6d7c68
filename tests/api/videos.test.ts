import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { videoListSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  const male = await insertUser(ctx, { gender: 'm', avatarPath: 'users/1/avatar.jpg', isLive: true });
  const trans = await insertUser(ctx, { gender: 't' });
  const [neon] = await ctx.database.db.insert(t.tags).values({ name: 'neon', slug: 'neon' }).returning();
  const hour = 3600_000;
  const now = Date.now();
  // Twelve public videos, one hour apart, alternating creators; the newest is "v11".
  for (let i = 0; i < 12; i++) {
    const video = await insertVideo(ctx, {
      userId: i % 2 ? trans.id : male.id,
      title: `v${i}`,
      slug: `v${i}`,
      publishAt: new Date(now - (12 - i) * hour),
    });
    ids[`v${i}`] = video.id;
    if (i % 3 === 0 && neon)
      await ctx.database.db.insert(t.videoTags).values({ videoId: video.id, tagId: neon.id });
  }
  ids.neon = neon?.id ?? 0;
  // The live creator's room link (and an ordinary link that must not be taken for it).
  await ctx.database.db.insert(t.links).values([
    { userId: male.id, name: 'Shop', url: 'https://shop.example/m', position: 0 },
    { userId: male.id, name: 'My room', url: 'https://cams.example/m', isLive: true, position: 1 },
    { userId: trans.id, name: 'Room', url: 'https://cams.example/t', isLive: true, position: 0 },
  ]);
  // Never public: still processing, failed, deleting, or scheduled for tomorrow.
  await insertVideo(ctx, { userId: male.id, title: 'processing', status: 'processing' });
  await insertVideo(ctx, { userId: male.id, title: 'error', status: 'error' });
  await insertVideo(ctx, { userId: male.id, title: 'deleting', status: 'deleting' });
  await insertVideo(ctx, { userId: male.id, title: 'scheduled', publishAt: new Date(now + 24 * hour) });
});
afterAll(() => ctx.close());

const get = async (url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return v.parse(videoListSchema, res.json());
};

describe('GET /v1/videos', () => {
  it('lists only approved videos whose time has come, newest first, in the contract shape', async () => {
    const body = await get('/v1/videos?per_page=50');
    expect(body.data.map((x) => x.title)).toEqual(Array.from({ length: 12 }, (_, i) => `v${11 - i}`));
    expect(body.links.next).toBeNull();
  });

  it('embeds author, tags and media URLs the player needs', async () => {
    const body = await get('/v1/videos?per_page=50');
    const first = body.data.find((x) => x.title === 'v0');
    expect(first?.playlistUrl).toBe('/media/videos/x/master.m3u8');
    expect(first?.thumbnailUrl).toBe('/media/videos/x/thumb.jpg');
    expect(first?.user).toMatchObject({ avatar: '/media/users/1/avatar.jpg', isLive: 1 });
    expect(first?.tags.map((tag) => tag.slug)).toEqual(['neon']);
    // The feed's live chip opens the room of a creator on air; nobody else's link is handed out as live.
    expect(first?.user.liveLink).toMatchObject({ name: 'My room', url: 'https://cams.example/m' });
    expect(body.data.find((x) => x.title === 'v1')?.user.liveLink).toBeNull();
  });

  it('pages without gaps or repeats and links to the next page with the same filters', async () => {
    const seen: string[] = [];
    let url: string | null = '/v1/videos?per_page=5&gender=m,t';
    let pages = 0;
    while (url) {
      const body = await get(url);
      seen.push(...body.data.map((x) => x.title));
      url = body.links.next;
      if (url) expect(url).toContain('gender=m%2Ct');
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => `v${11 - i}`));
  });

  it('filters by the creator gender', async () => {
    const trans = await get('/v1/videos?gender=t&per_page=50');
    expect(trans.data.map((x) => x.title)).toEqual(['v11', 'v9', 'v7', 'v5', 'v3', 'v1']);
  });

  it('filters by tag ids', async () => {
    const body = await get(`/v1/videos?tags=${ids.neon}&per_page=50`);
    expect(body.data.map((x) => x.title)).toEqual(['v9', 'v6', 'v3', 'v0']);
  });

  it('shows a video once it is approved', async () => {
    const [processing] = await ctx.database.db
      .select()
      .from(t.videos)
      .where(eq(t.videos.title, 'processing'));
    await ctx.database.db
      .update(t.videos)
      .set({ status: 'approved' })
      .where(eq(t.videos.id, processing?.id ?? 0));
    const body = await get('/v1/videos?per_page=1');
    expect(body.data[0]?.title).toBe('processing');
  });
});

describe('GET /v1/videos page 1 from memory', () => {
  let mem: TestContext;
  beforeAll(async () => {
    mem = await createTestContext({ config: { feedCacheMs: 60_000 } });
  });
  afterAll(() => mem.close());
  const page = async (query = '') => {
    const res = await mem.app.inject({ method: 'GET', url: `/v1/videos${query}` });
    expect(res.statusCode).toBe(200);
    return v.parse(videoListSchema, res.json()).data;
  };

  it('is ranked once for everyone, with each viewer’s own likes, and drops a deleted video at once', async () => {
    const creator = await insertUser(mem, { gender: 'm' });
    const a = await insertVideo(mem, { userId: creator.id, title: 'a', likeCount: 5 });
    const b = await insertVideo(mem, { userId: creator.id, title: 'b', likeCount: 1 });
    const like = await mem.app.inject({
      method: 'POST',
      url: '/v1/video-like',
      payload: { video_id: b.id, type: 'add', guest_id: 'guest-aaaa-1111' },
    });
    expect(like.statusCode).toBe(200);
    const liker = await page('?guest_id=guest-aaaa-1111');
    expect(liker.map((x) => [x.title, x.isLiked])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect((await page('?guest_id=guest-bbbb-2222')).map((x) => x.isLiked)).toEqual([false, false]);
    expect((await page()).map((x) => x.isLiked)).toEqual([false, false]);
    // Arriving together, their flags are read in one query and each still gets only their own.
    const together = await Promise.all(
      ['guest-bbbb-2222', 'guest-aaaa-1111', 'guest-cccc-3333', 'guest-aaaa-1111'].map((g) =>
        page(`?guest_id=${g}`),
      ),
    );
    expect(together.map((p) => p.map((x) => x.isLiked))).toEqual([
      [false, false],
      [false, true],
      [false, false],
      [false, true],
    ]);

    // A hit written behind the API's back waits for the end of the period; a delete through it does not.
    const hit = await insertVideo(mem, { userId: creator.id, title: 'hit', likeCount: 500 });
    expect((await page()).map((x) => x.title)).toEqual(['a', 'b']);
    const token = await issueAccessToken(mem.database.db, creator.id, false);
    const gone = await mem.app.inject({
      method: 'GET',
      url: `/v1/videos/${a.id}/delete`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.statusCode).toBe(200);
    expect((await page()).map((x) => x.title)).toEqual(['hit', 'b']);
    expect(hit.id).toBeGreaterThan(0);
  });
});

describe('later pages and shared links from memory', () => {
  let mem: TestContext;
  let creatorId: number;
  const byTitle: Record<string, number> = {};
  beforeAll(async () => {
    mem = await createTestContext({ config: { feedCacheMs: 60_000 } });
    creatorId = (await insertUser(mem, { gender: 'm' })).id;
    const now = Date.now();
    for (let i = 0; i < 10; i++) {
      const video = await insertVideo(mem, {
        userId: creatorId,
        title: `m${i}`,
        likeCount: i * 3,
        publishAt: new Date(now - (10 - i) * 3600_000),
      });
      byTitle[`m${i}`] = video.id;
    }
  });
  afterAll(() => mem.close());
  const get = async (url: string) => {
    const res = await mem.app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return v.parse(videoListSchema, res.json());
  };
  /** Every title of a session, following links.next to its end. */
  const session = async (url: string) => {
    const titles: string[] = [];
    for (let next: string | null = url; next; ) {
      const page: Awaited<ReturnType<typeof get>> = await get(next);
      titles.push(...page.data.map((x) => x.title));
      next = page.links.next;
    }
    return titles;
  };

  it('opens a shared link on its video, then the home feed without it, every video once', async () => {
    const home = await session('/v1/videos?per_page=4');
    expect([...home].sort()).toEqual(Object.keys(byTitle).sort());
    // A video of page 1, another one, and the last of the feed (not on page 1).
    for (const pick of [home[0], home[2], home[9]] as string[]) {
      const start = await session(`/v1/videos/start/${byTitle[pick]}?per_page=4`);
      expect(start, pick).toEqual([pick, ...home.filter((x) => x !== pick)]);
    }
  });

  it('gives the crowd behind one page 1 the same page 2 until the period ends, but drops a deleted video at once', async () => {
    const first = await get('/v1/videos?per_page=4');
    const next = first.links.next ?? '';
    const second = (await get(next)).data.map((x) => x.title);
    const served = new Set([...first.data.map((x) => x.title), ...second]);
    // A video further down becomes a hit behind the API's back: ranked afresh, it would lead page 2.
    const later = Object.keys(byTitle).find((x) => !served.has(x)) ?? '';
    await mem.database.db
      .update(t.videos)
      .set({ likeCount: 100_000 })
      .where(eq(t.videos.id, byTitle[later] ?? 0));
    expect((await get(next)).data.map((x) => x.title)).toEqual(second);
    const token = await issueAccessToken(mem.database.db, creatorId, false);
    const gone = second[0] ?? '';
    const deleted = await mem.app.inject({
      method: 'GET',
      url: `/v1/videos/${byTitle[gone]}/delete`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.statusCode).toBe(200);
    const after = (await get(next)).data.map((x) => x.title);
    expect(after).not.toContain(gone);
    expect(after[0]).toBe(later);
  });

  it('hides a creator from a place as soon as she blocks it, not when the pages expire', async () => {
    const FR = { 'cf-ipcountry': 'FR' };
    const [video] = (await get('/v1/videos?per_page=1')).data;
    const start = (headers: Record<string, string>) =>
      mem.app.inject({ method: 'GET', url: `/v1/videos/start/${video?.id}?per_page=4`, headers });
    expect((await start(FR)).statusCode).toBe(200);
    const token = await issueAccessToken(mem.database.db, creatorId, false);
    const block = await mem.app.inject({
      method: 'POST',
      url: '/v1/profile/add-geo-blocked-country',
      headers: { authorization: `Bearer ${token}` },
      payload: { country_code: 'FR' },
    });
    expect(block.statusCode).toBe(200);
    expect((await start(FR)).statusCode).toBe(404);
    expect((await start({})).statusCode).toBe(200);
    const feed = await mem.app.inject({ method: 'GET', url: '/v1/videos?per_page=4', headers: FR });
    expect(feed.json().data).toEqual([]);
  });
});

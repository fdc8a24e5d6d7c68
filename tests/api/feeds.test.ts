import { eq, like } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { trackLikers } from '../../server/videos/likers';
import { decodeSeen, encodeSeen } from '../../server/videos/listing';
import { messages, tagListSchema, tagSlug, type VideoList, videoListSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let male: number;
let trans: number;
let blocker: number;
let neon: number;
let userToken: string;
const hour = 3600_000;
const DE = { 'cf-ipcountry': 'DE' };

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.database.db;
  male = (await insertUser(ctx, { gender: 'm' })).id;
  trans = (await insertUser(ctx, { gender: 't' })).id;
  blocker = (await insertUser(ctx, { gender: 'm' })).id;
  await db.insert(t.geoBlocks).values({ userId: blocker, countryCode: 'DE' });
  const [tagNeon, tagSolo, tagUnused] = await db
    .insert(t.tags)
    .values([
      { name: 'Neon', slug: 'neon' },
      { name: 'Solo', slug: 'solo' },
      { name: 'Unused', slug: 'unused' },
    ])
    .returning();
  neon = tagNeon?.id ?? 0;
  const [dance] = await db.insert(t.categories).values({ slug: 'dance', name: 'Dance' }).returning();
  const [site] = await db.insert(t.webcamSites).values({ slug: 'camx', name: 'CamX' }).returning();
  await db.insert(t.creatorWebcamSites).values([
    { userId: male, siteId: site?.id ?? 0 },
    { userId: blocker, siteId: site?.id ?? 0 },
  ]);
  const now = Date.now();
  const owners = [male, trans, male, trans, male, blocker, male, trans, male, blocker];
  for (const [i, userId] of owners.entries()) {
    const video = await insertVideo(ctx, {
      userId,
      title: `f${i}`,
      publishAt: new Date(now - (20 - i) * hour),
    });
    await db.insert(t.videoTags).values({ videoId: video.id, tagId: neon });
    await db.insert(t.videoCategories).values({ videoId: video.id, categoryId: dance?.id ?? 0 });
    if (userId === blocker)
      await db.insert(t.videoTags).values({ videoId: video.id, tagId: tagSolo?.id ?? 0 });
  }
  await insertVideo(ctx, { userId: male, title: 'draft', status: 'uploaded' });
  const unusedVideo = await insertVideo(ctx, { userId: male, title: 'rejected', status: 'rejected' });
  await db.insert(t.videoTags).values({ videoId: unusedVideo.id, tagId: tagUnused?.id ?? 0 });
  const user = await insertUser(ctx, { type: 'user' });
  userToken = await issueAccessToken(db, user.id, false);
});
afterAll(() => ctx.close());

async function list(url: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return v.parse(videoListSchema, res.json());
}
async function all(url: string, headers: Record<string, string> = {}) {
  const out: string[] = [];
  let next: string | null = url;
  while (next) {
    const body = await list(next, headers);
    out.push(...body.data.map((x) => x.title));
    next = body.links.next;
  }
  return out;
}
const ids = async (...titles: string[]) => {
  const rows = await ctx.database.db.select().from(t.videos);
  return titles.map((title) => rows.find((r) => r.title === title)?.id ?? 0);
};
const newest = (...n: number[]) => n.map((i) => `f${i}`);

describe('the newest-first lists', () => {
  const lists = () => [
    `/v1/tags/${neon}/videos`,
    '/v1/tags/neon/videos',
    '/v1/discover/category/dance/videos',
    '/v1/sidebar/left',
    '/v1/video-rating/unrated',
  ];

  it('list public videos newest first, and leave out geo-blocked creators', async () => {
    for (const url of lists()) {
      expect(await all(`${url}?per_page=3`), url).toEqual(newest(9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
      expect(await all(`${url}?per_page=4`, DE), url).toEqual(newest(8, 7, 6, 4, 3, 2, 1, 0));
    }
    expect(await all('/v1/discover/webcam-site/camx/videos')).toEqual(newest(9, 8, 6, 5, 4, 2, 0));
    expect(await all('/v1/discover/webcam-site/camx/videos', DE)).toEqual(newest(8, 6, 4, 2, 0));
    expect(await all('/v1/tags/solo/videos', DE)).toEqual([]);
  });

  it('filter by gender and keep the filter in links.next', async () => {
    for (const url of lists()) {
      const first = await list(`${url}?gender=t&per_page=2`);
      expect(first.links.next).toContain('gender=t');
      expect(await all(`${url}?gender=t&per_page=2`), url).toEqual(newest(7, 3, 1));
    }
  });

  it('use page sizes of the spec: 30 for tag videos, 20 for the sidebar, 100 tags', async () => {
    const db = ctx.database.db;
    const bulk: number[] = [];
    for (let i = 0; i < 25; i++)
      bulk.push((await insertVideo(ctx, { userId: trans, title: `bulk${i}`, publishAt: new Date(0) })).id);
    await db.insert(t.videoTags).values(bulk.map((videoId) => ({ videoId, tagId: neon })));
    expect((await list('/v1/sidebar/left')).data).toHaveLength(20);
    expect((await list('/v1/video-rating/unrated')).data).toHaveLength(30);
    expect((await list(`/v1/tags/${neon}/videos`)).data).toHaveLength(30);
    const many = await db
      .insert(t.tags)
      .values(Array.from({ length: 105 }, (_, i) => ({ name: `many${i}`, slug: `many${i}` })))
      .returning();
    await db
      .insert(t.videoTags)
      .values(many.map((tag, i) => ({ videoId: bulk[i % bulk.length] ?? 0, tagId: tag.id })));
    const tags = v.parse(tagListSchema, (await ctx.app.inject({ method: 'GET', url: '/v1/tags' })).json());
    expect(tags.data).toHaveLength(100);
    expect(tags.links.next).not.toBeNull();
    await db.delete(t.tags).where(like(t.tags.slug, 'many%'));
    await db.delete(t.videos).where(eq(t.videos.publishAt, new Date(0)));
  });

  it('neither repeat nor skip a video when new ones are published between pages', async () => {
    const seen: string[] = [];
    let next: string | null = '/v1/sidebar/left?per_page=3';
    let n = 0;
    while (next) {
      const body = await list(next);
      seen.push(...body.data.map((x) => x.title));
      next = body.links.next;
      await insertVideo(ctx, { userId: male, title: `late${n++}` });
    }
    expect(seen).toEqual(newest(9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    await ctx.database.db.delete(t.videos).where(like(t.videos.title, 'late%'));
  });
});

describe("the spec's own call shapes", () => {
  it('read an empty query value as a value not given', async () => {
    for (const url of [
      '/v1/sidebar/left?gender=&per_page=20&page=',
      `/v1/tags/${neon}/videos?gender=&per_page=30&page=`,
      '/v1/video-rating/unrated?page=&per_page=&gender=',
      '/v1/videos?gender=&tags=',
    ]) {
      expect((await list(url)).data, url).toHaveLength(10);
    }
    const tags = await ctx.app.inject({ method: 'GET', url: '/v1/tags?per_page=100&gender=&page=&search=' });
    expect(v.parse(tagListSchema, tags.json()).data.map((x) => x.slug)).toEqual(['neon', 'solo']);
    for (const url of ['/v1/discover?gender=', '/v1/users?type=&gender=&page=']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
  });
});

describe('pages read while videos are inserted at the same time', () => {
  it('neither repeat nor skip a video', async () => {
    let n = 0;
    for (const start of [
      '/v1/sidebar/left?per_page=2',
      `/v1/tags/${neon}/videos?per_page=2`,
      '/v1/videos?per_page=2',
    ]) {
      const seen: string[] = [];
      let next: string | null = start;
      while (next) {
        const [body]: [VideoList, ...unknown[]] = await Promise.all([
          list(next),
          ...Array.from({ length: 3 }, async () => {
            const video = await insertVideo(ctx, { userId: male, title: `race${n++}` });
            await ctx.database.db.insert(t.videoTags).values({ videoId: video.id, tagId: neon });
          }),
        ]);
        seen.push(...body.data.map((x) => x.title));
        next = body.links.next;
      }
      expect(new Set(seen).size, start).toBe(seen.length);
      expect(seen.filter((x) => /^f\d$/.test(x)).sort(), start).toEqual(newest(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    }
    await ctx.database.db.delete(t.videos).where(like(t.videos.title, 'race%'));
  });
});

describe('per-viewer flags', () => {
  it('marks liked and rated videos for the viewer who did it, and for no one else', async () => {
    const fresh = await insertUser(ctx, { gender: 't' });
    const video = await insertVideo(ctx, { userId: fresh.id, title: 'flagged' });
    await ctx.app.inject({
      method: 'POST',
      url: '/v1/video-like',
      payload: { video_id: video.id, type: 'add', guest_id: 'guest-flag-0001' },
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/v1/video-rating/rate',
      payload: { video_id: video.id, rating: 5 },
      headers: { authorization: `Bearer ${userToken}` },
    });
    const find = async (url: string, headers: Record<string, string> = {}) =>
      (await list(url, headers)).data.find((x) => x.title === 'flagged');
    for (const base of ['/v1/videos', '/v1/sidebar/left']) {
      expect(await find(`${base}?guest_id=guest-flag-0001`)).toMatchObject({ isLiked: true, isRated: false });
      expect(await find(`${base}?guest_id=guest-flag-0002`)).toMatchObject({
        isLiked: false,
        isRated: false,
      });
      expect(await find(base, { authorization: `Bearer ${userToken}` })).toMatchObject({
        isLiked: false,
        isRated: true,
      });
    }
    const rated = await all('/v1/video-rating/rated', { authorization: `Bearer ${userToken}` });
    expect(rated).toEqual(['flagged']);
    const unrated = await all('/v1/video-rating/unrated?gender=t', { authorization: `Bearer ${userToken}` });
    expect(unrated).not.toContain('flagged');
    expect(await all('/v1/video-rating/rated?guest_id=guest-flag-0001')).toEqual([]);
    expect(await all('/v1/video-rating/unrated?gender=t&guest_id=guest-flag-0001')).toContain('flagged');
    await ctx.database.db.delete(t.videos).where(eq(t.videos.id, video.id));
  });

  it('still marks a guest like written after start when guests who never liked are answered from memory', async () => {
    // As the server does on PGlite (videos/likers.ts); on PostgreSQL it keeps nothing and every page asks.
    await trackLikers(ctx.database);
    const fresh = await insertUser(ctx, { gender: 't' });
    const video = await insertVideo(ctx, { userId: fresh.id, title: 'kept' });
    const like = (guest_id: string, type: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/video-like',
        payload: { video_id: video.id, type, guest_id },
      });
    await like('guest-kept-0001', 'add');
    await like('guest-kept-0002', 'add');
    await like('guest-kept-0002', 'remove');
    const find = async (guest: string) =>
      (await list(`/v1/videos?guest_id=${guest}`)).data.find((x) => x.title === 'kept');
    expect(await find('guest-kept-0001')).toMatchObject({ isLiked: true });
    expect(await find('guest-kept-0002')).toMatchObject({ isLiked: false });
    expect(await find('guest-kept-0003')).toMatchObject({ isLiked: false });
    await ctx.database.db.delete(t.videos).where(eq(t.videos.id, video.id));
  });
});

describe('GET /v1/videos (home feed)', () => {
  it('ranks engagement against freshness', async () => {
    const [f0] = await ids('f0');
    // f0 is 20 hours old; with 30 likes it beats a video published just now with none.
    await ctx.database.db
      .update(t.videos)
      .set({ likeCount: 30 })
      .where(eq(t.videos.id, f0 ?? 0));
    const now = await insertVideo(ctx, { userId: trans, title: 'just-now' });
    const body = await list('/v1/videos?per_page=3');
    expect(body.data.map((x) => x.title)).toEqual(['f0', 'just-now', 'f9']);
    await ctx.database.db
      .update(t.videos)
      .set({ likeCount: 0 })
      .where(eq(t.videos.id, f0 ?? 0));
    await ctx.database.db.delete(t.videos).where(eq(t.videos.id, now.id));
  });

  it('serves each video once per session while counters move and videos arrive', async () => {
    const served: string[] = [];
    let next: string | null = '/v1/videos?per_page=3';
    let round = 0;
    while (next) {
      const body = await list(next);
      served.push(...body.data.map((x) => x.title));
      next = body.links.next;
      // Shake the ranking: the last-ranked video suddenly becomes a hit, and a new one is published.
      const [last] = await ids('f0');
      await ctx.database.db
        .update(t.videos)
        .set({ likeCount: 1000 + round })
        .where(eq(t.videos.id, last ?? 0));
      await insertVideo(ctx, { userId: trans, title: `arrived${round++}` });
    }
    expect([...served].sort()).toEqual(newest(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).sort());
    expect(new Set(served).size).toBe(served.length);
    // The next session starts fresh and sees the new arrivals.
    expect((await list('/v1/videos?per_page=50')).data.some((x) => x.title.startsWith('arrived'))).toBe(true);
    await ctx.database.db.update(t.videos).set({ likeCount: 0 });
  });

  it('leaves out geo-blocked creators and filters by gender', async () => {
    const titles = await all('/v1/videos?per_page=4&gender=m', DE);
    expect(titles.filter((x) => x.startsWith('f')).sort()).toEqual(newest(0, 2, 4, 6, 8).sort());
  });

  it('rejects a tampered cursor with 422', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/videos?cursor=bm9wZQ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(messages.server.invalidCursor);
  });

  it('encodes served ids compactly and losslessly', () => {
    const list = [5, 1, 900, 77, 78];
    expect(decodeSeen(encodeSeen(list))).toEqual([1, 5, 77, 78, 900]);
    expect(decodeSeen('')).toEqual([]);
  });
});

describe('GET /v1/videos/start/{id} and /v1/tags/{slug}/videos/{id}', () => {
  it('put the chosen video first, then the rest without it', async () => {
    const [f3] = await ids('f3');
    const start = await list(`/v1/videos/start/${f3}?per_page=4`);
    expect(start.data[0]?.title).toBe('f3');
    const rest = await all(start.links.next ?? '');
    const titles = [...start.data.map((x) => x.title), ...rest].filter((x) => x.startsWith('f'));
    expect(titles.filter((x) => x === 'f3')).toHaveLength(1);
    expect(titles).toHaveLength(10);
    const tagged = await all(`/v1/tags/neon/videos/${f3}?per_page=4`);
    expect(tagged).toEqual(['f3', ...newest(9, 8, 7, 6, 5, 4, 2, 1, 0)]);
  });

  it('answer 404 Video not found for unknown, hidden or geo-blocked videos', async () => {
    const [f5] = await ids('f5');
    const [draft] = await ids('draft');
    for (const url of [
      '/v1/videos/start/999999',
      `/v1/videos/start/${draft}`,
      '/v1/videos/start/abc',
      '/v1/tags/neon/videos/999999',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Video not found' });
    }
    const blocked = await ctx.app.inject({ method: 'GET', url: `/v1/videos/start/${f5}`, headers: DE });
    expect(blocked.statusCode).toBe(404);
    const unknownTag = await ctx.app.inject({ method: 'GET', url: '/v1/tags/nope/videos' });
    expect(unknownTag.statusCode).toBe(404);
  });
});

describe('a page asked for by number, without a cursor', () => {
  it('is the page links.next would have given, and links.next goes on from there', async () => {
    const [f3] = await ids('f3');
    for (const url of [
      `/v1/tags/${neon}/videos`,
      '/v1/discover/category/dance/videos',
      '/v1/discover/webcam-site/camx/videos',
      '/v1/sidebar/left',
      '/v1/video-rating/unrated',
      '/v1/videos',
      `/v1/videos/start/${f3}`,
      `/v1/tags/neon/videos/${f3}`,
    ]) {
      const titles = (body: { data: { title: string }[] }) => body.data.map((x) => x.title);
      const first = await list(`${url}?per_page=3`);
      const second = await list(`${url}?per_page=3&page=2`);
      expect(titles(second), url).toEqual(titles(await list(first.links.next ?? '')));
      expect(
        titles(second).some((x) => titles(first).includes(x)),
        url,
      ).toBe(false);
      const rest = await all(second.links.next ?? '');
      const every = [...titles(first), ...titles(second), ...rest];
      expect(new Set(every).size, url).toBe(every.length);
      expect(every.sort(), url).toEqual((await all(url)).sort());
    }
    const tags = await ctx.app.inject({ method: 'GET', url: '/v1/tags?per_page=1&page=2' });
    expect(v.parse(tagListSchema, tags.json()).data.map((x) => x.slug)).toEqual(['solo']);
  });
});

describe('tags of any script', () => {
  it('are found by their slug; a tag without a letter or digit is refused', async () => {
    const auth = { authorization: `Bearer ${await issueAccessToken(ctx.database.db, male, false)}` };
    const video = await insertVideo(ctx, { userId: male, title: 'script' });
    const details = (tags: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/videos/upload-details',
        headers: auth,
        payload: { videoId: video.id, title: 'script', tags },
      });
    for (const tags of ['__', 'neon,-_-']) {
      const res = await details(tags);
      expect(res.statusCode, tags).toBe(422);
      expect(res.json().message).toBe('Tags need a letter or a number.');
    }
    // 30 letters, the longest tag: 270 characters once percent-encoded in the URL.
    const long = '東京'.repeat(15);
    expect((await details(`日本,${long},한국`)).statusCode).toBe(200);
    for (const name of ['日本', long, '한국']) {
      const path = `/v1/tags/${encodeURIComponent(tagSlug(name))}/videos`;
      expect(
        (await list(path)).data.map((x) => x.title),
        name,
      ).toEqual(['script']);
      expect((await list(`${path}/${video.id}`)).data[0]?.title, name).toBe('script');
    }
    expect((await list(`/v1/tags/日本/videos/${video.id}`)).data[0]?.title).toBe('script');
    await ctx.database.db.delete(t.videos).where(eq(t.videos.id, video.id));
  });
});

describe('GET /v1/tags', () => {
  const tags = async (url: string, headers: Record<string, string> = {}) => {
    const res = await ctx.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode).toBe(200);
    return v.parse(tagListSchema, res.json());
  };

  it('lists tags that have a visible video, by name, searchable, paged', async () => {
    expect((await tags('/v1/tags')).data.map((x) => x.slug)).toEqual(['neon', 'solo']);
    expect((await tags('/v1/tags', DE)).data.map((x) => x.slug)).toEqual(['neon']);
    expect((await tags('/v1/tags?gender=t')).data.map((x) => x.slug)).toEqual(['neon']);
    expect((await tags('/v1/tags?search=OL')).data.map((x) => x.slug)).toEqual(['solo']);
    expect((await tags('/v1/tags?search=%25')).data).toEqual([]);
    const first = await tags('/v1/tags?per_page=1');
    expect(first.data.map((x) => x.slug)).toEqual(['neon']);
    const second = await tags(first.links.next ?? '');
    expect(second.data.map((x) => x.slug)).toEqual(['solo']);
    expect(second.links.next).toBeNull();
  });

  it('neither repeats nor skips a tag when new tags appear between pages', async () => {
    const seen: string[] = [];
    let next: string | null = '/v1/tags?per_page=1';
    let n = 0;
    while (next) {
      const body = await tags(next);
      seen.push(...body.data.map((x) => x.slug));
      next = body.links.next;
      // "aaa…" sorts before every page already served, "zz…" after: the first must not shift the pages.
      const [early, late] = await ctx.database.db
        .insert(t.tags)
        .values([
          { name: `aaa${n}`, slug: `aaa${n}` },
          { name: `zz${n}`, slug: `zz${n++}` },
        ])
        .returning();
      const [f0] = await ids('f0');
      await ctx.database.db.insert(t.videoTags).values([
        { videoId: f0 ?? 0, tagId: early?.id ?? 0 },
        { videoId: f0 ?? 0, tagId: late?.id ?? 0 },
      ]);
    }
    expect(seen.filter((x) => !x.startsWith('zz'))).toEqual(['neon', 'solo']);
    expect(new Set(seen).size).toBe(seen.length);
    await ctx.database.db.delete(t.tags).where(like(t.tags.slug, 'aaa%'));
    await ctx.database.db.delete(t.tags).where(like(t.tags.slug, 'zz%'));
  });
});

describe('the rating lists', () => {
  const sources = ['/v1/tags/video-rating/unrated', '/v1/video-rating/unrated'];
  const fixed = (titles: string[]) => titles.filter((x) => /^f\d$/.test(x));
  const as = async (userId: number) => ({
    authorization: `Bearer ${await issueAccessToken(ctx.database.db, userId, false)}`,
  });

  it('feed the rating mode with videos the user has not rated yet', async () => {
    const auth = { authorization: `Bearer ${userToken}` };
    for (const url of sources)
      expect(fixed(await all(url, auth)), url).toEqual(newest(9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    for (const title of ['f5', 'f8', 'f9']) {
      const [id] = await ids(title);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/video-rating/rate',
        payload: { video_id: id, rating: 3 },
        headers: auth,
      });
      expect(res.statusCode).toBe(200);
    }
    for (const url of sources) {
      expect(fixed(await all(url, auth)), url).toEqual(newest(7, 6, 4, 3, 2, 1, 0));
      expect(fixed(await all(url)), url).toEqual(newest(9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    }
    expect(await all('/v1/video-rating/rated', auth)).toEqual(['f9', 'f8', 'f5']);
    // f5 and f9 belong to the creator who blocks Germany.
    expect(await all('/v1/video-rating/rated', { ...auth, ...DE })).toEqual(['f8']);
  });

  it("leave out what the user may not rate: their own videos and their studio's", async () => {
    const db = ctx.database.db;
    for (const url of sources)
      expect(fixed(await all(url, await as(male))), url).toEqual(newest(9, 7, 5, 3, 1));
    const [studio] = await db.insert(t.studios).values({ name: 'South', keyHash: 'hash-south' }).returning();
    await db.update(t.users).set({ studioId: studio?.id }).where(eq(t.users.id, trans));
    const manager = await insertUser(ctx, { studioId: studio?.id, studioRole: 'manager' });
    for (const url of sources) {
      expect(fixed(await all(url, await as(manager.id))), url).toEqual(newest(9, 8, 6, 5, 4, 2, 0));
    }
    await db.update(t.users).set({ studioId: null }).where(eq(t.users.id, trans));
  });
});

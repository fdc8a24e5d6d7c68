// The classes of bad input the audit found answering 500: cursors that decode to impossible times, ids past
// PostgreSQL's integer range, lone UTF-16 surrogates in free text, and the page fields' wording. Each must
// be a clear 4xx, and nothing may be written before it.
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { messages } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, NO_RATE_LIMITS, type TestContext } from './helpers';
import { bearer } from './social-helpers';

let ctx: TestContext;
let videoId = 0;
let creator: Record<string, string> = {};
let viewer: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext({ config: NO_RATE_LIMITS });
  const model = await insertUser(ctx);
  creator = await bearer(ctx, model.id);
  viewer = await bearer(ctx, (await insertUser(ctx, { type: 'user' })).id);
  videoId = (await insertVideo(ctx, { userId: model.id })).id;
  const [tag] = await ctx.database.db.insert(t.tags).values({ name: 'neon', slug: 'neon' }).returning();
  await ctx.database.db.insert(t.videoTags).values({ videoId, tagId: tag?.id ?? 0 });
  const [site] = await ctx.database.db
    .insert(t.webcamSites)
    .values({ name: 'Site', slug: 'site' })
    .returning();
  await ctx.database.db.insert(t.creatorWebcamSites).values({ userId: model.id, siteId: site?.id ?? 0 });
  const [category] = await ctx.database.db
    .insert(t.categories)
    .values({ name: 'Cat', slug: 'cat' })
    .returning();
  await ctx.database.db.insert(t.videoCategories).values({ videoId, categoryId: category?.id ?? 0 });
});
afterAll(() => ctx.close());

const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
/** Year 10000 and the largest time a JS Date holds: neither can be written as a PostgreSQL timestamp. */
const YEAR_10000 = Date.UTC(10000, 0, 1);

describe('a cursor that decodes to an impossible time', () => {
  const lists = () => [
    '/v1/sidebar/left',
    '/v1/tags/neon/videos',
    `/v1/tags/neon/videos/${videoId}`,
    '/v1/video-rating/unrated',
    '/v1/video-rating/rated',
    '/v1/tags/video-rating/unrated',
    '/v1/discover/webcam-site/site/videos',
    '/v1/discover/category/cat/videos',
    '/v1/discover/category/most-liked-this-week/videos',
    '/v1/videos',
    `/v1/videos/start/${videoId}`,
  ];
  const forged = [
    b64({ p: 8.64e15, i: 1 }),
    b64({ p: YEAR_10000, i: 1 }),
    b64({ p: -8.64e15, i: 1 }),
    b64({ at: 8.64e15, seen: '' }),
    b64({ at: YEAR_10000, seen: '1' }),
  ];

  it('is the documented 422 on every list, for guests and users', async () => {
    const failures: string[] = [];
    for (const path of lists()) {
      for (const cursor of forged) {
        for (const headers of [{}, viewer]) {
          const res = await ctx.app.inject({ method: 'GET', url: `${path}?cursor=${cursor}`, headers });
          if (res.statusCode !== 422 || res.json().message !== messages.server.invalidCursor)
            failures.push(`${path} ${cursor} → ${res.statusCode} ${res.body.slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('still pages with the cursors the server hands out', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/v1/sidebar/left?per_page=1' });
    expect(first.statusCode).toBe(200);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/sidebar/left?cursor=${b64({ p: Date.UTC(9999, 11, 31), i: 5 })}`,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('ids past the integer range', () => {
  it('are refused in the tags filter of the home feed', async () => {
    for (const tags of ['2147483648', '1,99999999999999999999', '0', '1,,2']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/v1/videos?tags=${tags}` });
      expect(res.statusCode, tags).toBe(422);
      expect(res.json().errors.tags).toEqual([messages.server.invalidIds]);
    }
    const ok = await ctx.app.inject({ method: 'GET', url: '/v1/videos?tags=1,2147483647' });
    expect(ok.statusCode).toBe(200);
  });

  it('are refused in a link delete, a studio member edit and a follow', async () => {
    for (const id of [2147483648, 1e308, 9007199254740994, '2147483648', '99999999999999999999']) {
      const del = await ctx.app.inject({
        method: 'POST',
        url: '/v1/profile',
        headers: creator,
        payload: { links: [{ action: 'delete', id }] },
      });
      expect(del.statusCode, `link ${id}`).toBe(422);
      const edit = await ctx.app.inject({
        method: 'POST',
        url: '/v1/profile',
        headers: creator,
        payload: { user_id: id, name: 'New name' },
      });
      expect(edit.statusCode, `user_id ${id}`).toBe(422);
      const follow = await ctx.app.inject({
        method: 'POST',
        url: '/v1/follow-model',
        headers: viewer,
        payload: { model_id: id, action: 'follow' },
      });
      expect(follow.statusCode, `model ${id}`).toBe(422);
    }
  });

  it('in a path name nothing: 404', async () => {
    for (const url of [
      '/v1/videos/start/2147483648',
      '/v1/videos/99999999999999999999/delete',
      '/v1/users/2147483648',
      '/v1/tags/2147483648/videos',
      `/v1/tags/neon/videos/9007199254740994`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: creator });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe('lone UTF-16 surrogates in free text', () => {
  it('are refused before the contact message is stored', async () => {
    const [{ n: before } = { n: 0 }] = await ctx.database.db.select({ n: count() }).from(t.contactMessages);
    for (const message of ['broken \ud800 text', 'tail \udc00', '\udbff']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/contact',
        payload: { email: 'someone@example.test', message },
      });
      expect(res.statusCode, JSON.stringify(message)).toBe(422);
      expect(res.json().errors.message).toEqual([messages.server.invalidText]);
    }
    const [{ n: after } = { n: 0 }] = await ctx.database.db.select({ n: count() }).from(t.contactMessages);
    expect(after).toBe(before);
    // A pair is a character, not a broken one.
    const emoji = await ctx.app.inject({
      method: 'POST',
      url: '/v1/contact',
      payload: { email: 'someone@example.test', message: 'hello 😀' },
    });
    expect(emoji.statusCode).toBe(201);
  });

  it('are refused in any field of any JSON body, nested too, and in the query', async () => {
    const cases = [
      { url: '/v1/video-view', payload: { video_id: videoId, guest_id: 'guest-0001', x: ['\ud800'] } },
      { url: '/v1/report-video', payload: { video_id: videoId, reason: 'spam', message: 'a\udfffb' } },
      { url: '/v1/profile', payload: { description: 'x\ud83d' }, headers: creator },
    ];
    for (const c of cases) {
      const res = await ctx.app.inject({ method: 'POST', ...c });
      expect(res.statusCode, c.url).toBe(422);
    }
    const query = await ctx.app.inject({ method: 'GET', url: '/v1/tags?search=%ED%A0%80' });
    expect(query.statusCode).toBeLessThan(500);
  });
});

describe('page and per_page', () => {
  it('say what is wrong in words', async () => {
    for (const url of [
      '/v1/sidebar/left?page=abc',
      '/v1/tags?page=0',
      '/v1/videos?per_page=-1',
      '/v1/users/1/videos?page=x',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(422);
      const body = res.json() as { message: string };
      expect(body.message, url).not.toMatch(/Expected|\/\^/);
      expect([messages.server.invalidPage, messages.server.invalidPerPage], url).toContain(body.message);
    }
  });
});

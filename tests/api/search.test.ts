import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { searchResponseSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let userId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.database.db;
  const luna = await insertUser(ctx, { name: 'Luna', username: 'luna_star' });
  const blocked = await insertUser(ctx, { name: 'Lunar Eclipse', username: 'eclipse' });
  await insertUser(ctx, { name: 'Luna Viewer', username: 'plainluna', type: 'user' });
  await db.insert(t.geoBlocks).values({ userId: blocked.id, countryCode: 'FR' });
  const [sunset, hidden] = await db
    .insert(t.tags)
    .values([
      { name: 'sunset', slug: 'sunset' },
      { name: 'sunshine', slug: 'sunshine' },
    ])
    .returning();
  const video = await insertVideo(ctx, { userId: luna.id, title: 'Dancing at the beach' });
  await db.insert(t.videoTags).values({ videoId: video.id, tagId: sunset?.id ?? 0 });
  const draft = await insertVideo(ctx, { userId: luna.id, title: 'Beach draft', status: 'processing' });
  await db.insert(t.videoTags).values({ videoId: draft.id, tagId: hidden?.id ?? 0 });
  await insertVideo(ctx, { userId: blocked.id, title: 'Moon beach walk' });
  const user = await insertUser(ctx, { type: 'user' });
  userId = user.id;
  token = await issueAccessToken(db, user.id, false);
});
afterAll(() => ctx.close());

const search = async (query: string, payload: object = {}, headers: Record<string, string> = {}) => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/discover/search?query=${encodeURIComponent(query)}`,
    payload,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return v.parse(searchResponseSchema, res.json());
};

describe('POST /v1/discover/search', () => {
  it('finds creators despite a typo, best match first, never plain users', async () => {
    const body = await search('lunna');
    expect(body.users.map((u) => u.name)).toEqual(['Luna', 'Lunar Eclipse']);
    expect((await search('LUNA_STR')).users[0]?.name).toBe('Luna');
  });

  it('finds tags and video titles with typos, only public ones', async () => {
    const body = await search('sunsett');
    expect(body.tags.map((tag) => tag.slug)).toEqual(['sunset']);
    const titles = (await search('beech')).videos.map((x) => x.title);
    expect(titles.sort()).toEqual(['Dancing at the beach', 'Moon beach walk']);
  });

  it('leaves out creators who geo-block the viewer', async () => {
    const body = await search('lunna', {}, { 'cf-ipcountry': 'FR' });
    expect(body.users.map((u) => u.name)).toEqual(['Luna']);
    expect((await search('beach', {}, { 'cf-ipcountry': 'FR' })).videos.map((x) => x.title)).toEqual([
      'Dancing at the beach',
    ]);
  });

  it('logs only final searches, with who asked', async () => {
    await search('lun', { guest_id: 'guest-srch-0001', is_final: false });
    await search('luna', { guest_id: 'guest-srch-0001', is_final: true });
    await search('sunset', { is_final: 'true' }, { authorization: `Bearer ${token}` });
    const rows = await ctx.database.db.select().from(t.searchLog).orderBy(t.searchLog.id);
    expect(rows.map((r) => [r.query, r.guestId, r.userId])).toEqual([
      ['luna', 'guest-srch-0001', null],
      ['sunset', null, userId],
    ]);
    expect(rows[0]?.resultCount).toBeGreaterThan(0);
    const [logged] = await ctx.database.db.select().from(t.searchLog).where(eq(t.searchLog.query, 'sunset'));
    expect(logged?.resultCount).toBe(1);
  });

  it('answers empty for less than 2 characters and 422 for nonsense input', async () => {
    expect(await search('a')).toEqual({ users: [], tags: [], videos: [] });
    expect(await search('%_')).toEqual({ users: [], tags: [], videos: [] });
    const long = await ctx.app.inject({
      method: 'POST',
      url: `/v1/discover/search?query=${'x'.repeat(101)}`,
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().message).toBe('Search is too long.');
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/v1/discover/search?query=luna',
      payload: { is_final: 'maybe' },
    });
    expect(bad.statusCode).toBe(422);
  });
});

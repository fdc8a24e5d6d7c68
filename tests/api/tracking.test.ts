import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { bearer, type Cast, createCast, type Role, roles } from './social-helpers';

let ctx: TestContext;
let cast: Cast;
let linkId = 0;

const GUEST = '6f1c2a4e-9b7d-4c1e-8a2b-3d4e5f6a7b8c';

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  const [link] = await ctx.database.db
    .insert(t.links)
    .values({ userId: cast.ids.owner, name: 'OnlyCams', url: 'https://cams.example' })
    .returning();
  linkId = link?.id ?? 0;
});
afterAll(() => ctx.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, headers, payload: payload as object });
const count = async (table: typeof t.events | typeof t.linkClicks | typeof t.profileViews) =>
  (await ctx.database.db.select().from(table)).length;

describe('POST /v1/event', () => {
  it('counts the four known events from guests and users and answers 201 {status: ok}', async () => {
    const before = await count(t.events);
    for (const event_id of [1, 3, '5', 7]) {
      const res = await post('/v1/event', { event_id, guest_id: GUEST });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ status: 'ok' });
    }
    const asUser = await post('/v1/event', { event_id: 1, user_id: cast.ids.user }, cast.headers.user);
    expect(asUser.statusCode).toBe(201);
    const rows = await ctx.database.db.select().from(t.events);
    expect(rows).toHaveLength(before + 5);
    expect(rows.at(-1)).toMatchObject({ eventId: 1, userId: cast.ids.user, guestId: null });
  });

  it.each([2, 4, 6, 8, 0, 'one', null])('refuses event id %s', async (event_id) => {
    const res = await post('/v1/event', { event_id, guest_id: GUEST });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('event_id');
  });

  it('needs a guest id or a token to attribute the event', async () => {
    for (const body of [{ event_id: 1 }, { event_id: 1, guest_id: 'x' }]) {
      const res = await post('/v1/event', body);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/guest id/i);
    }
  });
});

describe('POST /v1/link-click', () => {
  it('counts a click on an existing link with its location and live flag', async () => {
    const res = await post('/v1/link-click', {
      link_id: linkId,
      guest_id: GUEST,
      is_live: 1,
      link_location: 'video',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'ok' });
    const rows = await ctx.database.db.select().from(t.linkClicks);
    expect(rows.at(-1)).toMatchObject({ linkId, guestId: GUEST, isLive: true, linkLocation: 'video' });
  });

  it('defaults the location to profile, answers 404 for an unknown link and 422 without one', async () => {
    await post('/v1/link-click', { link_id: String(linkId) }, cast.headers.user);
    const rows = await ctx.database.db.select().from(t.linkClicks);
    expect(rows.at(-1)).toMatchObject({ userId: cast.ids.user, linkLocation: 'profile', isLive: false });
    const unknown = await post('/v1/link-click', { link_id: 999_999, guest_id: GUEST });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found.' });
    const missing = await post('/v1/link-click', { guest_id: GUEST });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({
      message: 'Missing link id.',
      errors: { link_id: ['Missing link id.'] },
    });
  });
});

// Open to every viewer, and always attributed to the one sending: a user_id in the body (here the owner's)
// never makes a guest or another user count as someone else.
describe.each(['/v1/event', '/v1/link-click'] as const)('permission matrix of %s', (url) => {
  it.each(roles)('%s: 201, counted for that viewer', async (role) => {
    const table = url === '/v1/event' ? t.events : t.linkClicks;
    const body = {
      ...(url === '/v1/event' ? { event_id: 3 } : { link_id: linkId }),
      user_id: cast.ids.owner,
    };
    const res = await post(url, role === 'guest' ? { ...body, guest_id: GUEST } : body, cast.headers[role]);
    expect(res.statusCode).toBe(201);
    const rows = await ctx.database.db.select().from(table);
    expect(rows.at(-1)).toMatchObject(
      role === 'guest' ? { userId: null, guestId: GUEST } : { userId: cast.ids[role], guestId: null },
    );
  });
});

it('refuses NUL characters anywhere in the input with 400 (PostgreSQL text cannot store them)', async () => {
  const before = await count(t.linkClicks);
  for (const payload of [
    { link_id: linkId, guest_id: GUEST, link_location: 'a\u0000b' },
    { link_id: linkId, guest_id: GUEST, extra: ['\u0000'] },
  ]) {
    const res = await post('/v1/link-click', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request contains invalid characters.' });
  }
  const inQuery = await ctx.app.inject({ method: 'GET', url: '/v1/users?gender=%00' });
  expect(inQuery.statusCode).toBe(400);
  expect(await count(t.linkClicks)).toBe(before);
});

describe('POST /v1/profile-view', () => {
  it('counts views of other profiles but never of your own', async () => {
    const before = await count(t.profileViews);
    const own = await post('/v1/profile-view', { profile_id: cast.ids.owner }, cast.headers.owner);
    expect(own.statusCode).toBe(201);
    expect(await count(t.profileViews)).toBe(before);
    const byGuest = await post('/v1/profile-view', { profile_id: cast.ids.owner, guest_id: GUEST });
    expect(byGuest.statusCode).toBe(201);
    const byManager = await post('/v1/profile-view', { profile_id: cast.ids.owner }, cast.headers.manager);
    expect(byManager.statusCode).toBe(201);
    expect(await count(t.profileViews)).toBe(before + 2);
    const unknown = await post('/v1/profile-view', { profile_id: 987_654, guest_id: GUEST });
    expect(unknown.statusCode).toBe(404);
    const missing = await post('/v1/profile-view', { guest_id: GUEST });
    expect(missing.json().errors.profile_id).toEqual(['Missing profile id.']);
  });

  // Tracking is open to every viewer; the only thing that differs is whether the row is counted.
  it.each<[Role, boolean]>([
    ['guest', true],
    ['user', true],
    ['owner', false],
    ['other', true],
    ['manager', true],
  ])('permission matrix on the owner profile: %s counted=%s', async (role, counted) => {
    const before = await count(t.profileViews);
    const body =
      role === 'guest' ? { profile_id: cast.ids.owner, guest_id: GUEST } : { profile_id: cast.ids.owner };
    const res = await post('/v1/profile-view', body, cast.headers[role]);
    expect(res.statusCode).toBe(201);
    expect(await count(t.profileViews)).toBe(before + (counted ? 1 : 0));
  });
});

describe('Idempotency-Key replays', () => {
  it.each([
    ['/v1/event', t.events, () => ({ event_id: 3, guest_id: GUEST })],
    ['/v1/link-click', t.linkClicks, () => ({ link_id: linkId, guest_id: GUEST })],
    ['/v1/profile-view', t.profileViews, () => ({ profile_id: cast.ids.owner, guest_id: GUEST })],
  ] as const)('%s: the same key 5 times → 1 row, each answered 201', async (url, table, body) => {
    const key = `outbox-${url.replace(/\W/g, '')}-0001`;
    const before = await count(table);
    for (let i = 0; i < 5; i++) {
      const res = await post(url, body(), { 'idempotency-key': key });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ status: 'ok' });
      if (i > 0) expect(res.headers['idempotent-replayed']).toBe('true');
    }
    expect(await count(table)).toBe(before + 1);
    // A different key is a different interaction.
    await post(url, body(), { 'idempotency-key': `${key}-b` });
    expect(await count(table)).toBe(before + 2);
  });

  it('concurrent replays of one key still count once', async () => {
    const before = await count(t.events);
    const all = await Promise.all(
      Array.from({ length: 5 }, () =>
        post('/v1/event', { event_id: 5, guest_id: GUEST }, { 'idempotency-key': 'concurrent-key-42' }),
      ),
    );
    expect(all.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(await count(t.events)).toBe(before + 1);
  });

  it('does not store failures: a 404 link click can be retried with the same key once the link exists', async () => {
    const res = await post(
      '/v1/link-click',
      { link_id: 777_777, guest_id: GUEST },
      { 'idempotency-key': 'retry-key-0001' },
    );
    expect(res.statusCode).toBe(404);
    const creator = await insertUser(ctx);
    const [link] = await ctx.database.db
      .insert(t.links)
      .values({ userId: creator.id, name: 'Late', url: 'https://late.example' })
      .returning();
    const ok = await post(
      '/v1/link-click',
      { link_id: link?.id, guest_id: GUEST },
      { 'idempotency-key': 'retry-key-0001' },
    );
    expect(ok.statusCode).toBe(201);
  });

  it('forgets answers after 7 days', async () => {
    const fresh = await createTestContext();
    try {
      const old = new Date(Date.now() - 8 * 24 * 3600_000);
      const recent = new Date(Date.now() - 6 * 24 * 3600_000);
      const row = { scope: 'event', caller: `g:${GUEST}`, statusCode: 201, body: { status: 'ok' } };
      await fresh.database.db.insert(t.idempotencyKeys).values([
        { ...row, key: 'expired-key-0001', createdAt: old },
        { ...row, key: 'recent-key-00001', createdAt: recent },
      ]);
      const res = await fresh.app.inject({
        method: 'POST',
        url: '/v1/event',
        headers: { 'idempotency-key': 'new-key-0000001' },
        payload: { event_id: 1, guest_id: GUEST },
      });
      expect(res.statusCode).toBe(201);
      const keys = await fresh.database.db.select({ key: t.idempotencyKeys.key }).from(t.idempotencyKeys);
      expect(keys.map((k) => k.key).sort()).toEqual(['new-key-0000001', 'recent-key-00001']);
    } finally {
      await fresh.close();
    }
  });

  it('rejects a malformed key with a message', async () => {
    const res = await post('/v1/event', { event_id: 1, guest_id: GUEST }, { 'idempotency-key': 'bad key!' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid Idempotency-Key header.' });
  });

  it('an unknown bearer is treated as a guest, never an error', async () => {
    const res = await post(
      '/v1/event',
      { event_id: 7, guest_id: GUEST },
      { authorization: 'Bearer not-a-real-token-at-all-xyz' },
    );
    expect(res.statusCode).toBe(201);
  });
});

describe('fake clicks', () => {
  it('count one viewer once per link and window, whatever guest ids it mints, and keep every post', async () => {
    const creator = await insertUser(ctx, { type: 'model' });
    const [link] = await ctx.database.db
      .insert(t.links)
      .values({ userId: creator.id, name: 'Revenue', url: 'https://cams.example/revenue' })
      .returning();
    const click = (guest: string, remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/link-click',
        payload: { link_id: link?.id, guest_id: guest },
        remoteAddress,
      });
    // A script: 40 posts from one address, a fresh guest id each (3,000 counted 1,000 before).
    for (let i = 0; i < 40; i++)
      expect((await click(`minted-guest-${i}`, '203.0.113.9')).statusCode).toBe(201);
    // Another viewer, elsewhere, counts.
    expect((await click('a-real-guest-id', '203.0.113.77')).statusCode).toBe(201);
    const rows = await ctx.database.db
      .select()
      .from(t.linkClicks)
      .where(eq(t.linkClicks.linkId, link?.id ?? 0));
    expect(rows).toHaveLength(41);
    expect(rows.filter((r) => r.counted)).toHaveLength(2);
    // The creator's statistic is the counted clicks.
    const stats = await ctx.app.inject({
      method: 'POST',
      url: '/v1/profile/stats',
      headers: await bearer(ctx, creator.id),
    });
    expect(stats.json().range.link_clicks).toEqual([{ name: 'Revenue', clicks: 2 }]);
  });

  it('count a profile view and a Live Cams event once per viewer and window', async () => {
    const profile = await insertUser(ctx, { type: 'model' });
    for (let i = 0; i < 5; i++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/v1/profile-view',
        payload: { profile_id: profile.id, guest_id: `viewer-${i}-abcdef` },
        remoteAddress: '203.0.113.10',
      });
      await post('/v1/event', { event_id: 7, user_id: cast.ids.user }, cast.headers.user);
    }
    const views = await ctx.database.db
      .select()
      .from(t.profileViews)
      .where(eq(t.profileViews.profileId, profile.id));
    expect(views.map((v) => v.counted)).toEqual([true, false, false, false, false]);
    const events = await ctx.database.db.select().from(t.events).where(eq(t.events.userId, cast.ids.user));
    expect(events.filter((e) => e.eventId === 7 && e.counted)).toHaveLength(1);
  });
});

describe('a flood of tracking posts', () => {
  it('is refused per address past TRACKING_RATE_LIMIT, replays aside', async () => {
    const limited = await createTestContext({ config: { trackingRateLimit: 5 } });
    try {
      const send = (key?: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/v1/event',
          payload: { event_id: 1, guest_id: 'flooding-guest-1' },
          remoteAddress: '203.0.113.50',
          headers: key ? { 'idempotency-key': key } : {},
        });
      expect((await send('outbox-entry-0001')).statusCode).toBe(201);
      for (let i = 0; i < 10; i++) expect((await send('outbox-entry-0001')).statusCode).toBe(201);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await send()).statusCode);
      expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

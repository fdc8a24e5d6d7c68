// Limits against scripted abuse: failed logins per account from any address, the username check, guests'
// likes and views minted from one address, and an Idempotency-Key reused for another request.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/password';
import * as t from '../../server/db/schema';
import { messages } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let videoId = 0;
const PASSWORD = 'right-password';

beforeAll(async () => {
  ctx = await createTestContext({
    config: {
      loginFailureLimit: 4,
      loginGlobalFailureLimit: 12,
      // The tests here send many logins from one address: the per-address request limit is not their subject.
      authRateLimit: 1000,
      checkUsernameRateLimit: 3,
      guestsPerAddress: 5,
      guestActionsPerAddress: 12,
    },
  });
  const creator = await insertUser(ctx);
  videoId = (await insertVideo(ctx, { userId: creator.id })).id;
});
afterAll(() => ctx.close());

let address = 0;
/** A different client address each time: what a botnet, or a proxy passing X-Forwarded-For on, looks like. */
const nextAddress = () => `198.51.100.${++address}`;

const login = (email: string, password: string, remoteAddress = nextAddress()) =>
  ctx.app.inject({ method: 'POST', url: '/v1/login', payload: { email, password }, remoteAddress });

describe('failed logins', () => {
  it('lock the guessing network out of that account, not the owner elsewhere', async () => {
    const user = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    const other = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    const guesser = nextAddress();
    for (let i = 0; i < 4; i++)
      expect((await login(user.email, 'wrong-guess', guesser)).statusCode).toBe(401);
    // Even the right password waits there: otherwise the lock would tell the guesser when they got it right.
    const locked = await login(user.email, PASSWORD, guesser);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(messages.auth.tooManyAttempts);
    expect((await login(user.email.toUpperCase(), PASSWORD, guesser)).statusCode).toBe(429);
    // The owner, from home, signs in (before: 429 from any address once anyone had guessed 4 times).
    expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
    expect((await login(other.email, PASSWORD, guesser)).statusCode).toBe(200);
  });

  it('count unknown emails the same way, and a success clears the count', async () => {
    const from = nextAddress();
    for (let i = 0; i < 4; i++)
      expect((await login('nobody@example.test', 'x-guess-x', from)).statusCode).toBe(401);
    expect((await login('nobody@example.test', 'x-guess-x', from)).statusCode).toBe(429);

    const user = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    for (let i = 0; i < 3; i++) await login(user.email, 'wrong-guess', from);
    expect((await login(user.email, PASSWORD, from)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login(user.email, 'wrong-guess', from)).statusCode).toBe(401);
    expect((await login(user.email, PASSWORD, from)).statusCode).toBe(200);
  });

  it('from a botnet: past the global limit only a device the account knows may try', async () => {
    const user = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    const withDevice = (password: string, device: string, remoteAddress = nextAddress()) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: user.email, password, guest_id: device },
        remoteAddress,
      });
    // The owner's phone signed in before.
    expect((await withDevice(PASSWORD, 'owners-phone-0001')).statusCode).toBe(200);
    // 12 guesses, each from another address: the global limit of this file is 12.
    for (let i = 0; i < 12; i++)
      expect((await withDevice('wrong-guess', `bot-device-${i}`)).statusCode).toBe(401);
    // A fresh address and device, even with the right password, is refused now...
    expect((await withDevice(PASSWORD, 'bot-device-99')).statusCode).toBe(429);
    expect((await login(user.email, PASSWORD)).statusCode).toBe(429);
    // ...and the owner's phone, from wherever, is let in.
    expect((await withDevice(PASSWORD, 'owners-phone-0001')).statusCode).toBe(200);
  });

  it('are stated in the API reference', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
    expect(doc.paths['/v1/login'].post.description).toContain(
      '4 failed logins of one email from one network',
    );
  });
});

describe('the username check', () => {
  it('is limited per address', async () => {
    const check = (remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/check-username',
        payload: { username: 'someone_new' },
        remoteAddress,
      });
    const from = nextAddress();
    for (let i = 0; i < 3; i++) expect((await check(from)).statusCode).toBe(200);
    expect((await check(from)).statusCode).toBe(429);
    expect((await check(nextAddress())).statusCode).toBe(200);
  });
});

describe('guest likes and views from one address', () => {
  const like = (guestId: string, remoteAddress: string, key?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/v1/video-like',
      payload: { video_id: videoId, type: 'add', guest_id: guestId },
      remoteAddress,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const likeCount = async () =>
    (await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, videoId)))[0]?.likeCount;

  it('count a handful of guest ids, not a script minting one per like', async () => {
    const from = nextAddress();
    const before = await likeCount();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await like(`minted-guest-${i}`, from)).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    expect((await likeCount()) ?? 0).toBe((before ?? 0) + 5);
    // The guests already seen go on (un)liking; another address has its own count.
    expect((await like('minted-guest-0', from)).statusCode).toBe(200);
    expect((await like('fresh-guest-1', nextAddress())).statusCode).toBe(200);
    const refused = await like('minted-guest-99', from);
    expect(refused.json().message).toBe(messages.server.tooManyGuests);
  });

  it('cap the guest likes and views of one address in all, and replays count for nothing', async () => {
    const from = nextAddress();
    const view = (key?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/video-view',
        payload: { video_id: videoId, guest_id: 'one-guest-id' },
        remoteAddress: from,
        headers: key ? { 'idempotency-key': key } : {},
      });
    expect((await view('replayed-key-0001')).statusCode).toBe(200);
    for (let i = 0; i < 20; i++) expect((await view('replayed-key-0001')).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await view()).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(11);
    expect(statuses.at(-1)).toBe(429);
  });

  it('leave signed-in users to their accounts', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' })).json();
    expect(doc.paths['/v1/video-like'].post.description).toContain('at most 5 distinct `guest_id`s');
    expect(doc.paths['/v1/video-view'].post.responses['429']).toBeDefined();
  });
});

describe('an Idempotency-Key reused', () => {
  it('with the same body replays the answer; with another body is a 422', async () => {
    const send = (payload: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/event',
        payload,
        headers: { 'idempotency-key': 'reused-key-000001' },
      });
    const first = await send({ event_id: 1, guest_id: 'idem-guest-1' });
    expect(first.statusCode).toBe(201);
    // Key order is not a different request.
    const replay = await send({ guest_id: 'idem-guest-1', event_id: 1 });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const other = await send({ event_id: 7, guest_id: 'idem-guest-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(messages.server.idempotencyKeyReused);
    const events = await ctx.database.db.select().from(t.events).where(eq(t.events.guestId, 'idem-guest-1'));
    expect(events).toHaveLength(1);
  });
});

describe('IPv6 clients', () => {
  // One home line or phone holds a whole /64: every address in it is the same client to a limit.
  let net = 0;
  const inOneNet = () => {
    const prefix = `2001:db8:${(++net).toString(16)}:7`;
    let host = 0;
    return () => `${prefix}:${(++host).toString(16)}:ab::${(host * 7).toString(16)}`;
  };

  it('are counted by their /64 for per-address limits', async () => {
    const check = (remoteAddress: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/check-username',
        payload: { username: 'v6_user' },
        remoteAddress,
      });
    const next = inOneNet();
    for (let i = 0; i < 3; i++) expect((await check(next())).statusCode).toBe(200);
    expect((await check(next())).statusCode).toBe(429);
    // The next /64 is another client.
    expect((await check(inOneNet()())).statusCode).toBe(200);
  });

  it('mint no fresh guest identities by changing the lower 64 bits', async () => {
    const next = inOneNet();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/video-like',
        payload: { video_id: videoId, type: 'add', guest_id: `v6-guest-${net}-${i}` },
        remoteAddress: next(),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  });
});

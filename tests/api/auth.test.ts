import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_MS, hashToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import {
  loginResponseSchema,
  loginTokenResponseSchema,
  messages,
  registerResponseSchema,
} from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { loginTokenIn, startSmtp } from './mail-helpers';

const m = messages.auth;
let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({
    config: {
      smtpUrl: smtp.url,
      authRateLimit: 10_000,
      contactRateLimit: 10_000,
      publicUrl: 'https://sc.test',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const post = (url: string, payload: unknown, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

let n = 0;
const model = (over: Record<string, unknown> = {}) => {
  n++;
  return {
    type: 'model',
    name: `Model ${n}`,
    username: `model_${n}`,
    email: `model${n}@example.test`,
    password: 'correct horse',
    password_confirmation: 'correct horse',
    gender: 't',
    country: 'DE',
    phone_number: '+49 30 1234',
    terms: true,
    ...over,
  };
};

async function expect422(res: { statusCode: number; json(): unknown }, field: string, message: string) {
  expect(res.statusCode).toBe(422);
  const body = res.json() as { message: string; errors: Record<string, string[]> };
  expect(body.errors[field]).toContain(message);
  expect(typeof body.message).toBe('string');
}

describe('POST /v1/check-username', () => {
  it('says available for a free name and taken for a used one in any case', async () => {
    let res = await post('/v1/check-username', { username: 'Free_Name-1' });
    expect(res.json()).toEqual({ available: true, message: m.usernameAvailable });
    expect((await post('/v1/register', model({ username: 'Taken_One' }))).statusCode).toBe(201);
    res = await post('/v1/check-username', { username: 'taken_one' });
    expect(res.json()).toEqual({ available: false, message: m.usernameTaken });
  });

  it.each(['login', 'Register', 'v1', 'healthz', 'videos-rating'])(
    'never offers the route word %s',
    async (u) => {
      const res = await post('/v1/check-username', { username: u });
      expect(res.json()).toEqual({ available: false, message: m.usernameTaken });
    },
  );

  it('rejects an empty or malformed username with the spec messages', async () => {
    await expect422(await post('/v1/check-username', {}), 'username', m.usernameRequired);
    await expect422(await post('/v1/check-username', { username: '  ' }), 'username', m.usernameRequired);
    await expect422(await post('/v1/check-username', { username: 'a b' }), 'username', m.usernameInvalid);
    await expect422(await post('/v1/check-username', { username: 'ä#' }), 'username', m.usernameInvalid);
  });
});

describe('POST /v1/register', () => {
  it('creates a model (201), stores a scrypt hash and a hashed 48 h verification token', async () => {
    const payload = model();
    const res = await post('/v1/register', payload);
    expect(res.statusCode).toBe(201);
    const body = v.parse(registerResponseSchema, res.json());
    expect(body.user.type).toBe('model');
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, body.user.id));
    expect(row?.passwordHash).toMatch(/^scrypt\$/);
    expect(row?.passwordHash).not.toContain(payload.password);
    expect(row).toMatchObject({ gender: 't', country: 'DE', emailVerifiedAt: null });
    const tokens = await ctx.database.db
      .select()
      .from(t.userTokens)
      .where(eq(t.userTokens.userId, body.user.id));
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.kind).toBe('verify_email');
    const ttl = (tokens[0]?.expiresAt.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(47 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(48 * 3600_000);
  });

  it('creates a viewer account without username, country, phone or terms', async () => {
    const res = await post('/v1/register', {
      type: 'user',
      name: 'Just Watching',
      email: 'viewer@example.test',
      password: 'password1',
      password_confirmation: 'password1',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.type).toBe('user');
  });

  it('mails a verification link through SMTP that logs the user in once and verifies the email', async () => {
    const payload = model();
    const res = await post('/v1/register', payload);
    const mail = smtp.lastTo(payload.email);
    expect(mail?.raw).toContain('https://sc.test/login/');
    const token = loginTokenIn(mail?.raw ?? '');
    expect(token).toBeDefined();
    const login = await post('/v1/login/token', { token });
    expect(login.statusCode).toBe(200);
    const body = v.parse(loginTokenResponseSchema, login.json());
    expect(body.user).toEqual(res.json().user);
    expect(body.link).toBe('verify_email');
    const me = await ctx.app.inject({
      method: 'POST',
      url: '/v1/logout',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, body.user.id));
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    // One use only.
    const again = await post('/v1/login/token', { token });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ message: m.invalidLoginLink });
  });

  it.each([
    ['name', { name: '' }, m.fillAllFields],
    ['email', { email: undefined }, m.fillAllFields],
    ['password', { password: '' }, m.fillAllFields],
    ['password_confirmation', { password_confirmation: '' }, m.fillAllFields],
    ['email', { email: 'not-an-email' }, m.invalidEmail],
    ['password_confirmation', { password_confirmation: 'different!' }, m.passwordsDoNotMatch],
    ['password', { password: 'short', password_confirmation: 'short' }, m.passwordTooShort],
    ['phone_number', { phone_number: '' }, m.phoneRequired],
    ['phone_number', { phone_number: '123' }, m.phoneRequired],
    ['terms', { terms: false }, m.termsRequired],
    ['username', { username: undefined }, m.usernameRequired],
    ['username', { username: 'bad name' }, m.usernameInvalid],
    ['country', { country: '' }, m.countryRequired],
    // The form is right, but no such ISO 3166-1 country (the list GET /v1/geo/countries serves).
    ['country', { country: 'XX' }, m.countryRequired],
    ['country', { country: 'uk' }, m.countryRequired],
    ['type', { type: 'admin' }, m.invalidType],
    ['gender', { gender: 'x' }, m.invalidGender],
  ])('422 on %s: %s → the spec message', async (field, over, message) => {
    await expect422(await post('/v1/register', model(over)), field, message);
  });

  it('applies the model rules to channels too', async () => {
    await expect422(
      await post('/v1/register', model({ type: 'channel', terms: false })),
      'terms',
      m.termsRequired,
    );
    expect((await post('/v1/register', model({ type: 'channel' }))).json().user.type).toBe('channel');
  });

  it('answers with the first error as message', async () => {
    const res = await post('/v1/register', model({ name: '', email: 'bad' }));
    const body = res.json();
    expect(body.message).toBe(Object.values(body.errors as Record<string, string[]>)[0]?.[0]);
  });

  it('refuses a taken username (any case), a reserved word and a taken email', async () => {
    const first = model();
    await post('/v1/register', first);
    await expect422(
      await post('/v1/register', model({ username: first.username.toUpperCase() })),
      'username',
      m.usernameTaken,
    );
    await expect422(await post('/v1/register', model({ username: 'discover' })), 'username', m.usernameTaken);
    await expect422(
      await post('/v1/register', model({ email: first.email.toUpperCase() })),
      'email',
      m.emailTaken,
    );
  });
});

describe('POST /v1/login and /v1/logout', () => {
  const account = model();
  beforeAll(async () => {
    expect((await post('/v1/register', account)).statusCode).toBe(201);
  });

  it('logs in (200, access_token, user id and type); remember_me lasts longer', async () => {
    const short = await post('/v1/login', { email: account.email.toUpperCase(), password: account.password });
    expect(short.statusCode).toBe(200);
    const long = await post('/v1/login', {
      email: account.email,
      password: account.password,
      remember_me: true,
    });
    const a = v.parse(loginResponseSchema, short.json());
    const b = v.parse(loginResponseSchema, long.json());
    expect(a.user.type).toBe('model');
    const expiry = async (token: string) => {
      const [row] = await ctx.database.db
        .select()
        .from(t.accessTokens)
        .where(eq(t.accessTokens.tokenHash, hashToken(token)));
      return (row?.expiresAt.getTime() ?? 0) - Date.now();
    };
    expect(await expiry(a.access_token)).toBeLessThanOrEqual(24 * 3600_000);
    expect(await expiry(b.access_token)).toBeGreaterThan(30 * 24 * 3600_000);
  });

  it('gives the same 401 message for a wrong password and an unknown email', async () => {
    const wrong = await post('/v1/login', { email: account.email, password: 'wrong password' });
    const unknown = await post('/v1/login', { email: 'nobody@example.test', password: 'wrong password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: m.invalidCredentials });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('validates: all fields, no spaces in the email', async () => {
    await expect422(await post('/v1/login', { email: '', password: 'x' }), 'email', m.loginFillAll);
    await expect422(await post('/v1/login', { email: 'a@b.cd' }), 'password', m.loginFillAll);
    await expect422(
      await post('/v1/login', { email: 'a @b.cd', password: 'x' }),
      'email',
      m.loginEmailSpaces,
    );
  });

  it('logout revokes the token; a guest gets 401', async () => {
    const { access_token } = (
      await post('/v1/login', { email: account.email, password: account.password })
    ).json();
    expect((await post('/v1/logout', {}, access_token)).statusCode).toBe(200);
    expect((await post('/v1/logout', {}, access_token)).statusCode).toBe(401);
    expect((await post('/v1/logout', {})).statusCode).toBe(401);
  });
});

describe('password reset and resend', () => {
  it('answers the same for known and unknown emails and mails a 1 h login link to known ones', async () => {
    const account = model();
    await post('/v1/register', account);
    const before = smtp.received.length;
    const unknown = await post('/v1/forgot-password', { email: 'ghost@example.test' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ message: m.recoverySent });
    expect(smtp.received.length).toBe(before);
    const known = await post('/v1/forgot-password', { email: account.email });
    expect(known.json()).toEqual(unknown.json());
    const token = loginTokenIn(smtp.lastTo(account.email)?.raw ?? '');
    const [row] = await ctx.database.db
      .select()
      .from(t.userTokens)
      .where(eq(t.userTokens.tokenHash, hashToken(token ?? '')));
    expect(row?.kind).toBe('password_reset');
    expect((row?.expiresAt.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(3600_000);
    const login = await post('/v1/login/token', { token, remember_me: true });
    expect(login.statusCode).toBe(200);
    // The client's reset screen offers a new password from this.
    const body = v.parse(loginTokenResponseSchema, login.json());
    expect(body.link).toBe('password_reset');
    // The link came to this mailbox: the address needs no other confirmation.
    const [user] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, body.user.id));
    expect(user?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('keeps a mailed link signed in for as long as remember me does, only when asked', async () => {
    const lifetimeOf = async (remember: boolean) => {
      const account = model();
      await post('/v1/register', account);
      const token = loginTokenIn(smtp.lastTo(account.email)?.raw ?? '');
      const { access_token } = v.parse(
        loginTokenResponseSchema,
        (await post('/v1/login/token', { token, remember_me: remember })).json(),
      );
      const [row] = await ctx.database.db
        .select()
        .from(t.accessTokens)
        .where(eq(t.accessTokens.tokenHash, hashToken(access_token)));
      return (row?.expiresAt.getTime() ?? 0) - Date.now();
    };
    expect(await lifetimeOf(false)).toBeLessThanOrEqual(ACCESS_TOKEN_TTL_MS.session);
    expect(await lifetimeOf(true)).toBeGreaterThan(ACCESS_TOKEN_TTL_MS.session);
  });

  it("requires the email with the spec's exact wording", async () => {
    await expect422(await post('/v1/forgot-password', {}), 'email', 'Pleas fill in the email.');
    await expect422(await post('/v1/forgot-password', { email: 'nope' }), 'email', m.invalidEmail);
  });

  it('refuses an expired or stolen-row token', async () => {
    const account = model();
    await post('/v1/register', account);
    const token = loginTokenIn(smtp.lastTo(account.email)?.raw ?? '') ?? '';
    const [row] = await ctx.database.db
      .select()
      .from(t.userTokens)
      .where(eq(t.userTokens.tokenHash, hashToken(token)));
    // The stored hash is not the token.
    expect((await post('/v1/login/token', { token: row?.tokenHash })).statusCode).toBe(401);
    await ctx.database.db
      .update(t.userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(t.userTokens.tokenHash, hashToken(token)));
    expect((await post('/v1/login/token', { token })).statusCode).toBe(401);
  });

  it('resend-email answers neutrally and mails a new link only to unverified accounts', async () => {
    const account = model();
    await post('/v1/register', account);
    const before = smtp.received.length;
    const res = await post('/v1/resend-email', { email: account.email });
    expect(res.json()).toEqual({ message: m.verificationResent });
    expect(smtp.received.length).toBe(before + 1);
    const ghost = await post('/v1/resend-email', { email: 'ghost@example.test' });
    expect(ghost.json()).toEqual(res.json());
    expect(smtp.received.length).toBe(before + 1);
  });
});

describe('POST /v1/contact', () => {
  it('stores the message and mails it to the operator with reply-to', async () => {
    const res = await post('/v1/contact', { email: 'fan@example.test', message: 'Hello there' });
    expect(res.statusCode).toBe(201);
    const rows = await ctx.database.db.select().from(t.contactMessages);
    expect(rows.at(-1)).toMatchObject({ email: 'fan@example.test', message: 'Hello there' });
    const mail = smtp.lastTo(ctx.config.operatorEmail);
    expect(mail?.raw).toContain('Hello there');
    expect(mail?.raw).toMatch(/Reply-To: fan@example\.test/i);
  });

  it('validates email and message', async () => {
    await expect422(await post('/v1/contact', { email: 'x', message: 'hi' }), 'email', m.invalidEmail);
    await expect422(
      await post('/v1/contact', { email: 'a@b.cd', message: ' ' }),
      'message',
      messages.contact.messageRequired,
    );
  });
});

describe('rate limits and the .eml outbox', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      config: { authRateLimit: 2, contactRateLimit: 2, reportRateLimit: 2 },
    });
  });
  afterAll(() => limited.close());

  const hit = (url: string, payload: object) => limited.app.inject({ method: 'POST', url, payload });

  it.each([
    ['/v1/login', { email: 'a@b.cd', password: 'whatever1' }],
    ['/v1/register', { type: 'user' }],
    ['/v1/forgot-password', { email: 'a@b.cd' }],
    ['/v1/resend-email', { email: 'a@b.cd' }],
  ])('%s answers 429 with a JSON message after the limit', async (url, payload) => {
    expect((await hit(url, payload)).statusCode).not.toBe(429);
    expect((await hit(url, payload)).statusCode).not.toBe(429);
    const res = await hit(url, payload);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: m.tooManyAttempts });
  });

  const login = (remoteAddress: string, forwardedFor: string) =>
    limited.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: 'a@b.cd', password: 'whatever1' },
    });

  it('counts a direct client by its address, whatever X-Forwarded-For it forges', async () => {
    const codes = [];
    for (let i = 1; i <= 4; i++) codes.push((await login('203.0.113.7', `198.51.100.${i}`)).statusCode);
    expect(codes).toEqual([401, 401, 429, 429]);
  });

  it('counts the clients of a reverse proxy on loopback apart', async () => {
    for (let i = 0; i < 3; i++) await login('127.0.0.1', '198.51.100.50');
    expect((await login('127.0.0.1', '198.51.100.50')).statusCode).toBe(429);
    expect((await login('::1', '198.51.100.51')).statusCode).toBe(401);
  });

  it('contact answers 429 with the spec message', async () => {
    const payload = { email: 'a@b.cd', message: 'hi' };
    expect((await hit('/v1/contact', payload)).statusCode).toBe(201);
    expect((await hit('/v1/contact', payload)).statusCode).toBe(201);
    const res = await hit('/v1/contact', payload);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: 'You sent too many messages. Please try again later.' });
  });

  it('report answers 429 with its own message after the limit', async () => {
    const owner = await insertUser(limited, { type: 'model' });
    const video = await insertVideo(limited, { userId: owner.id });
    const payload = {
      video_id: video.id,
      email: 'a@b.cd',
      reason: 'spam',
      message: 'spam',
      guest_id: 'guest-1234',
    };
    expect((await hit('/v1/report-video', payload)).statusCode).toBe(201);
    expect((await hit('/v1/report-video', payload)).statusCode).toBe(201);
    const res = await hit('/v1/report-video', payload);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: 'You sent too many reports. Please try again later.' });
  });

  it('answers an outbox replay of a report already taken from the store, neither limited nor counted', async () => {
    const owner = await insertUser(limited, { type: 'model' });
    const video = await insertVideo(limited, { userId: owner.id });
    const payload = {
      video_id: video.id,
      email: 'a@b.cd',
      reason: 'spam',
      message: 'spam',
      guest_id: 'guest-5678',
    };
    const send = (key: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/v1/report-video',
        payload,
        headers: { 'idempotency-key': key },
        remoteAddress: '203.0.113.20',
      });
    expect((await send('report-replay-1')).statusCode).toBe(201);
    for (let i = 0; i < 3; i++) expect((await send('report-replay-1')).statusCode).toBe(201);
    expect((await send('report-replay-2')).statusCode).toBe(201);
    expect((await send('report-replay-3')).statusCode).toBe(429);
    const replay = await send('report-replay-1');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('writes mails as .eml files under DATA_DIR/mail without SMTP', async () => {
    const files = await fs.readdir(path.join(limited.config.dataDir, 'mail'));
    expect(files.some((f) => f.endsWith('.eml'))).toBe(true);
  });
});

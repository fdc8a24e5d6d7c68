// The operators' console API (issue 31): who signs in and how, what each role may do, and what every decision
// changes for viewers and creators, with its line in the audit log.
import { and, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/password';
import { issueAccessToken } from '../../server/auth/tokens';
import { runCommand } from '../../server/cli';
import * as t from '../../server/db/schema';
import { adminMessages } from '../../src/contract/admin';
import { ageOn } from '../../src/contract/verification';
import { multipartBody } from './form';
import { createTestContext, insertUser, insertVideo, NO_RATE_LIMITS, type TestContext } from './helpers';
import { makeImage } from './images';
import { loginTokenIn, mailText, startSmtp } from './mail-helpers';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ config: { ...NO_RATE_LIMITS, smtpUrl: smtp.url } });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const post = (url: string, payload: object = {}, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload, headers });
const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The code an authenticator app shows for `secret` at `at`. */
const codeFor = (email: string, secret: string, at = Date.now()) =>
  new OTPAuth.TOTP({ label: email, secret: OTPAuth.Secret.fromBase32(secret.replace(/\s/g, '')) }).generate({
    timestamp: at,
  });

let operatorCounter = 0;
/** An operator as the CLI creates one, signed in through the link, the setup and its first code. */
async function signedInOperator(role: 'moderator' | 'admin') {
  const email = `op${++operatorCounter}-${role}@ops.test`;
  const lines = await runCommand(ctx, ['operator', 'create', email, '--role', role]);
  const token = loginTokenIn(lines.join('\n'));
  expect(token).toBeDefined();
  const link = await post('/v1/login/token', { token });
  expect(link.statusCode).toBe(200);
  expect(link.json()).toMatchObject({ step: 'setup' });
  const challenge = link.json().operator_challenge as string;
  const setup = await post('/v1/admin/sign-in/setup', { challenge });
  expect(setup.statusCode).toBe(200);
  const { secret, qr, uri } = setup.json();
  expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(uri).toContain('otpauth://totp/');
  const password = 'a long operator password';
  const confirmed = await post('/v1/admin/sign-in/setup/confirm', {
    challenge,
    password,
    password_confirmation: password,
    code: codeFor(email, secret),
  });
  expect(confirmed.statusCode).toBe(200);
  const body = confirmed.json();
  expect(body.recovery_codes).toHaveLength(10);
  return {
    email,
    password,
    secret,
    token: body.access_token as string,
    recovery: body.recovery_codes as string[],
  };
}

const mailTo = (address: string) => smtp.lastTo(address)?.raw ?? '';
const waitForMail = async (address: string, subject: string) => {
  for (let i = 0; i < 50; i++) {
    const mail = [...smtp.received].reverse().find((r) => r.to.includes(address) && r.raw.includes(subject));
    if (mail) return mailText(mail.raw);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail "${subject}" to ${address}; last: ${mailTo(address).slice(0, 300)}`);
};

async function auditActions() {
  return (await ctx.database.db.select().from(t.auditLog)).map(
    (r) => `${r.action} ${r.targetType}:${r.targetId}`,
  );
}

describe('operator sign-in', () => {
  it('creates an operator from the CLI; the link sets up TOTP; later sign-ins need password and code', async () => {
    const op = await signedInOperator('moderator');
    expect((await get('/v1/admin/me', auth(op.token))).json().data).toMatchObject({
      email: op.email,
      role: 'moderator',
    });

    // The password alone is not a session: it earns a challenge.
    const login = await post('/v1/login', { email: op.email, password: op.password });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({ operator_challenge: expect.any(String), step: 'totp' });
    const challenge = login.json().operator_challenge;
    // The code used at setup is spent: seen once, refused after.
    const replay = await post('/v1/admin/sign-in', { challenge, code: codeFor(op.email, op.secret) });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(adminMessages.codeWrong);
    const next = await post('/v1/admin/sign-in', {
      challenge,
      code: codeFor(op.email, op.secret, Date.now() + 30_000),
    });
    expect(next.statusCode).toBe(200);
    expect(next.json().operator).toMatchObject({ email: op.email });
    // A challenge is good for one session.
    expect((await post('/v1/admin/sign-in', { challenge, code: op.recovery[0] })).statusCode).toBe(401);

    // A recovery code signs in once.
    const again = (await post('/v1/login', { email: op.email, password: op.password })).json()
      .operator_challenge;
    expect((await post('/v1/admin/sign-in', { challenge: again, code: op.recovery[0] })).statusCode).toBe(
      200,
    );
    const third = (await post('/v1/login', { email: op.email, password: op.password })).json()
      .operator_challenge;
    expect((await post('/v1/admin/sign-in', { challenge: third, code: op.recovery[0] })).statusCode).toBe(
      401,
    );

    // A wrong password is the viewer's wrong password.
    const wrong = await post('/v1/login', { email: op.email, password: 'not it at all' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid credentials');
  });

  it('ends a challenge after five wrong codes, and a link after its one use', async () => {
    const op = await signedInOperator('moderator');
    const challenge = (await post('/v1/login', { email: op.email, password: op.password })).json()
      .operator_challenge;
    for (let i = 0; i < 4; i++) {
      expect((await post('/v1/admin/sign-in', { challenge, code: '000000' })).json().message).toBe(
        adminMessages.codeWrong,
      );
    }
    expect((await post('/v1/admin/sign-in', { challenge, code: '000001' })).json().message).toBe(
      adminMessages.challengeEnded,
    );
    const late = await post('/v1/admin/sign-in', {
      challenge,
      code: codeFor(op.email, op.secret, Date.now() + 60_000),
    });
    expect(late.statusCode).toBe(401);
  });

  it('ends a session after 30 idle minutes or 12 hours, and at sign-out', async () => {
    const op = await signedInOperator('moderator');
    const [operator] = await ctx.database.db
      .select()
      .from(t.operators)
      .where(eq(t.operators.email, op.email));
    const sessions = () =>
      ctx.database.db
        .select()
        .from(t.operatorSessions)
        .where(eq(t.operatorSessions.operatorId, operator?.id ?? 0));
    expect((await get('/v1/admin/dashboard', auth(op.token))).statusCode).toBe(200);
    await ctx.database.db
      .update(t.operatorSessions)
      .set({ lastUsedAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(t.operatorSessions.operatorId, operator?.id ?? 0));
    const idle = await get('/v1/admin/dashboard', auth(op.token));
    expect(idle.statusCode).toBe(401);
    expect(idle.json().message).toBe(adminMessages.sessionEnded);

    const fresh = await signedInAgain(op);
    expect((await get('/v1/admin/dashboard', auth(fresh))).statusCode).toBe(200);
    const rows = await sessions();
    const newest = rows[rows.length - 1];
    // Twelve hours from the sign-in (the two clocks, the server's and the database's, a few ms apart).
    const lasts = (newest?.expiresAt.getTime() ?? 0) - (newest?.createdAt.getTime() ?? 0);
    expect(Math.abs(lasts - 12 * 3600_000)).toBeLessThan(1000);
    await ctx.database.db
      .update(t.operatorSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(t.operatorSessions.id, newest?.id ?? 0));
    expect((await get('/v1/admin/dashboard', auth(fresh))).statusCode).toBe(401);

    // A third sign-in within the same minute: the codes of the next steps are spent, a recovery code is not.
    const challenge = (await post('/v1/login', { email: op.email, password: op.password })).json()
      .operator_challenge;
    const last = (await post('/v1/admin/sign-in', { challenge, code: op.recovery[0] })).json().access_token;
    expect((await post('/v1/admin/sign-out', {}, auth(last))).statusCode).toBe(200);
    expect((await get('/v1/admin/dashboard', auth(last))).statusCode).toBe(401);
  });
});

async function signedInAgain(op: { email: string; password: string; secret: string }, ahead = 30_000) {
  const challenge = (await post('/v1/login', { email: op.email, password: op.password })).json()
    .operator_challenge;
  const res = await post('/v1/admin/sign-in', {
    challenge,
    code: codeFor(op.email, op.secret, Date.now() + ahead),
  });
  expect(res.statusCode).toBe(200);
  return res.json().access_token as string;
}

describe('permission matrix of /v1/admin', () => {
  let headers: Record<'guest' | 'viewer' | 'creator' | 'moderator' | 'admin', Record<string, string>>;
  beforeAll(async () => {
    const viewer = await insertUser(ctx, { type: 'user' });
    const creator = await insertUser(ctx, { type: 'model' });
    headers = {
      guest: {},
      viewer: auth(await issueAccessToken(ctx.database.db, viewer.id, false)),
      creator: auth(await issueAccessToken(ctx.database.db, creator.id, false)),
      moderator: auth((await signedInOperator('moderator')).token),
      admin: auth((await signedInOperator('admin')).token),
    };
  });

  const moderatorCalls: [string, string][] = [
    ['GET', '/v1/admin/dashboard'],
    ['GET', '/v1/admin/review'],
    ['GET', '/v1/admin/reports'],
    ['GET', '/v1/admin/verifications'],
    ['GET', '/v1/admin/accounts'],
    ['GET', '/v1/admin/audit'],
  ];
  const adminCalls: [string, string][] = [
    ['GET', '/v1/admin/operators'],
    ['POST', '/v1/admin/operators'],
    ['GET', '/v1/admin/audit.csv'],
    ['POST', '/v1/admin/accounts/1/unsuspend'],
    ['POST', '/v1/admin/operators/1/remove'],
    ['POST', '/v1/admin/operators/1/role'],
  ];

  it.each(moderatorCalls)(
    '%s %s: guest 401, viewer and creator 403, moderator and admin 200',
    async (method, url) => {
      const call = (h: Record<string, string>) =>
        ctx.app.inject({ method: method as 'GET', url, headers: h });
      expect((await call(headers.guest)).statusCode).toBe(401);
      const viewer = await call(headers.viewer);
      expect(viewer.statusCode).toBe(403);
      expect(viewer.json().message).toBe(adminMessages.notOperator);
      expect((await call(headers.creator)).statusCode).toBe(403);
      const moderator = await call(headers.moderator);
      expect(moderator.statusCode).toBe(200);
      expect(moderator.headers['cache-control']).toBe('private, no-store');
      expect((await call(headers.admin)).statusCode).toBe(200);
    },
  );

  it.each(adminCalls)('%s %s: guest 401, viewer, creator and moderator 403', async (method, url) => {
    const call = (h: Record<string, string>) =>
      ctx.app.inject({
        method: method as 'GET',
        url,
        headers: h,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
    expect((await call(headers.guest)).statusCode).toBe(401);
    expect((await call(headers.viewer)).statusCode).toBe(403);
    expect((await call(headers.creator)).statusCode).toBe(403);
    const moderator = await call(headers.moderator);
    expect(moderator.statusCode).toBe(403);
    expect(moderator.json().message).toBe(adminMessages.adminOnly);
    // An admin gets past the role check: to the answer, or to the call's own validation.
    expect([200, 404, 409, 422]).toContain((await call(headers.admin)).statusCode);
  });

  it('an operator token does nothing in the app, and a removed operator is out at once', async () => {
    const op = await signedInOperator('moderator');
    expect((await get('/v1/profile', auth(op.token))).statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(t.operators).where(eq(t.operators.email, op.email));
    expect((await post(`/v1/admin/operators/${row?.id}/remove`, {}, headers.admin)).statusCode).toBe(200);
    expect((await get('/v1/admin/dashboard', auth(op.token))).statusCode).toBe(401);
    expect((await post('/v1/login', { email: op.email, password: op.password })).statusCode).toBe(401);
    // The address may come back as a new operator, with a link of its own; the old lines keep the old one.
    const again = await runCommand(ctx, ['operator', 'create', op.email, '--role', 'moderator']);
    const link = await post('/v1/login/token', { token: loginTokenIn(again.join('\n')) });
    expect(link.json()).toMatchObject({ step: 'setup' });
  });
});

describe('the review queue', () => {
  let moderator: string;
  beforeAll(async () => {
    moderator = (await signedInOperator('moderator')).token;
  });

  async function heldUpload(title: string) {
    const owner = await insertUser(ctx, { type: 'model' });
    const video = await insertVideo(ctx, {
      userId: owner.id,
      title,
      review: 'held',
      reviewQueuedAt: new Date(),
      publishAt: new Date(Date.now() - 1000),
    });
    return { owner, video };
  }
  const inHomeFeed = async (id: number) =>
    (await get('/v1/videos?per_page=100')).json().data.some((v: { id: number }) => v.id === id);

  it('keeps a held upload out of every list until approved, then publishes it and mails the creator', async () => {
    const { owner, video } = await heldUpload('Held clip');
    expect(await inHomeFeed(video.id)).toBe(false);
    expect((await get(`/v1/videos/start/${video.id}`)).statusCode).toBe(404);
    const queue = (await get('/v1/admin/review', auth(moderator))).json().data;
    expect(queue.map((i: { id: number }) => i.id)).toContain(video.id);
    expect(queue.find((i: { id: number }) => i.id === video.id)).toMatchObject({
      title: 'Held clip',
      review: 'held',
      creator: { id: owner.id, email: owner.email, verification: 'approved' },
    });

    const approved = await post(`/v1/admin/review/${video.id}/approve`, {}, auth(moderator));
    expect(approved.statusCode).toBe(200);
    expect(await inHomeFeed(video.id)).toBe(true);
    expect(await waitForMail(owner.email, 'Your video was approved')).toContain('Held clip');
    // Decided once: a second operator's click is refused, not applied again.
    const twice = await post(`/v1/admin/review/${video.id}/approve`, {}, auth(moderator));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(adminMessages.notWaiting);
    expect(await auditActions()).toContain(`video.approve video:${video.id}`);
  });

  it('rejects with a reason the owner sees in their grid and reads in a mail', async () => {
    const { owner, video } = await heldUpload('Bad clip');
    const noReason = await post(`/v1/admin/review/${video.id}/reject`, {}, auth(moderator));
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.reason).toEqual([adminMessages.reasonRequired]);
    const rejected = await post(
      `/v1/admin/review/${video.id}/reject`,
      { reason: 'misleading', note: 'The thumbnail shows another video.' },
      auth(moderator),
    );
    expect(rejected.statusCode).toBe(200);
    const ownerToken = await issueAccessToken(ctx.database.db, owner.id, false);
    const grid = (await get(`/v1/users/${owner.id}/videos`, auth(ownerToken))).json().data;
    expect(grid[0]).toMatchObject({
      id: video.id,
      status: 'rejected',
      statusReason: 'The title, tags or thumbnail do not match the video. The thumbnail shows another video.',
    });
    const mail = await waitForMail(owner.email, 'Your video was not approved');
    expect(mail).toContain('The thumbnail shows another video.');
    expect(await inHomeFeed(video.id)).toBe(false);
    const [line] = await ctx.database.db
      .select()
      .from(t.auditLog)
      .where(and(eq(t.auditLog.targetType, 'video'), eq(t.auditLog.targetId, String(video.id))));
    expect(line).toMatchObject({ action: 'video.reject', actor: expect.stringMatching(/@ops\.test$/) });
  });

  it('with UPLOAD_REVIEW=after an open upload is public while it waits, and its owner is told', async () => {
    const owner = await insertUser(ctx, { type: 'model' });
    const video = await insertVideo(ctx, { userId: owner.id, review: 'open', reviewQueuedAt: new Date() });
    expect(await inHomeFeed(video.id)).toBe(true);
    const ownerToken = await issueAccessToken(ctx.database.db, owner.id, false);
    expect((await get(`/v1/users/${owner.id}/videos`, auth(ownerToken))).json().data[0].inReview).toBe(false);
    const queue = (await get('/v1/admin/review', auth(moderator))).json().data;
    expect(queue.find((i: { id: number }) => i.id === video.id)?.review).toBe('open');
  });
});

describe('reports', () => {
  it('groups reports by video, most reported first; dismisses with a note; takes down and suspends', async () => {
    const moderator = (await signedInOperator('moderator')).token;
    const owner = await insertUser(ctx, { type: 'model' });
    const ownerToken = await issueAccessToken(ctx.database.db, owner.id, true);
    const once = await insertVideo(ctx, { userId: owner.id, title: 'Reported once' });
    const thrice = await insertVideo(ctx, { userId: owner.id, title: 'Reported thrice' });
    const report = (videoId: number, n: number) =>
      post('/v1/report-video', {
        video_id: videoId,
        email: `reporter${n}@example.test`,
        reason: 'consent',
        message: `Report ${n}`,
        guest_id: `guest-${n}-abcdef`,
      });
    for (const n of [1, 2, 3]) expect((await report(thrice.id, n)).statusCode).toBe(201);
    expect((await report(once.id, 4)).statusCode).toBe(201);

    const groups = (await get('/v1/admin/reports', auth(moderator))).json().data;
    const ours = groups.filter((g: { video: { id: number } }) => [once.id, thrice.id].includes(g.video.id));
    expect(ours.map((g: { video: { id: number }; count: number }) => [g.video.id, g.count])).toEqual([
      [thrice.id, 3],
      [once.id, 1],
    ]);
    expect(ours[0].reports[0]).toMatchObject({
      reason: 'consent',
      email: 'reporter3@example.test',
      message: 'Report 3',
    });

    expect((await post(`/v1/admin/reports/${once.id}/dismiss`, {}, auth(moderator))).statusCode).toBe(422);
    expect(
      (await post(`/v1/admin/reports/${once.id}/dismiss`, { note: 'Consent form on file.' }, auth(moderator)))
        .statusCode,
    ).toBe(200);

    const down = await post(
      `/v1/admin/reports/${thrice.id}/take-down`,
      { reason: 'consent', note: '', suspend: true },
      auth(moderator),
    );
    expect(down.statusCode).toBe(200);
    const left = (await get('/v1/admin/reports', auth(moderator))).json().data;
    expect(left.some((g: { video: { id: number } }) => [once.id, thrice.id].includes(g.video.id))).toBe(
      false,
    );
    const [video] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, thrice.id));
    expect(video?.status).toBe('rejected');
    expect(await waitForMail(owner.email, 'Your video was taken down')).toContain('Reported thrice');

    // The suspension: the token stops working, the profile and every video are gone, login says why.
    expect((await get('/v1/profile', auth(ownerToken))).statusCode).toBe(401);
    expect((await get(`/v1/users/${owner.id}`)).statusCode).toBe(404);
    expect((await get(`/v1/videos/start/${once.id}`)).statusCode).toBe(404);
    await ctx.database.db
      .update(t.users)
      .set({ passwordHash: await hashPassword('owner password') })
      .where(eq(t.users.id, owner.id));
    const login = await post('/v1/login', { email: owner.email, password: 'owner password' });
    expect(login.statusCode).toBe(403);
    expect(login.json().message).toBe(adminMessages.suspended);
    expect(await auditActions()).toEqual(
      expect.arrayContaining([
        `report.dismiss video:${once.id}`,
        `video.take_down video:${thrice.id}`,
        `account.suspend user:${owner.id}`,
      ]),
    );

    // Lifting it is an admin's: the videos come back.
    const admin = (await signedInOperator('admin')).token;
    expect((await post(`/v1/admin/accounts/${owner.id}/unsuspend`, {}, auth(moderator))).statusCode).toBe(
      403,
    );
    expect(
      (await post(`/v1/admin/accounts/${owner.id}/unsuspend`, { note: 'Appeal accepted.' }, auth(admin)))
        .statusCode,
    ).toBe(200);
    expect((await get(`/v1/videos/start/${once.id}`)).statusCode).toBe(200);
    expect((await post('/v1/login', { email: owner.email, password: 'owner password' })).statusCode).toBe(
      200,
    );
  });
});

describe('identity checks', () => {
  it('shows the documents only to operators, logs each view, and approves or rejects with a mail', async () => {
    const moderator = (await signedInOperator('moderator')).token;
    const creator = await insertUser(ctx, { type: 'model', verificationStatus: 'none' });
    const creatorToken = await issueAccessToken(ctx.database.db, creator.id, false);
    const [jpg, png] = await Promise.all([makeImage('jpg', 320, 200), makeImage('png', 320, 200)]);
    const form = multipartBody({
      legal_name: 'Jane Example',
      gender: 't',
      address: '1 Main St',
      country: 'de',
      date_of_birth: '1990-01-01',
      // The age the form derives from the birthday on the day the test runs (a fixed 36 stops being true on
      // 1 January 2027).
      age: String(ageOn('1990-01-01')),
      stage_name: 'Janie',
      identification: 'passport',
      identification_id: 'X1234567',
      front_picture_id: { filename: 'f.jpg', contentType: 'image/jpeg', data: jpg },
      back_picture_id: { filename: 'b.jpg', contentType: 'image/jpeg', data: jpg },
      face_picture_id: { filename: 's.jpg', contentType: 'image/jpeg', data: jpg },
      signature: { filename: 'sig.png', contentType: 'image/png', data: png },
    });
    const sent = await ctx.app.inject({
      method: 'POST',
      url: '/v1/profile/verification',
      headers: { ...form.headers, ...auth(creatorToken) },
      payload: form.payload,
    });
    expect(sent.statusCode).toBe(201);

    const queue = (await get('/v1/admin/verifications', auth(moderator))).json().data;
    const item = queue.find((i: { creator: { id: number } }) => i.creator.id === creator.id);
    expect(item).toMatchObject({
      legalName: 'Jane Example',
      identification: 'passport',
      dateOfBirth: '1990-01-01',
    });

    const url = `/v1/admin/verifications/${item.id}/documents/front`;
    // Never to anyone but an operator: not the creator themselves, not a guest.
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, auth(creatorToken))).statusCode).toBe(403);
    const image = await get(url, auth(moderator));
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect(image.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(
      (await get(`/v1/admin/verifications/${item.id}/documents/passport`, auth(moderator))).statusCode,
    ).toBe(404);
    const views = await ctx.database.db
      .select()
      .from(t.auditLog)
      .where(eq(t.auditLog.action, 'verification.view_document'));
    expect(views.filter((v) => v.targetId === String(item.id)).map((v) => v.detail)).toEqual([
      { document: 'front', userId: creator.id },
    ]);
    // Nor through /media, whatever the path guessed.
    const [request] = await ctx.database.db
      .select()
      .from(t.verificationRequests)
      .where(eq(t.verificationRequests.id, item.id));
    expect((await get(`/media/${request?.frontPicturePath}`)).statusCode).toBe(404);
    expect((await get(`/media/../private/${request?.frontPicturePath}`)).statusCode).toBe(404);

    const rejected = await post(
      `/v1/admin/verifications/${item.id}/reject`,
      { reason: 'unreadable', note: 'The back is blurred.' },
      auth(moderator),
    );
    expect(rejected.statusCode).toBe(200);
    const profile = (await get('/v1/profile', auth(creatorToken))).json().data;
    expect(profile).toMatchObject({
      isVerified: 'rejected',
      verificationNote: 'The document photos could not be read. The back is blurred.',
    });
    expect(await waitForMail(creator.email, 'Your identity check was not approved')).toContain(
      'The back is blurred.',
    );
  });
});

describe('audit log', () => {
  it('filters by operator and action, exports CSV for admins, and refuses any rewrite', async () => {
    const admin = await signedInOperator('admin');
    const [row] = await ctx.database.db.select().from(t.operators).where(eq(t.operators.email, admin.email));
    const mine = (await get(`/v1/admin/audit?operator=${row?.id}`, auth(admin.token))).json().data;
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['operator.sign_in', 'operator.setup']);
    const creates = (await get('/v1/admin/audit?action=operator.create', auth(admin.token))).json().data;
    expect(creates.length).toBeGreaterThan(0);
    expect(
      creates.every(
        (e: { action: string; actor: string }) => e.action === 'operator.create' && e.actor === 'cli',
      ),
    ).toBe(true);
    expect((await get('/v1/admin/audit?action=drop-table', auth(admin.token))).statusCode).toBe(422);

    const csv = await get('/v1/admin/audit.csv?action=operator.create', auth(admin.token));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,operator_id,action,target_type,target_id,reason,detail');
    expect(lines.length).toBe(creates.length + 1);

    await expect(ctx.database.db.update(t.auditLog).set({ reason: 'rewritten' })).rejects.toThrow();
    await expect(ctx.database.db.delete(t.auditLog)).rejects.toThrow();
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { ageOn, messages } from '../../src/contract';
import { multipartBody, type Part } from './form';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { MARKER, makeImage } from './images';

const m = messages.verification;
let ctx: TestContext;
let png: Buffer;
let jpg: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  [png, jpg] = await Promise.all([makeImage('png', 320, 200), makeImage('jpg', 320, 200)]);
});
afterAll(() => ctx.close());

const yearsAgo = (years: number, days = 0) => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const fields = (over: Record<string, string | undefined> = {}) => {
  const base: Record<string, string | undefined> = {
    legal_name: 'Jane Example',
    gender: 't',
    address: '1 Main St, Berlin',
    country: 'de',
    date_of_birth: yearsAgo(25),
    age: '25',
    stage_name: 'Janie',
    identification: 'passport',
    identification_id: 'X1234567',
    ...over,
  };
  return Object.fromEntries(Object.entries(base).filter(([, val]) => val !== undefined)) as Record<
    string,
    string
  >;
};

const images = (): Record<string, Part> => ({
  front_picture_id: { filename: 'front.jpg', contentType: 'image/jpeg', data: jpg },
  back_picture_id: { filename: 'back.png', contentType: 'image/png', data: png },
  face_picture_id: { filename: 'face.txt', contentType: 'text/plain', data: jpg },
  signature: { filename: 'signature.png', contentType: 'image/png', data: png },
});

async function creator(values: Partial<typeof t.users.$inferInsert> = {}) {
  const user = await insertUser(ctx, { verificationStatus: 'none', ...values });
  return { user, token: await issueAccessToken(ctx.database.db, user.id, false) };
}

const send = (token: string | undefined, parts: Record<string, Part>) => {
  const { payload, headers } = multipartBody(parts);
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/profile/verification',
    payload,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
};

describe('POST /v1/profile/verification', () => {
  it('stores the request (201), status pending, images re-encoded under DATA_DIR/private only', async () => {
    const { user, token } = await creator();
    const res = await send(token, { ...fields(), ...images() });
    expect(res.statusCode).toBe(201);
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, user.id));
    expect(row?.verificationStatus).toBe('pending');
    const [request] = await ctx.database.db
      .select()
      .from(t.verificationRequests)
      .where(eq(t.verificationRequests.userId, user.id));
    expect(request).toMatchObject({
      legalName: 'Jane Example',
      country: 'DE',
      age: 25,
      identification: 'passport',
    });
    for (const rel of [
      request?.frontPicturePath,
      request?.backPicturePath,
      request?.facePicturePath,
      request?.signaturePath,
    ]) {
      const abs = path.join(ctx.config.dataDir, 'private', rel ?? 'missing');
      const bytes = await fs.readFile(abs);
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(bytes.includes(MARKER)).toBe(false);
      // Not under the media root, so /media/... can never serve it.
      expect(abs.startsWith(ctx.storage.root)).toBe(false);
    }
    // Pending: a second request is refused with the spec's pending text.
    const again = await send(token, { ...fields(), ...images() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: m.pending });
  });

  it.each([
    ['legal_name', m.legalName],
    ['gender', m.gender],
    ['address', m.address],
    ['country', m.country],
    ['date_of_birth', m.dateOfBirth],
    ['age', m.age],
    ['stage_name', m.stageName],
    ['identification', m.identification],
    ['identification_id', m.identificationId],
  ])('422 without %s: "%s"', async (field, message) => {
    const { token } = await creator();
    const res = await send(token, { ...fields({ [field]: undefined }), ...images() });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toEqual([message]);
  });

  it.each([
    ['front_picture_id', m.frontPicture],
    ['back_picture_id', m.backPicture],
    ['face_picture_id', m.facePicture],
    ['signature', m.signature],
  ])('422 without the %s image: "%s"', async (field, message) => {
    const { token } = await creator();
    const parts = images();
    delete parts[field];
    const res = await send(token, { ...fields(), ...parts });
    expect(res.json().errors[field]).toEqual([message]);
  });

  it.each([
    ['age', '', m.age],
    ['age', 'old', m.age],
    ['age', '17', m.underage],
    ['age', '30', m.ageMismatch],
    ['gender', 'f', messages.auth.invalidGender],
    ['country', 'XX', m.country],
    ['country', 'UK', m.country],
  ])('422 for %s "%s": "%s"', async (field, value, message) => {
    const { token } = await creator();
    const res = await send(token, { ...fields({ [field]: value }), ...images() });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toEqual([message]);
  });

  it('takes an age a day off at a birthday: the client counts in its own time zone', async () => {
    const { token } = await creator();
    const res = await send(token, { ...fields({ date_of_birth: yearsAgo(25, 1), age: '25' }), ...images() });
    expect(res.statusCode).toBe(201);
  });

  it('422 for a 17 MB photo, under its own field', async () => {
    const { token } = await creator();
    const big = Buffer.concat([jpg, Buffer.alloc(17 * 1024 * 1024)]);
    const res = await send(token, {
      ...fields(),
      ...images(),
      back_picture_id: { filename: 'back.jpg', contentType: 'image/jpeg', data: big },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ back_picture_id: [messages.profile.imageTooLarge] });
  });

  it('422 for an unknown ID type and a text file as photo', async () => {
    const { token } = await creator();
    expect(
      (await send(token, { ...fields({ identification: 'library-card' }), ...images() })).json().errors
        .identification,
    ).toEqual([m.identification]);
    const fake = {
      ...images(),
      front_picture_id: { filename: 'x.png', contentType: 'image/png', data: Buffer.from('hello') },
    };
    expect((await send(token, { ...fields(), ...fake })).json().errors.front_picture_id).toEqual([
      messages.profile.imageType,
    ]);
  });

  it('computes the age from the birthday: 18 today is enough, one day short is refused', async () => {
    expect(ageOn('2000-03-01', new Date('2018-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2000-03-01', new Date('2018-03-01T12:00:00Z'))).toBe(18);
    const { token } = await creator();
    const young = await send(token, {
      ...fields({ date_of_birth: yearsAgo(18, 1), age: '18' }),
      ...images(),
    });
    expect(young.json().errors.date_of_birth).toEqual([m.underage]);
    const exactly = await send(token, { ...fields({ date_of_birth: yearsAgo(18), age: '18' }), ...images() });
    expect(exactly.statusCode).toBe(201);
    const { token: t2 } = await creator();
    expect(
      (await send(t2, { ...fields({ date_of_birth: '2001-02-30' }), ...images() })).json().errors
        .date_of_birth,
    ).toEqual([m.dateOfBirth]);
  });

  // Identity documents are the sender's own: a user_id naming someone else is ignored, so a studio manager
  // or another model can never verify (or block the verification of) another creator.
  it.each([
    ['manager of their studio', true, 409],
    ['another model', false, 201],
  ])('a %s sending user_id of a member only ever acts on their own account', async (_, manager, status) => {
    const [studio] = await ctx.database.db
      .insert(t.studios)
      .values({ name: 'S', keyHash: `k-${status}` })
      .returning();
    const { user: member } = await creator({ studioId: studio?.id, studioRole: 'member' });
    const actor = await creator(
      manager ? { verificationStatus: 'approved', studioId: studio?.id, studioRole: 'manager' } : {},
    );
    const res = await send(actor.token, { ...fields(), ...images(), user_id: String(member.id) });
    expect(res.statusCode).toBe(status);
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, member.id));
    expect(row?.verificationStatus).toBe('none');
    const requests = await ctx.database.db
      .select()
      .from(t.verificationRequests)
      .where(eq(t.verificationRequests.userId, member.id));
    expect(requests).toEqual([]);
  });

  it('permission matrix: guest 401, viewer 403, a channel may, an approved creator gets 409', async () => {
    expect((await send(undefined, { ...fields(), ...images() })).statusCode).toBe(401);
    const viewer = await creator({ type: 'user' });
    expect((await send(viewer.token, { ...fields(), ...images() })).statusCode).toBe(403);
    const channel = await creator({ type: 'channel', verificationStatus: 'rejected' });
    expect((await send(channel.token, { ...fields(), ...images() })).statusCode).toBe(201);
    const approved = await creator({ verificationStatus: 'approved' });
    expect((await send(approved.token, { ...fields(), ...images() })).statusCode).toBe(409);
  });
});

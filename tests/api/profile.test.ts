import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/password';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { messages, ownProfileResponseSchema, profileUpdateResponseSchema } from '../../src/contract';
import { multipartBody, type Part } from './form';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { dimensionsOf, MARKER, makeImage } from './images';

const p = messages.profile;
let ctx: TestContext;
const tokens: Record<'viewer' | 'owner' | 'other' | 'manager' | 'channel', string> = {
  viewer: '',
  owner: '',
  other: '',
  manager: '',
  channel: '',
};
let ownerId = 0;
let channelId = 0;
let studioId = 0;
let png: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  const [studio] = await ctx.database.db
    .insert(t.studios)
    .values({ name: 'Blue Studio', keyHash: 'k1' })
    .returning();
  studioId = studio?.id ?? 0;
  const owner = await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' });
  ownerId = owner.id;
  const other = await insertUser(ctx);
  const manager = await insertUser(ctx, { studioId: studio?.id, studioRole: 'manager' });
  const viewer = await insertUser(ctx, { type: 'user' });
  const channel = await insertUser(ctx, { type: 'channel' });
  channelId = channel.id;
  const db = ctx.database.db;
  tokens.owner = await issueAccessToken(db, owner.id, false);
  tokens.other = await issueAccessToken(db, other.id, false);
  tokens.manager = await issueAccessToken(db, manager.id, false);
  tokens.viewer = await issueAccessToken(db, viewer.id, false);
  tokens.channel = await issueAccessToken(db, channel.id, false);
  png = await makeImage('png', 400, 300);
});
afterAll(() => ctx.close());

type Who = keyof typeof tokens | 'guest';
const auth = (who: Who) => (who === 'guest' ? {} : { authorization: `Bearer ${tokens[who]}` });
const update = (who: Who, payload: object) =>
  ctx.app.inject({ method: 'POST', url: '/v1/profile', payload, headers: auth(who) });
const upload = (who: Who, parts: Record<string, Part>) => {
  const { payload, headers } = multipartBody(parts);
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/profile',
    payload,
    headers: { ...headers, ...auth(who) },
  });
};
const expect422 = (res: { statusCode: number; json(): unknown }, field: string, message: string) => {
  expect(res.statusCode).toBe(422);
  expect((res.json() as { errors: Record<string, string[]> }).errors[field]).toContain(message);
};

describe('GET /v1/profile', () => {
  it('returns the own profile with private fields and the studio', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/profile', headers: auth('owner') });
    expect(res.statusCode).toBe(200);
    const { data } = v.parse(ownProfileResponseSchema, res.json());
    expect(data).toMatchObject({
      id: ownerId,
      isVerified: 'approved',
      studio: { name: 'Blue Studio', role: 'member' },
    });
    expect(data.email).toContain('@example.test');
  });

  it('401 for a guest or a bad token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/v1/profile' })).statusCode).toBe(401);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/v1/profile',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
  });
});

describe('POST /v1/profile links', () => {
  it('adds and deletes links; the answer carries user.links', async () => {
    const add = await update('owner', { links: [{ url: 'www.example.com/me', action: 'add' }] });
    expect(add.statusCode).toBe(200);
    const body = v.parse(profileUpdateResponseSchema, add.json());
    expect(body.message).toBe(p.linkAdded);
    const link = body.user.links.find((l) => l.url === 'https://www.example.com/me');
    expect(link?.name).toBe('example.com');
    const del = await update('owner', { links: [{ id: link?.id, action: 'delete' }] });
    expect(del.json().message).toBe(p.linkDeleted);
    expect(del.json().user.links).toEqual([]);
  });

  it('puts a new link after the ones the creator already has, as the demo seed orders them', async () => {
    // Ordered links, as the seed writes them (positions 0, 1).
    await ctx.database.db.insert(t.links).values([
      { userId: ownerId, name: 'Room', url: 'https://room.example.com', position: 0 },
      { userId: ownerId, name: 'Fans', url: 'https://fans.example.com', position: 1 },
    ]);
    for (const name of ['New', 'Newer'])
      await update('owner', { links: [{ url: `${name.toLowerCase()}.example.com`, name, action: 'add' }] });
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/profile', headers: auth('owner') });
    const links = v.parse(ownProfileResponseSchema, res.json()).data.links;
    expect(links.map((l) => l.name)).toEqual(['Room', 'Fans', 'New', 'Newer']);
    for (const link of links) await update('owner', { links: [{ id: link.id, action: 'delete' }] });
  });

  it.each(['not a url', 'http://localhost', 'ftp://example.com', 'example.c', ''])(
    '"%s" → Invalid link URL',
    async (url) => {
      expect422(await update('owner', { links: [{ url, action: 'add' }] }), 'links.0.url', p.invalidLink);
    },
  );

  it.each(['https://example.com', 'http://sub.example.co.uk:8080/path?x=1', 'example.io'])(
    'accepts %s',
    async (url) => {
      expect((await update('owner', { links: [{ url, action: 'add' }] })).statusCode).toBe(200);
    },
  );

  it('permission matrix: guest 401, viewer 403, another model 403, studio manager allowed', async () => {
    const payload = { links: [{ url: 'https://x.example.com', action: 'add' }] };
    expect((await update('guest', payload)).statusCode).toBe(401);
    expect((await update('viewer', payload)).statusCode).toBe(403);
    expect((await update('other', { ...payload, user_id: ownerId })).statusCode).toBe(403);
    const res = await update('manager', { ...payload, user_id: ownerId });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(ownerId);
  });

  it("never deletes another creator's link", async () => {
    const added = await update('owner', { links: [{ url: 'https://keep.example.com', action: 'add' }] });
    const id = added.json().user.links.at(-1).id;
    expect((await update('other', { links: [{ id, action: 'delete' }] })).statusCode).toBe(404);
  });
});

describe('POST /v1/profile details, gender, password, colour', () => {
  it('updates name, username, description and phone for a creator', async () => {
    const res = await update('owner', {
      name: 'New Name',
      username: 'New_Handle',
      description: 'Hello',
      phone_number: '+1 555',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(p.detailsUpdated);
    expect(res.json().user).toMatchObject({
      name: 'New Name',
      username: 'New_Handle',
      slug: 'new_handle',
      phone_number: '+1 555',
    });
  });

  it('validates with the spec messages', async () => {
    expect422(await update('owner', { description: 'x'.repeat(201) }), 'description', p.descriptionTooLong);
    expect((await update('owner', { description: 'x'.repeat(200) })).statusCode).toBe(200);
    expect422(await update('owner', { phone_number: '123' }), 'phone_number', p.phoneTooShort);
    expect422(await update('owner', { username: 'no spaces' }), 'username', messages.auth.usernameInvalid);
    expect422(await update('owner', { username: 'login' }), 'username', messages.auth.usernameTaken);
  });

  it('lets a viewer change the name and gender, but not username, description or phone (403)', async () => {
    expect((await update('viewer', { name: 'Viewer' })).statusCode).toBe(200);
    expect((await update('viewer', { gender: 't' })).json()).toMatchObject({
      message: p.genderChanged,
      user: { gender: 't' },
    });
    for (const payload of [{ username: 'viewer_x' }, { description: 'hi' }, { phone_number: '12345' }]) {
      expect((await update('viewer', payload)).statusCode).toBe(403);
    }
    expect((await update('guest', { name: 'x' })).statusCode).toBe(401);
    expect((await update('other', { name: 'x', user_id: ownerId })).statusCode).toBe(403);
    expect((await update('manager', { name: 'Managed', user_id: ownerId })).statusCode).toBe(200);
  });

  it('changes the password with the spec messages; a manager cannot', async () => {
    expect422(await update('owner', { password: '' }), 'password', p.allFieldsRequired);
    expect422(
      await update('owner', { password: 'abcdefgh', password_confirmation: 'abcdefgX' }),
      'password_confirmation',
      p.passwordsMustMatch,
    );
    expect422(
      await update('owner', { password: 'short', password_confirmation: 'short' }),
      'password',
      p.newPasswordTooShort,
    );
    // The current password first: a stolen token alone takes nothing over.
    await ctx.database.db
      .update(t.users)
      .set({ passwordHash: await hashPassword('old password 1') })
      .where(eq(t.users.id, ownerId));
    const fresh = { password: 'brand new pw', password_confirmation: 'brand new pw' };
    expect422(await update('owner', fresh), 'current_password', p.currentPasswordRequired);
    expect422(
      await update('owner', { ...fresh, current_password: 'not it at all' }),
      'current_password',
      p.currentPasswordWrong,
    );
    const ok = await update('owner', { ...fresh, current_password: 'old password 1' });
    expect(ok.json().message).toBe(p.passwordChanged);
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, ownerId));
    expect(await verifyPassword('brand new pw', row?.passwordHash ?? '')).toBe(true);
    // Nobody but the user sets their password: guests 401, a manager or another model acting for them 403.
    const takeover = { password: 'takeover1', password_confirmation: 'takeover1' };
    for (const [who, status] of [
      ['guest', 401],
      ['manager', 403],
      ['other', 403],
    ] as const) {
      expect((await update(who, { ...takeover, user_id: ownerId })).statusCode, who).toBe(status);
    }
    const [after] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, ownerId));
    expect(after?.passwordHash).toBe(row?.passwordHash);
  });

  it("ends the user's other sessions on a password change, keeping the one that made it", async () => {
    const db = ctx.database.db;
    const model = await insertUser(ctx, { passwordHash: await hashPassword('first pw 123') });
    const [current, phone, laptop] = await Promise.all(
      [1, 2, 3].map(() => issueAccessToken(db, model.id, true)),
    );
    const profileWith = async (token: string | undefined) =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/v1/profile',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/profile',
      headers: { authorization: `Bearer ${current}` },
      payload: {
        current_password: 'first pw 123',
        password: 'another pw 1',
        password_confirmation: 'another pw 1',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(await profileWith(current)).toBe(200);
    expect([await profileWith(phone), await profileWith(laptop)]).toEqual([401, 401]);
    expect(await profileWith(tokens.other)).toBe(200);
  });

  it('sets a channel colour; models and viewers get 403; bad values 422', async () => {
    const res = await update('channel', { color: '#FF0066' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.color).toBe('#ff0066');
    expect((await update('owner', { color: '#ff0066' })).statusCode).toBe(403);
    expect((await update('viewer', { color: '#ff0066' })).statusCode).toBe(403);
    expect422(await update('channel', { color: 'red' }), 'color', p.invalidColor);
    expect(channelId).toBeGreaterThan(0);
  });

  it('colour for someone else: guest 401, another creator 403, the manager of a studio channel 200', async () => {
    const member = await insertUser(ctx, { type: 'channel', studioId, studioRole: 'member' });
    for (const [who, user_id, status] of [
      ['guest', channelId, 401],
      ['other', channelId, 403],
      ['manager', channelId, 403],
      ['other', member.id, 403],
      ['manager', member.id, 200],
    ] as const) {
      const res = await update(who, { color: '#00aa11', user_id });
      expect(res.statusCode, `${who} for ${user_id}`).toBe(status);
    }
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, member.id));
    expect(row?.color).toBe('#00aa11');
    const [untouched] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, channelId));
    expect(untouched?.color).toBe('#ff0066');
  });

  it('keeps the gender preference on the account for every type; normalised, validated, own account only', async () => {
    for (const who of ['viewer', 'owner', 'channel'] as const) {
      const res = await update(who, { preference: 't' });
      expect(res.statusCode, who).toBe(200);
      expect(res.json()).toMatchObject({ message: p.preferenceSaved, user: { preference: 't' } });
    }
    // Another device signing in reads it from GET /v1/profile.
    expect((await update('viewer', { preference: 't,m' })).json().user.preference).toBe('m,t');
    const read = await ctx.app.inject({ method: 'GET', url: '/v1/profile', headers: auth('viewer') });
    expect(v.parse(ownProfileResponseSchema, read.json()).data.preference).toBe('m,t');
    for (const bad of ['', 'x', 'm;t', 'male', 'm,'.repeat(20), 7]) {
      expect422(await update('viewer', { preference: bad }), 'preference', p.invalidPreference);
    }
    expect((await update('guest', { preference: 'm' })).statusCode).toBe(401);
    // A manager runs a member's profile, not what the member likes to watch.
    expect((await update('manager', { preference: 'm', user_id: ownerId })).statusCode).toBe(403);
    const [owner] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, ownerId));
    expect(owner?.preference).toBe('t');
  });

  it('422 when nothing is sent', async () => {
    expect((await update('owner', {})).statusCode).toBe(422);
  });
});

describe('POST /v1/profile images (multipart)', () => {
  it('re-encodes an avatar to 150x150 and a cover to 1000x500 without metadata, under DATA_DIR/media', async () => {
    const res = await upload('owner', {
      profile_photo: { filename: 'me.png', contentType: 'image/png', data: png },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(p.photoUpdated);
    const avatar = res.json().user.avatar as string;
    expect(avatar).toMatch(new RegExp(`^/media/users/${ownerId}/avatar-[0-9a-f]+\\.jpg$`));
    const file = ctx.storage.abs(avatar.replace(/^\/media\//, ''));
    expect(await dimensionsOf(file)).toEqual({ width: 150, height: 150 });
    expect(png.includes(MARKER)).toBe(true);
    expect((await fs.readFile(file)).includes(MARKER)).toBe(false);
    const served = await ctx.app.inject({ method: 'GET', url: avatar });
    expect(served.statusCode).toBe(200);

    const jpg = await makeImage('jpg', 800, 800);
    const cover = await upload('owner', {
      profile_cover: { filename: 'c.jpg', contentType: 'image/jpeg', data: jpg },
    });
    expect(cover.json().message).toBe(p.coverUpdated);
    const coverFile = ctx.storage.abs((cover.json().user.cover as string).replace(/^\/media\//, ''));
    expect(await dimensionsOf(coverFile)).toEqual({ width: 1000, height: 500 });
    expect(jpg.includes(MARKER)).toBe(true);
    expect((await fs.readFile(coverFile)).includes(MARKER)).toBe(false);
  });

  it('decides by content: a PNG named .txt is accepted, text named .png is refused', async () => {
    const renamed = await upload('owner', {
      profile_photo: { filename: 'notes.txt', contentType: 'text/plain', data: png },
    });
    expect(renamed.statusCode).toBe(200);
    const fake = await upload('owner', {
      profile_photo: {
        filename: 'photo.png',
        contentType: 'image/png',
        data: Buffer.from('just some text, not a picture'),
      },
    });
    expect422(fake, 'profile_photo', p.imageType);
    // PNG magic followed by garbage: sniffed as PNG but ffmpeg cannot decode it.
    const broken = Buffer.concat([png.subarray(0, 16), Buffer.alloc(500, 7)]);
    expect422(
      await upload('owner', { profile_photo: { filename: 'b.png', contentType: 'image/png', data: broken } }),
      'profile_photo',
      p.imageFailed,
    );
  });

  it('answers 400 to a form without a boundary or cut off in the middle of a file', async () => {
    const { payload, headers } = multipartBody({
      profile_photo: { filename: 'a.png', contentType: 'image/png', data: png },
    });
    const cut = payload.subarray(0, payload.length - 40);
    for (const [body, type] of [
      [cut, headers['content-type']],
      [payload, 'multipart/form-data'],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/profile',
        payload: body,
        headers: { ...auth('owner'), 'content-type': type },
      });
      expect(res.statusCode, type).toBe(400);
      expect(res.json()).toEqual({ message: 'The request could not be understood.' });
    }
  });

  it.each(['profile_photo', 'profile_cover'])(
    'refuses a 17 MB %s with the spec message under its field',
    async (field) => {
      const big = Buffer.concat([png, Buffer.alloc(17 * 1024 * 1024)]);
      const res = await upload('owner', {
        [field]: { filename: 'big.png', contentType: 'image/png', data: big },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'Image size cannot be bigger than 16MB',
        errors: { [field]: ['Image size cannot be bigger than 16MB'] },
      });
    },
  );

  it('permission matrix: guest 401, viewer 403, another model 403, manager allowed', async () => {
    const parts = { profile_photo: { filename: 'a.png', contentType: 'image/png', data: png } };
    expect((await upload('guest', parts)).statusCode).toBe(401);
    expect((await upload('viewer', parts)).statusCode).toBe(403);
    expect((await upload('other', { ...parts, user_id: String(ownerId) })).statusCode).toBe(403);
    expect((await upload('manager', { ...parts, user_id: String(ownerId) })).statusCode).toBe(200);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { bearer, type Cast, createCast, type Role } from './social-helpers';

let ctx: TestContext;
let cast: Cast;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
});
afterAll(() => ctx.close());

const join = (headers: Record<string, string>, payload?: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/profile/join-studio',
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const leave = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'POST', url: '/v1/profile/leave-studio', headers });
const mine = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/v1/profile/studio', headers });
const userRow = async (id: number) => {
  const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, id));
  return row;
};

describe('studio membership', () => {
  it('joins with the key, shows the studio, and leaves', async () => {
    const model = await insertUser(ctx, { type: 'channel' });
    const headers = await bearer(ctx, model.id);
    expect((await mine(headers)).statusCode).toBe(404);

    const joined = await join(headers, { key: `  ${cast.studio.key} ` });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({ name: 'Sunset Studio' });
    expect(await userRow(model.id)).toMatchObject({ studioId: cast.studio.id, studioRole: 'member' });
    expect((await mine(headers)).json()).toEqual({ name: 'Sunset Studio' });
    // Joining again is harmless.
    expect((await join(headers, { key: cast.studio.key })).statusCode).toBe(200);

    const left = await leave(headers);
    expect(left.statusCode).toBe(200);
    expect(await userRow(model.id)).toMatchObject({ studioId: null, studioRole: null });
    expect((await mine(headers)).statusCode).toBe(404);
    // Leaving twice is idempotent, so an outbox replay cannot fail.
    expect((await leave(headers)).statusCode).toBe(200);
  });

  it("answers 'Invalid key' for every failure", async () => {
    const model = await insertUser(ctx);
    const headers = await bearer(ctx, model.id);
    for (const payload of [
      undefined,
      {},
      { key: '' },
      { key: '   ' },
      { key: 42 },
      { key: 'wrong' },
      { key: 'x'.repeat(5000) },
    ]) {
      const res = await join(headers, payload);
      expect([404, 422]).toContain(res.statusCode);
      expect(res.json().message).toBe('Invalid key');
    }
    // The stored hash is not a key: a leaked row does not let anyone join.
    const [studio] = await ctx.database.db.select().from(t.studios).where(eq(t.studios.id, cast.studio.id));
    expect(studio?.keyHash).toBe(hashToken(cast.studio.key));
    expect((await join(headers, { key: studio?.keyHash })).json()).toEqual({ message: 'Invalid key' });
    expect((await userRow(model.id))?.studioId).toBeNull();
  });

  it.each<[Role, number]>([
    ['guest', 401],
    ['user', 403],
    ['owner', 200],
    ['other', 200],
    ['manager', 200],
  ])('join permission matrix: %s → %i', async (role, status) => {
    const res = await join(cast.headers[role], { key: cast.studio.key });
    expect(res.statusCode).toBe(status);
    if (role === 'user') expect(res.json()).toEqual({ message: 'Invalid key' });
    if (status === 200) expect(res.json()).toEqual({ name: 'Sunset Studio' });
  });

  it('keeps a manager in their studio: joining elsewhere and leaving are refused (403)', async () => {
    const key = 'another-studio-key-123';
    await ctx.database.db.insert(t.studios).values({ name: 'Other Studio', keyHash: hashToken(key) });
    const moved = await join(cast.headers.manager, { key });
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toEqual({ message: 'Invalid key' });
    const res = await leave(cast.headers.manager);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'A studio manager cannot leave the studio; ask the operator.' });
    expect(await userRow(cast.ids.manager)).toMatchObject({
      studioId: cast.studio.id,
      studioRole: 'manager',
    });
  });

  it.each<[Role, number]>([
    ['guest', 401],
    ['user', 200],
    ['owner', 200],
    ['other', 200],
  ])('leave permission matrix: %s → %i', async (role, status) => {
    expect((await leave(cast.headers[role])).statusCode).toBe(status);
    expect((await mine(cast.headers[role])).statusCode).toBe(role === 'guest' ? 401 : 404);
  });
});

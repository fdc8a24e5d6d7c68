import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/password';
import { issueAccessToken, revokeAccessToken, userForAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('access tokens', () => {
  it('resolves a fresh token to its user, and never the stored value itself', async () => {
    const user = await insertUser(ctx);
    const token = await issueAccessToken(ctx.database.db, user.id, false);
    expect((await userForAccessToken(ctx.database.db, token))?.id).toBe(user.id);
    const [row] = await ctx.database.db
      .select()
      .from(t.accessTokens)
      .where(eq(t.accessTokens.userId, user.id));
    expect(row?.tokenHash).not.toContain(token);
    // What a thief copies out of the table does not open the account.
    expect(await userForAccessToken(ctx.database.db, row?.tokenHash ?? '')).toBeUndefined();
  });

  it('stops working once revoked or expired', async () => {
    const user = await insertUser(ctx);
    const revoked = await issueAccessToken(ctx.database.db, user.id, true);
    await revokeAccessToken(ctx.database.db, revoked);
    expect(await userForAccessToken(ctx.database.db, revoked)).toBeUndefined();

    const expired = await issueAccessToken(ctx.database.db, user.id, false);
    await ctx.database.db
      .update(t.accessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(t.accessTokens.userId, user.id));
    expect(await userForAccessToken(ctx.database.db, expired)).toBeUndefined();
  });

  it('lives longer with remember me', async () => {
    const user = await insertUser(ctx);
    await issueAccessToken(ctx.database.db, user.id, false);
    await issueAccessToken(ctx.database.db, user.id, true);
    const rows = await ctx.database.db
      .select()
      .from(t.accessTokens)
      .where(eq(t.accessTokens.userId, user.id))
      .orderBy(t.accessTokens.id);
    const days = rows.map((r) => (r.expiresAt.getTime() - Date.now()) / 86_400_000);
    expect(days[0]).toBeLessThanOrEqual(1);
    expect(days[1]).toBeGreaterThan(30);
  });
});

describe('password hashing', () => {
  it('uses salted scrypt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('wrong horse', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });
});

describe('studio permissions', () => {
  it('lets a creator and their studio managers act for them, nobody else', async () => {
    const { canManageCreator } = await import('../../server/auth/permissions');
    const [studio] = await ctx.database.db.insert(t.studios).values({ name: 'S', keyHash: 'k1' }).returning();
    const [other] = await ctx.database.db.insert(t.studios).values({ name: 'O', keyHash: 'k2' }).returning();
    const member = await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' });
    const manager = await insertUser(ctx, { studioId: studio?.id, studioRole: 'manager' });
    const peer = await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' });
    const foreignManager = await insertUser(ctx, { studioId: other?.id, studioRole: 'manager' });
    const db = ctx.database.db;
    expect(await canManageCreator(db, member, member.id)).toBe(true);
    expect(await canManageCreator(db, manager, member.id)).toBe(true);
    expect(await canManageCreator(db, peer, member.id)).toBe(false);
    expect(await canManageCreator(db, foreignManager, member.id)).toBe(false);
    expect(await canManageCreator(db, member, manager.id)).toBe(false);
  });
});

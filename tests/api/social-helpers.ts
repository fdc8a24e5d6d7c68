// The cast of the permission matrix (spec §6): a guest, a plain user, the owner model, another model and
// a manager of the owner's studio, each with a real bearer token.
import { hashToken, issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { insertUser, type TestContext } from './helpers';

export type Role = 'guest' | 'user' | 'owner' | 'other' | 'manager';
export const roles: Role[] = ['guest', 'user', 'owner', 'other', 'manager'];

export interface Cast {
  studio: { id: number; name: string; key: string };
  ids: Record<Exclude<Role, 'guest'>, number>;
  headers: Record<Role, Record<string, string>>;
}

export async function bearer(ctx: TestContext, userId: number) {
  return { authorization: `Bearer ${await issueAccessToken(ctx.database.db, userId, false)}` };
}

export async function createCast(ctx: TestContext, studioName = 'Sunset Studio'): Promise<Cast> {
  const key = `key-${Math.random().toString(36).slice(2)}`;
  const [studio] = await ctx.database.db
    .insert(t.studios)
    .values({ name: studioName, keyHash: hashToken(key) })
    .returning();
  if (!studio) throw new Error('studio insert failed');
  const user = await insertUser(ctx, { type: 'user' });
  const owner = await insertUser(ctx, { type: 'model', studioId: studio.id, studioRole: 'member' });
  const other = await insertUser(ctx, { type: 'model' });
  const manager = await insertUser(ctx, { type: 'model', studioId: studio.id, studioRole: 'manager' });
  return {
    studio: { id: studio.id, name: studio.name, key },
    ids: { user: user.id, owner: owner.id, other: other.id, manager: manager.id },
    headers: {
      guest: {},
      user: await bearer(ctx, user.id),
      owner: await bearer(ctx, owner.id),
      other: await bearer(ctx, other.id),
      manager: await bearer(ctx, manager.id),
    },
  };
}

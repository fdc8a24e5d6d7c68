// Spec §6: a creator manages their own profile and videos; studio membership grants the studio's
// managers the same rights over the member. One function answers "may actor act for target?".
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { UserRow } from './tokens';

export async function canManageCreator(db: Db, actor: UserRow, targetUserId: number): Promise<boolean> {
  if (actor.id === targetUserId) return true;
  if (actor.studioRole !== 'manager' || actor.studioId === null) return false;
  const [target] = await db
    .select({ studioId: t.users.studioId })
    .from(t.users)
    .where(eq(t.users.id, targetUserId));
  return target?.studioId === actor.studioId;
}

// Spec §6: a creator manages their own profile and videos; studio membership grants the studio's
// managers the same rights over the member. One rule answers "may actor act for target?": canManageCreator
// for one creator, managedBy as the same rule for a list.
import { type AnyColumn, eq, exists, or, type SQL, sql } from 'drizzle-orm';
import { messages } from '../../src/contract/messages';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { HttpError } from '../http/errors';
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

/** canManageCreator as a list filter: rows whose creator (the `creatorId` column) `actor` may act for. */
export function managedBy(actor: UserRow, creatorId: AnyColumn): SQL {
  const own = eq(creatorId, actor.id);
  if (actor.studioRole !== 'manager' || actor.studioId === null) return own;
  const sameStudio = exists(
    sql`(select 1 from ${t.users} where ${t.users.id} = ${creatorId} and ${t.users.studioId} = ${actor.studioId})`,
  );
  return or(own, sameStudio) as SQL;
}

/** Creator tools (studio, geo-blocking, stats) exist for models and channels only: 403 for plain users. */
export function requireCreator(user: UserRow, message: string = messages.server.forbidden): UserRow {
  if (user.type === 'user') throw new HttpError(403, message);
  return user;
}

// The SQL of accounts as sign-up, sign-in and the mailed links see them: an account by its email, a new
// account, and the email a link confirms. A stored email is compared lowercased; the one asked for comes
// lowercased from the contracts.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { UserRow } from './tokens';

export async function userByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(t.users).where(sql`lower(${t.users.email}) = ${email}`);
  return user;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(sql`lower(${t.users.email}) = ${email}`);
  return taken !== undefined;
}

/** Throws the database's unique violation when the username, slug or email is taken meanwhile. */
export async function insertUser(db: Db, values: typeof t.users.$inferInsert): Promise<UserRow> {
  const [user] = await db.insert(t.users).values(values).returning();
  if (!user) throw new Error('insert returned nothing');
  return user;
}

/** Marks the email verified (keeping the first time it was) and answers the account, if it still exists. */
export async function confirmEmail(db: Db, userId: number): Promise<UserRow | undefined> {
  const [user] = await db
    .update(t.users)
    .set({ emailVerifiedAt: sql`coalesce(${t.users.emailVerifiedAt}, now())` })
    .where(eq(t.users.id, userId))
    .returning();
  return user;
}

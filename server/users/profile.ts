// The own profile's reads and writes: what GET/POST /v1/profile answer and change. Route modules call these
// and keep to the HTTP side (parsing, permissions, messages).
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { OwnProfile } from '../../src/contract';
import type { UserRow } from '../auth/tokens';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { presentLink, userFields } from '../videos/present';
import { linksOf } from './queries';

/** Profiles live at /{username}: a username must never shadow a route of the app or the API. */
export const RESERVED_USERNAMES = new Set([
  'register',
  'login',
  'forgot-password',
  'channels',
  'upload',
  'account',
  'join-studio',
  'videos-rating',
  'support',
  'page',
  'discover',
  'tag',
  'video',
  'v1',
  'media',
  'healthz',
  'readyz',
  'metrics',
  'admin',
]);

/** Free for this account: not reserved, and no other account's username or slug, in any case. */
export async function usernameAvailable(db: Db, username: string, exceptUserId?: number): Promise<boolean> {
  if (RESERVED_USERNAMES.has(username.toLowerCase())) return false;
  const rows = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(
      or(
        sql`lower(${t.users.username}) = lower(${username})`,
        sql`lower(${t.users.slug}) = lower(${username})`,
      ),
    );
  return rows.every((r) => r.id === exceptUserId);
}

export async function userById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(t.users).where(eq(t.users.id, id));
  return row;
}

/** Changes the given columns of one user, and when it changed. */
export async function updateUser(db: Db, id: number, values: Partial<typeof t.users.$inferInsert>) {
  await db
    .update(t.users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(t.users.id, id));
}

/** A new link goes to the end of the list, after the ones the creator already ordered. */
export async function appendLink(db: Db, userId: number, link: { url: string; name: string }) {
  const [last] = await db
    .select({ position: sql<number>`coalesce(max(${t.links.position}), -1)::int` })
    .from(t.links)
    .where(eq(t.links.userId, userId));
  await db.insert(t.links).values({ userId, ...link, position: (last?.position ?? -1) + 1 });
}

/** False when the link is not this user's (or is gone). */
export async function deleteLink(db: Db, userId: number, linkId: number): Promise<boolean> {
  const removed = await db
    .delete(t.links)
    .where(and(eq(t.links.id, linkId), eq(t.links.userId, userId)))
    .returning({ id: t.links.id });
  return removed.length > 0;
}

export async function ownProfile(deps: AppDeps, user: UserRow, resetSession = false): Promise<OwnProfile> {
  const { db } = deps.database;
  const [links, studio, rejection] = await Promise.all([
    linksOf(db, user.id),
    user.studioId === null
      ? Promise.resolve(undefined)
      : db
          .select({ id: t.studios.id, name: t.studios.name })
          .from(t.studios)
          .where(eq(t.studios.id, user.studioId))
          .then((r) => r[0]),
    // The operator's words on the last rejected request: the verification screen says why it was refused.
    user.verificationStatus !== 'rejected'
      ? Promise.resolve(undefined)
      : db
          .select({ reason: t.verificationRequests.rejectReason })
          .from(t.verificationRequests)
          .where(
            and(eq(t.verificationRequests.userId, user.id), eq(t.verificationRequests.status, 'rejected')),
          )
          .orderBy(desc(t.verificationRequests.createdAt))
          .limit(1)
          .then((r) => r[0]),
  ]);
  return {
    ...userFields(deps.storage, user),
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    phone_number: user.phoneNumber,
    country: user.country,
    preference: user.preference,
    studio: studio ? { ...studio, role: user.studioRole } : null,
    links: links.map(presentLink),
    verificationNote: rejection?.reason ?? null,
    passwordResetSession: resetSession,
  };
}

// Bearer and one-time tokens: 32 random bytes shown once to the client, only their SHA-256 stored. A leaked
// database row therefore cannot be presented as a token (the hash is not the token).
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { coalesce } from '../db/coalesce';
import * as t from '../db/schema';

/** A session without "remember me" lasts a day; with it, sixty days (sliding is not needed for a feed app). */
export const ACCESS_TOKEN_TTL_MS = { session: 24 * 3600_000, remember: 60 * 24 * 3600_000 } as const;

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueAccessToken(
  db: Db,
  userId: number,
  rememberMe: boolean,
  /** Until when this session may set a new password without the current one (a reset link's). */
  resetUntil?: Date,
): Promise<string> {
  const token = newToken();
  const ttl = rememberMe ? ACCESS_TOKEN_TTL_MS.remember : ACCESS_TOKEN_TTL_MS.session;
  await db.insert(t.accessTokens).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttl),
    resetUntil: resetUntil ?? null,
  });
  return token;
}

/** Whether the session of `token` came from a password-reset link that is still fresh. */
export async function isResetSession(db: Db, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const [row] = await db
    .select({ id: t.accessTokens.id })
    .from(t.accessTokens)
    .where(and(eq(t.accessTokens.tokenHash, hashToken(token)), gt(t.accessTokens.resetUntil, sql`now()`)));
  return row !== undefined;
}

/**
 * After a password change: the session that made it loses its reset allowance, every other session ends,
 * and every mailed link not used yet (reset, login, verification) stops working, so a link or a token a
 * thief holds from before is worth nothing.
 */
export async function afterPasswordChange(db: Db, userId: number, keep: string | undefined): Promise<void> {
  await revokeOtherAccessTokens(db, userId, keep);
  if (keep) {
    await db
      .update(t.accessTokens)
      .set({ resetUntil: null })
      .where(eq(t.accessTokens.tokenHash, hashToken(keep)));
  }
  await db
    .update(t.userTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(t.userTokens.userId, userId), isNull(t.userTokens.usedAt)));
}

export type UserRow = typeof t.users.$inferSelect;

const tokenReaders = new WeakMap<Db, (hash: string) => Promise<UserRow | undefined>>();

/**
 * The user a bearer token belongs to, or undefined when it is unknown, revoked or expired. Lookups that
 * arrive together share one query (db/coalesce.ts); each is read after its request arrived.
 */
export async function userForAccessToken(db: Db, token: string): Promise<UserRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return undefined;
  let read = tokenReaders.get(db);
  if (!read) {
    read = coalesce(async (hashes: string[]) => {
      const rows = await db
        .select({ hash: t.accessTokens.tokenHash, user: t.users })
        .from(t.accessTokens)
        .innerJoin(t.users, eq(t.users.id, t.accessTokens.userId))
        .where(
          and(
            inArray(t.accessTokens.tokenHash, hashes),
            isNull(t.accessTokens.revokedAt),
            gt(t.accessTokens.expiresAt, sql`now()`),
            // A suspension revokes every session; this keeps a token issued in the same instant out too.
            isNull(t.users.suspendedAt),
          ),
        );
      return new Map(rows.map((r) => [r.hash, r.user]));
    }, undefined);
    tokenReaders.set(db, read);
  }
  return read(hashToken(token));
}

export async function revokeAccessToken(db: Db, token: string): Promise<void> {
  await db
    .update(t.accessTokens)
    .set({ revokedAt: new Date() })
    .where(eq(t.accessTokens.tokenHash, hashToken(token)));
}

/** Ends every session of the user but the one making the request: after a password change, the old one is dead. */
export async function revokeOtherAccessTokens(
  db: Db,
  userId: number,
  keep: string | undefined,
): Promise<void> {
  await db
    .update(t.accessTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(t.accessTokens.userId, userId),
        isNull(t.accessTokens.revokedAt),
        keep === undefined ? undefined : ne(t.accessTokens.tokenHash, hashToken(keep)),
      ),
    );
}

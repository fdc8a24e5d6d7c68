// One-time tokens mailed to users (verification, login link, password reset): random, stored hashed,
// expiring, and consumed atomically so that two clicks on the same link cannot both log in.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { hashToken, newToken } from './tokens';

export type OneTimeKind = (typeof t.userTokens.$inferInsert)['kind'];

export const ONE_TIME_TTL_MS: Record<OneTimeKind, number> = {
  verify_email: 48 * 3600_000,
  login: 3600_000,
  password_reset: 3600_000,
};

export async function issueOneTimeToken(db: Db, userId: number, kind: OneTimeKind): Promise<string> {
  const token = newToken();
  await db.insert(t.userTokens).values({
    userId,
    kind,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ONE_TIME_TTL_MS[kind]),
  });
  return token;
}

/** Marks the token used and returns whose it was; undefined when unknown, used or expired. */
export async function consumeOneTimeToken(
  db: Db,
  token: string,
): Promise<{ userId: number; kind: OneTimeKind } | undefined> {
  const [row] = await db
    .update(t.userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(t.userTokens.tokenHash, hashToken(token)),
        isNull(t.userTokens.usedAt),
        gt(t.userTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: t.userTokens.userId, kind: t.userTokens.kind });
  return row;
}

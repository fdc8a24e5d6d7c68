// Operator accounts and how they sign in: a one-time link from the CLI, a password of their choice, and a
// second factor (TOTP, RFC 6238, through the otpauth library) with recovery codes shown once. Every secret
// handed out is random and stored hashed (server/auth/tokens.ts), but the TOTP key, which the server must read.
//
// The steps are challenges: `invite` (the link) → `setup` (password + key, proven by a first code) → a
// session; later `/v1/login` with the password → `totp` → a session. Sessions last 12 hours at most and end
// after 30 minutes without a call (issue 31).
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { renderSVG } from 'uqr';
import {
  adminMessages as am,
  type Operator,
  type OperatorRole,
  type OperatorSession,
} from '../../src/contract/admin';
import { hashPassword } from '../auth/password';
import { hashToken, newToken } from '../auth/tokens';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';
import { DomainError } from '../util/domain-error';
import { type Actor, appendAudit } from './audit';

export const OPERATOR_SESSION_TTL_MS = 12 * 3600_000;
export const OPERATOR_IDLE_MS = 30 * 60_000;
const INVITE_TTL_MS = 72 * 3600_000;
const SETUP_TTL_MS = 30 * 60_000;
const TOTP_CHALLENGE_TTL_MS = 10 * 60_000;
/** Wrong codes one challenge takes before it is dead (the password must be typed again). */
const CHALLENGE_FAILURES = 5;
const RECOVERY_CODES = 10;
const ISSUER = 'ShortCams';

type OperatorRow = typeof t.operators.$inferSelect;
type ChallengeKind = (typeof t.operatorChallenges.$inferSelect)['kind'];

const presentOperator = (row: OperatorRow): Operator => ({ id: row.id, email: row.email, role: row.role });

const totpOf = (email: string, secret: string) =>
  new OTPAuth.TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });

/**
 * The 30-second step a code belongs to when it is right now (one step of clock drift either way), else
 * undefined. Pure but for the clock, which tests pass in.
 */
export function totpStep(email: string, secret: string, code: string, now = Date.now()): number | undefined {
  const delta = totpOf(email, secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 30_000) + delta;
}

/** Recovery codes read like `k7p2-x9cq-4mzt`: easy to type from paper, 60 bits of randomness. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  let code = '';
  for (let i = 0; i < 12; i++) {
    code += alphabet[(bytes[i] as number) % alphabet.length];
    if (i === 3 || i === 7) code += '-';
  }
  return code;
}
const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

// ---- accounts --------------------------------------------------------------------------------------------

export async function operatorByEmail(db: Db, email: string): Promise<OperatorRow | undefined> {
  const [row] = await db
    .select()
    .from(t.operators)
    .where(and(sql`lower(${t.operators.email}) = lower(${email})`, isNull(t.operators.removedAt)));
  return row;
}

async function issueChallenge(db: Db | Tx, operatorId: number, kind: ChallengeKind, ttlMs: number) {
  const token = newToken();
  await db.insert(t.operatorChallenges).values({
    operatorId,
    kind,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  return token;
}

/**
 * A new operator, or a new link for one who never finished setting up: answers the token of the one-time
 * sign-in link. An email that already signs in (operator or viewer account) is refused.
 */
export async function createOperator(
  db: Db,
  actor: Actor,
  email: string,
  role: OperatorRole,
): Promise<{ operator: Operator; token: string }> {
  const [user] = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(sql`lower(${t.users.email}) = lower(${email})`);
  if (user) throw new DomainError('conflict', am.emailIsUser, 'email');
  const existing = await operatorByEmail(db, email);
  if (existing?.totpSecret) throw new DomainError('conflict', am.operatorExists, 'email');
  return db.transaction(async (tx) => {
    const [row] = existing
      ? await tx.update(t.operators).set({ role }).where(eq(t.operators.id, existing.id)).returning()
      : await tx.insert(t.operators).values({ email, role }).returning();
    if (!row) throw new Error('operator insert returned nothing');
    // An earlier link stops working: only the newest one printed is good.
    await tx
      .update(t.operatorChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(t.operatorChallenges.operatorId, row.id), isNull(t.operatorChallenges.usedAt)));
    const token = await issueChallenge(tx, row.id, 'invite', INVITE_TTL_MS);
    await appendAudit(tx, actor, {
      action: 'operator.create',
      targetType: 'operator',
      targetId: row.id,
      detail: { email: row.email, role },
    });
    return { operator: presentOperator(row), token };
  });
}

export async function listOperators(db: Db) {
  const rows = await db
    .select()
    .from(t.operators)
    .where(isNull(t.operators.removedAt))
    .orderBy(asc(t.operators.id));
  return rows.map((row) => ({
    ...presentOperator(row),
    createdAt: row.createdAt.toISOString(),
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    active: row.totpSecret !== null,
  }));
}

/** Operators that can act for the given id (a removed one cannot), for the audit log's filter too. */
async function liveOperator(db: Db, id: number): Promise<OperatorRow> {
  const [row] = await db
    .select()
    .from(t.operators)
    .where(and(eq(t.operators.id, id), isNull(t.operators.removedAt)));
  if (!row) throw new DomainError('not_found', 'No such operator.');
  return row;
}

async function otherAdmins(db: Db, id: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(t.operators)
    .where(and(eq(t.operators.role, 'admin'), isNull(t.operators.removedAt), ne(t.operators.id, id)));
  return row?.n ?? 0;
}

/** Removes an operator: every session and link of theirs ends now; their lines in the log stay. */
export async function removeOperator(db: Db, actor: Actor, id: number): Promise<void> {
  const row = await liveOperator(db, id);
  if (actor.operatorId === id || (row.role === 'admin' && (await otherAdmins(db, id)) === 0)) {
    throw new DomainError('conflict', am.lastAdmin);
  }
  await db.transaction(async (tx) => {
    const now = new Date();
    await tx.update(t.operators).set({ removedAt: now }).where(eq(t.operators.id, id));
    await tx
      .update(t.operatorSessions)
      .set({ revokedAt: now })
      .where(and(eq(t.operatorSessions.operatorId, id), isNull(t.operatorSessions.revokedAt)));
    await tx
      .update(t.operatorChallenges)
      .set({ usedAt: now })
      .where(and(eq(t.operatorChallenges.operatorId, id), isNull(t.operatorChallenges.usedAt)));
    await appendAudit(tx, actor, {
      action: 'operator.remove',
      targetType: 'operator',
      targetId: id,
      detail: { email: row.email },
    });
  });
}

export async function changeOperatorRole(db: Db, actor: Actor, id: number, role: OperatorRole) {
  const row = await liveOperator(db, id);
  if (row.role === role) return presentOperator(row);
  if (row.role === 'admin' && (actor.operatorId === id || (await otherAdmins(db, id)) === 0)) {
    throw new DomainError('conflict', am.lastAdmin);
  }
  return db.transaction(async (tx) => {
    const [updated] = await tx.update(t.operators).set({ role }).where(eq(t.operators.id, id)).returning();
    await appendAudit(tx, actor, {
      action: 'operator.role',
      targetType: 'operator',
      targetId: id,
      detail: { email: row.email, from: row.role, to: role },
    });
    return presentOperator(updated as OperatorRow);
  });
}

// ---- signing in ------------------------------------------------------------------------------------------

/** A live challenge of the given kinds, with its operator; undefined when unknown, used, expired or removed. */
async function readChallenge(db: Db, token: string, kinds: ChallengeKind[]) {
  const [row] = await db
    .select({ challenge: t.operatorChallenges, operator: t.operators })
    .from(t.operatorChallenges)
    .innerJoin(t.operators, eq(t.operators.id, t.operatorChallenges.operatorId))
    .where(
      and(
        eq(t.operatorChallenges.tokenHash, hashToken(token)),
        isNull(t.operatorChallenges.usedAt),
        gt(t.operatorChallenges.expiresAt, sql`now()`),
        isNull(t.operators.removedAt),
      ),
    );
  return row && kinds.includes(row.challenge.kind) ? row : undefined;
}

const challengeEnded = () => new DomainError('unauthenticated', am.challengeEnded);

/** Marks the challenge used, once: two requests racing with the same one cannot both go on. */
async function spendChallenge(db: Db, id: number): Promise<boolean> {
  const spent = await db
    .update(t.operatorChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(t.operatorChallenges.id, id), isNull(t.operatorChallenges.usedAt)))
    .returning({ id: t.operatorChallenges.id });
  return spent.length > 0;
}

/** A wrong code: counted, and the challenge dies at the limit. */
async function failChallenge(db: Db, id: number, failures: number) {
  await db
    .update(t.operatorChallenges)
    .set({
      failures: sql`${t.operatorChallenges.failures} + 1`,
      ...(failures + 1 >= CHALLENGE_FAILURES ? { usedAt: new Date() } : {}),
    })
    .where(eq(t.operatorChallenges.id, id));
  return new DomainError(
    'unauthenticated',
    failures + 1 >= CHALLENGE_FAILURES ? am.challengeEnded : am.codeWrong,
    'code',
  );
}

/**
 * What the password step of `/v1/login` earns an operator whose password was right (the route checks it,
 * through its hashing queue): the `totp` challenge of the second step.
 */
export function totpChallenge(db: Db, operator: OperatorRow): Promise<string> {
  return issueChallenge(db, operator.id, 'totp', TOTP_CHALLENGE_TTL_MS);
}

/** The sign-in link: its `invite` challenge becomes a `setup` one (30 minutes to choose a password and scan). */
export async function exchangeInvite(db: Db, token: string): Promise<string | undefined> {
  const row = await readChallenge(db, token, ['invite']);
  if (!row || !(await spendChallenge(db, row.challenge.id))) return undefined;
  return issueChallenge(db, row.operator.id, 'setup', SETUP_TTL_MS);
}

/** The key to scan for a `setup` challenge: made once per challenge, so a reload shows the same one. */
export async function startSetup(db: Db, token: string) {
  const row = await readChallenge(db, token, ['setup']);
  if (!row) throw challengeEnded();
  let secret = row.challenge.pendingSecret;
  if (!secret) {
    secret = new OTPAuth.Secret({ size: 20 }).base32;
    await db
      .update(t.operatorChallenges)
      .set({ pendingSecret: secret })
      .where(eq(t.operatorChallenges.id, row.challenge.id));
  }
  const uri = totpOf(row.operator.email, secret).toString();
  return {
    email: row.operator.email,
    secret: secret.replace(/(.{4})/g, '$1 ').trim(),
    uri,
    qr: `data:image/svg+xml;base64,${Buffer.from(renderSVG(uri, { border: 2 })).toString('base64')}`,
  };
}

async function openSession(db: Db, operator: OperatorRow, ip: string | undefined): Promise<OperatorSession> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + OPERATOR_SESSION_TTL_MS);
  await db
    .insert(t.operatorSessions)
    .values({ operatorId: operator.id, tokenHash: hashToken(token), expiresAt });
  await db.update(t.operators).set({ lastSignInAt: new Date() }).where(eq(t.operators.id, operator.id));
  await appendAudit(
    db,
    { operatorId: operator.id, name: operator.email, ip },
    {
      action: 'operator.sign_in',
      targetType: 'operator',
      targetId: operator.id,
    },
  );
  return { access_token: token, operator: presentOperator(operator), expires_at: expiresAt.toISOString() };
}

/** Setup done: the password, the proven key and fresh recovery codes (shown this once), then a session. */
export async function finishSetup(
  db: Db,
  input: { challenge: string; password: string; code: string },
  ip: string | undefined,
) {
  const row = await readChallenge(db, input.challenge, ['setup']);
  if (!row?.challenge.pendingSecret) throw challengeEnded();
  const step = totpStep(row.operator.email, row.challenge.pendingSecret, input.code);
  if (step === undefined) throw await failChallenge(db, row.challenge.id, row.challenge.failures);
  if (!(await spendChallenge(db, row.challenge.id))) throw challengeEnded();
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const [operator] = await db
    .update(t.operators)
    .set({
      passwordHash: await hashPassword(input.password),
      totpSecret: row.challenge.pendingSecret,
      totpLastStep: step,
      recoveryCodes: codes.map(hashCode),
    })
    .where(eq(t.operators.id, row.operator.id))
    .returning();
  if (!operator) throw challengeEnded();
  await appendAudit(
    db,
    { operatorId: operator.id, name: operator.email, ip },
    {
      action: 'operator.setup',
      targetType: 'operator',
      targetId: operator.id,
    },
  );
  return { ...(await openSession(db, operator, ip)), recovery_codes: codes };
}

/** The second step of a sign-in: a code of the key (each accepted once) or an unused recovery code. */
export async function finishSignIn(
  db: Db,
  input: { challenge: string; code: string },
  ip: string | undefined,
): Promise<OperatorSession> {
  const row = await readChallenge(db, input.challenge, ['totp']);
  if (!row?.operator.totpSecret) throw challengeEnded();
  const { operator, challenge } = row;
  let update: Partial<typeof t.operators.$inferInsert> | undefined;
  if (/^\d{6}$/.test(input.code)) {
    const step = totpStep(operator.email, operator.totpSecret as string, input.code);
    // A code already used (seen over a shoulder, or replayed) is as wrong as a wrong one.
    if (step !== undefined && step > (operator.totpLastStep ?? 0)) update = { totpLastStep: step };
  } else {
    const hashed = hashCode(input.code);
    if (operator.recoveryCodes.includes(hashed)) {
      update = { recoveryCodes: operator.recoveryCodes.filter((c) => c !== hashed) };
    }
  }
  if (!update) throw await failChallenge(db, challenge.id, challenge.failures);
  if (!(await spendChallenge(db, challenge.id))) throw challengeEnded();
  await db.update(t.operators).set(update).where(eq(t.operators.id, operator.id));
  return openSession(db, operator, ip);
}

// ---- sessions --------------------------------------------------------------------------------------------

/**
 * The operator a console token belongs to, or undefined when it is unknown, revoked, past its 12 hours,
 * idle for 30 minutes or its operator removed. A good token's idle clock starts again.
 */
export async function operatorForSession(db: Db, token: string): Promise<OperatorRow | undefined> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return undefined;
  const [row] = await db
    .update(t.operatorSessions)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(t.operatorSessions.tokenHash, hashToken(token)),
        isNull(t.operatorSessions.revokedAt),
        gt(t.operatorSessions.expiresAt, sql`now()`),
        gt(t.operatorSessions.lastUsedAt, sql`now() - make_interval(secs => ${OPERATOR_IDLE_MS / 1000})`),
      ),
    )
    .returning({ operatorId: t.operatorSessions.operatorId });
  if (!row) return undefined;
  const [operator] = await db
    .select()
    .from(t.operators)
    .where(and(eq(t.operators.id, row.operatorId), isNull(t.operators.removedAt)));
  return operator;
}

export async function endSession(db: Db, token: string): Promise<void> {
  await db
    .update(t.operatorSessions)
    .set({ revokedAt: new Date() })
    .where(eq(t.operatorSessions.tokenHash, hashToken(token)));
}

// Idempotency-Key support for the posts the client's outbox replays (likes, views, events, clicks,
// reports): the first request with a key does the work and stores its answer; every replay with the same
// key from the same caller gets that answer back and changes nothing. Keys are the client's to choose, so
// they are only unique per caller: another viewer's key never replays someone else's answer.
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../src/contract/messages';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { HttpError } from './errors';
import { callerKey, viewerOf } from './viewer';

const KEY = /^[A-Za-z0-9_-]{8,128}$/;

export interface Outcome {
  status: number;
  body: unknown;
}

/** How long an answer is kept: far beyond the outbox's retries, which back off to 5 minutes. */
export const IDEMPOTENCY_TTL_DAYS = 7;
const PURGE_EVERY_MS = 3600_000;
const nextPurge = new WeakMap<Db, number>();

/**
 * Drops expired answers, at most hourly per process and database. Done on the request path rather than by a
 * scheduled job so that it needs no worker and runs wherever keys are written.
 */
async function purgeExpired(db: Db, request: FastifyRequest) {
  const now = Date.now();
  if ((nextPurge.get(db) ?? 0) > now) return;
  nextPurge.set(db, now + PURGE_EVERY_MS);
  await db
    .delete(t.idempotencyKeys)
    .where(sql`${t.idempotencyKeys.createdAt} < now() - make_interval(days => ${IDEMPOTENCY_TTL_DAYS})`)
    .catch((err: Error) => request.log.warn({ err }, 'purging idempotency keys failed'));
}

/** JSON with its keys in one order, so that the same body sent twice hashes the same whatever its key order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

/**
 * What makes two requests the same request: the call and its body. The IETF draft on Idempotency-Key
 * (httpapi-idempotency-key-header) asks a server to refuse a key reused with another payload, since the
 * stored answer would not be the answer to it.
 */
const requestHash = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n`)
    .update(JSON.stringify(canonical(request.body ?? null)) ?? '')
    .digest('base64url');

function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  return Array.isArray(raw) ? raw[0] : raw;
}

const rowOf = (scope: string, caller: string, key: string) =>
  and(
    eq(t.idempotencyKeys.scope, scope),
    eq(t.idempotencyKeys.caller, caller),
    eq(t.idempotencyKeys.key, key),
  );

/** Whether the request replays one whose answer is stored (a replay changes nothing, so limits skip it). */
export async function isReplay(deps: AppDeps, request: FastifyRequest, scope: string): Promise<boolean> {
  const key = keyOf(request);
  if (key === undefined || !KEY.test(key)) return false;
  const caller = callerKey(await viewerOf(request, deps), request);
  const [stored] = await deps.database.db
    .select({ statusCode: t.idempotencyKeys.statusCode })
    .from(t.idempotencyKeys)
    .where(rowOf(scope, caller, key));
  // 0 marks a first request still at work: until it commits, this one is not known to be a replay.
  return stored !== undefined && stored.statusCode !== 0;
}

/** A post's Idempotency-Key, for writers that claim keys themselves (likes and views, in batches). */
export interface IdempotencyClaim {
  scope: string;
  caller: string;
  key: string;
  /** requestHash of the post: a key reused with another body is refused. */
  hash: string;
}

/** The post's claim, or undefined without the header; 400 for a malformed key. */
export async function idempotencyClaim(
  deps: AppDeps,
  request: FastifyRequest,
  scope: string,
): Promise<IdempotencyClaim | undefined> {
  const key = keyOf(request);
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw new HttpError(400, 'Invalid Idempotency-Key header.');
  const caller = callerKey(await viewerOf(request, deps), request);
  await purgeExpired(deps.database.db, request);
  return { scope, caller, key, hash: requestHash(request) };
}

/** Sends an answer written with a claim, marking replays as `idempotent` does. */
export function sendOutcome(reply: FastifyReply, outcome: Outcome & { replayed: boolean }) {
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.status(outcome.status).send(outcome.body);
}

/**
 * Runs `work` once per (scope, caller, Idempotency-Key). Without the header it simply runs. The key row is
 * inserted first in the same transaction, so two concurrent replays cannot both do the work: the second
 * waits for the first to commit, then finds its stored answer.
 */
export async function idempotent(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  work: (tx: Tx | Db) => Promise<Outcome>,
): Promise<FastifyReply> {
  const { db } = deps.database;
  const key = keyOf(request);
  if (key === undefined) {
    const outcome = await work(db);
    return reply.status(outcome.status).send(outcome.body);
  }
  if (!KEY.test(key)) throw new HttpError(400, 'Invalid Idempotency-Key header.');
  const caller = callerKey(await viewerOf(request, deps), request);
  await purgeExpired(db, request);
  const row = rowOf(scope, caller, key);
  const hash = requestHash(request);
  const outcome = await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(t.idempotencyKeys)
      .values({ scope, caller, key, statusCode: 0, body: null, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: t.idempotencyKeys.key });
    if (claimed.length === 0) {
      const [stored] = await tx.select().from(t.idempotencyKeys).where(row);
      // Keys stored before the hash was (null) replay as they always did.
      if (stored?.requestHash && stored.requestHash !== hash) {
        throw new HttpError(422, messages.server.idempotencyKeyReused, {
          'Idempotency-Key': [messages.server.idempotencyKeyReused],
        });
      }
      return { status: stored?.statusCode || 200, body: stored?.body ?? null, replayed: true };
    }
    const result = await work(tx);
    await tx
      .update(t.idempotencyKeys)
      .set({ statusCode: result.status, body: result.body as object })
      .where(row);
    return { ...result, replayed: false };
  });
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.status(outcome.status).send(outcome.body);
}

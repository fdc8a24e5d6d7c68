// Per-IP limits on the routes that attract abuse (credential stuffing, mail bombing). The store is in
// memory, which is right for one node; with several API nodes it moves to Redis (the plugin's `redis`
// option) so that the count is shared.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { reportMessages } from '../../src/contract/interactions';
import { messages } from '../../src/contract/messages';
import type { AppDeps } from '../deps';
import { HttpError } from './errors';
import { isReplay } from './idempotency';

export async function installRateLimit(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new HttpError(429, messages.auth.tooManyAttempts),
  });
}

/** Route config for an auth-like route: login, register, password reset, resend. */
export const authLimit = (deps: AppDeps) => ({
  rateLimit: { max: deps.config.authRateLimit, timeWindow: deps.config.rateLimitWindowMs },
});

export const contactLimit = (deps: AppDeps) => ({
  rateLimit: {
    max: deps.config.contactRateLimit,
    timeWindow: deps.config.rateLimitWindowMs,
    errorResponseBuilder: () => new HttpError(429, messages.contact.tooMany),
  },
});

/**
 * Reports reach a human moderator: a flood from one address is abuse, not feedback. An outbox replay of a
 * report already taken (Idempotency-Key of `scope`) is not counted and gets its stored answer; telling one
 * needs the caller's guest_id, so this limit runs once the body is parsed.
 */
export const reportLimit = (deps: AppDeps, scope: string) => ({
  rateLimit: {
    max: deps.config.reportRateLimit,
    timeWindow: deps.config.rateLimitWindowMs,
    errorResponseBuilder: () => new HttpError(429, reportMessages.tooMany),
    hook: 'preHandler' as const,
    allowList: (request: FastifyRequest) => isReplay(deps, request, scope),
  },
});

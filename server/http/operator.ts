// Who is calling the console's API: an operator with a live session (server/admin/operators.ts), checked on
// every /v1/admin call, with the role the call needs. A viewer's or creator's token is known and refused
// (403); no token, or an ended session, is a 401 that sends the console back to its sign-in.
import type { FastifyRequest } from 'fastify';
import { adminMessages, type OperatorRole } from '../../src/contract/admin';
import type { Actor } from '../admin/audit';
import { operatorForSession } from '../admin/operators';
import { userForAccessToken } from '../auth/tokens';
import type { AppDeps } from '../deps';
import { HttpError } from './errors';
import { bearerOf } from './viewer';

declare module 'fastify' {
  interface FastifyRequest {
    operatorPromise?: Promise<Actor & { role: OperatorRole }>;
  }
}

async function resolve(request: FastifyRequest, deps: AppDeps): Promise<Actor & { role: OperatorRole }> {
  const token = bearerOf(request);
  if (!token) throw new HttpError(401, adminMessages.sessionEnded);
  const operator = await operatorForSession(deps.database.db, token);
  if (operator) return { operatorId: operator.id, name: operator.email, ip: request.ip, role: operator.role };
  if (await userForAccessToken(deps.database.db, token)) throw new HttpError(403, adminMessages.notOperator);
  throw new HttpError(401, adminMessages.sessionEnded);
}

/** The operator behind this request (once per request), who must hold `role` (an admin holds both). */
export async function requireOperator(
  request: FastifyRequest,
  deps: AppDeps,
  role: OperatorRole = 'moderator',
): Promise<Actor & { role: OperatorRole }> {
  request.operatorPromise ??= resolve(request, deps);
  const operator = await request.operatorPromise;
  if (role === 'admin' && operator.role !== 'admin') throw new HttpError(403, adminMessages.adminOnly);
  return operator;
}

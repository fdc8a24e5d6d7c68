import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { joinStudioSchema, socialMessages } from '../../src/contract';
import { requireCreator } from '../auth/permissions';
import { hashToken } from '../auth/tokens';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { HttpError } from '../http/errors';
import { requireUser } from '../http/viewer';

const invalidKey = () => new HttpError(422, socialMessages.invalidKey, { key: [socialMessages.invalidKey] });

export default async function studioRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  app.get('/v1/profile/studio', async (request) => {
    const user = await requireUser(request, deps);
    if (user.studioId === null) throw new HttpError(404, socialMessages.notInStudio);
    const [studio] = await db
      .select({ name: t.studios.name })
      .from(t.studios)
      .where(eq(t.studios.id, user.studioId));
    if (!studio) throw new HttpError(404, socialMessages.notInStudio);
    return { name: studio.name };
  });

  // Every failure reads 'Invalid key' (the client shows only that), so a guesser learns nothing about
  // which keys exist. Joining another studio moves the member; a manager keeps their role only by the
  // operator's hand, so managers cannot switch studios here.
  app.post('/v1/profile/join-studio', async (request) => {
    const user = requireCreator(await requireUser(request, deps), socialMessages.invalidKey);
    const body = request.body as { key?: unknown } | undefined;
    if (!v.is(joinStudioSchema, body ?? {})) throw invalidKey();
    const key = String(body?.key).trim();
    if (key.length > 256) throw invalidKey();
    const [studio] = await db
      .select({ id: t.studios.id, name: t.studios.name })
      .from(t.studios)
      .where(eq(t.studios.keyHash, hashToken(key)));
    if (!studio) throw new HttpError(404, socialMessages.invalidKey);
    if (user.studioRole === 'manager' && user.studioId !== studio.id) {
      throw new HttpError(403, socialMessages.invalidKey);
    }
    if (user.studioId !== studio.id) {
      await db
        .update(t.users)
        .set({ studioId: studio.id, studioRole: 'member', updatedAt: new Date() })
        .where(eq(t.users.id, user.id));
    }
    return { name: studio.name };
  });

  // Leaving is idempotent (200 when not in a studio) so an offline replay cannot fail. A manager would
  // orphan the studio's members, so only the operator removes one (403).
  app.post('/v1/profile/leave-studio', async (request) => {
    const user = await requireUser(request, deps);
    if (user.studioRole === 'manager' && user.studioId !== null) {
      throw new HttpError(403, socialMessages.managerCannotLeave);
    }
    if (user.studioId !== null) {
      await db
        .update(t.users)
        .set({ studioId: null, studioRole: null, updatedAt: new Date() })
        .where(eq(t.users.id, user.id));
    }
    return { status: 'ok' };
  });
}

import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  joinStudioSchema,
  socialMessages,
  studioResponseSchema,
  trackingResponseSchema,
} from '../../src/contract';
import { requireCreator } from '../auth/permissions';
import type { AppDeps } from '../deps';
import { ERR, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { requireUser } from '../http/viewer';
import { studioByKey, studioName } from '../studio/queries';
import { updateUser } from '../users/profile';

const invalidKey = () => new HttpError(422, socialMessages.invalidKey, { key: [socialMessages.invalidKey] });

export default async function studioRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const studioDoc: Operation = {
    summary: 'The studio the creator belongs to',
    auth: 'required',
    responses: {
      200: { description: 'The studio.', schema: studioResponseSchema },
      401: unauthenticated,
      404: { description: 'Not in a studio.', ...ERR },
    },
  };
  app.get('/v1/profile/studio', { config: { doc: studioDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    if (user.studioId === null) throw new HttpError(404, socialMessages.notInStudio);
    const name = await studioName(db, user.studioId);
    if (name === undefined) throw new HttpError(404, socialMessages.notInStudio);
    return { name };
  });

  const joinDoc: Operation = {
    summary: 'Join a studio with the key its operator handed out',
    auth: 'required',
    body: joinStudioSchema,
    description:
      'Every failure says `Invalid key` (422 empty or malformed, 404 unknown, 403 plain users and managers ' +
      'of another studio). Joining makes the creator a member: the studio’s managers may then edit the ' +
      'profile and manage the videos. A member of another studio moves to this one.',
    responses: {
      200: { description: 'Joined (or already a member).', schema: studioResponseSchema },
      401: unauthenticated,
      403: { description: 'Invalid key', ...ERR },
      404: { description: 'Invalid key', ...ERR },
      422: { description: 'Invalid key', ...ERR },
    },
  };
  // Every failure reads 'Invalid key' (the client shows only that), so a guesser learns nothing about
  // which keys exist. Joining another studio moves the member; a manager keeps their role only by the
  // operator's hand, so managers cannot switch studios here.
  app.post('/v1/profile/join-studio', { config: { doc: joinDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps), socialMessages.invalidKey);
    const body = request.body as { key?: unknown } | undefined;
    if (!v.is(joinStudioSchema, body ?? {})) throw invalidKey();
    const key = String(body?.key).trim();
    if (key.length > 256) throw invalidKey();
    const studio = await studioByKey(db, key);
    if (!studio) throw new HttpError(404, socialMessages.invalidKey);
    if (user.studioRole === 'manager' && user.studioId !== studio.id) {
      throw new HttpError(403, socialMessages.invalidKey);
    }
    if (user.studioId !== studio.id) {
      await updateUser(db, user.id, { studioId: studio.id, studioRole: 'member' });
    }
    return { name: studio.name };
  });

  const leaveDoc: Operation = {
    summary: 'Leave the studio',
    auth: 'required',
    description:
      'Idempotent: 200 also when not in a studio. A manager cannot leave through the API (403); the operator removes them.',
    responses: {
      200: { description: '`{status: "ok"}`.', schema: trackingResponseSchema },
      401: unauthenticated,
      403: { description: 'Managers cannot leave.', ...ERR },
    },
  };
  // Leaving is idempotent (200 when not in a studio) so an offline replay cannot fail. A manager would
  // orphan the studio's members, so only the operator removes one (403).
  app.post('/v1/profile/leave-studio', { config: { doc: leaveDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    if (user.studioRole === 'manager' && user.studioId !== null) {
      throw new HttpError(403, socialMessages.managerCannotLeave);
    }
    if (user.studioId !== null) {
      await updateUser(db, user.id, { studioId: null, studioRole: null });
    }
    return { status: 'ok' };
  });
}

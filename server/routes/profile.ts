// The own profile (spec §7 GET/POST /v1/profile). POST takes one of several forms, told apart by the
// fields present; a studio manager may send any of them with `user_id` to edit a member (spec §6).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  formatBytes,
  idOf,
  messages,
  ownProfileResponseSchema,
  PROFILE_IMAGE_BOXES,
  profileColorSchema,
  profileDetailsSchema,
  profileGenderSchema,
  profileLinksSchema,
  profilePasswordSchema,
  profilePreferenceSchema,
  profileUpdateResponseSchema,
} from '../../src/contract';
import { hashPassword, verifyPassword } from '../auth/password';
import { canManageCreator } from '../auth/permissions';
import { afterPasswordChange, isResetSession, type UserRow } from '../auth/tokens';
import type { AppDeps } from '../deps';
import { ERR, invalid, multipartForm, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { installImageMultipart, readImageForm } from '../http/multipart';
import { parse } from '../http/validate';
import { bearerOf, requireUser } from '../http/viewer';
import { IMAGE_MAX_BYTES, reencodeImage, sniffImage } from '../media/images';
import {
  appendLink,
  deleteLink,
  ownProfile,
  updateUser,
  userById,
  usernameAvailable,
} from '../users/profile';

const p = messages.profile;
const forbidden = () => new HttpError(403, messages.server.forbidden);

export const IMAGE_BOXES = {
  profile_photo: {
    ...PROFILE_IMAGE_BOXES.profile_photo,
    crop: true,
    column: 'avatarPath',
    stem: 'avatar',
    done: p.photoUpdated,
  },
  profile_cover: {
    ...PROFILE_IMAGE_BOXES.profile_cover,
    crop: true,
    column: 'coverPath',
    stem: 'cover',
    done: p.coverUpdated,
  },
} as const;

/** The user the request acts on: the caller, or (with user_id) a member the caller may manage. */
async function targetOf(deps: AppDeps, actor: UserRow, userId: number | undefined): Promise<UserRow> {
  if (userId === undefined || userId === actor.id) return actor;
  if (!(await canManageCreator(deps.database.db, actor, userId))) throw forbidden();
  const target = await userById(deps.database.db, userId);
  if (!target) throw forbidden();
  return target;
}

const has = (body: Record<string, unknown>, key: string) => body[key] !== undefined;

/** A readable default name for a link: its host without "www.". */
const linkName = (url: string) => {
  try {
    return new URL(/^https?:\/\//i.test(url) ? url : `https://${url}`).hostname.replace(/^www\./, '');
  } catch {
    return url.slice(0, 80);
  }
};

export default async function profileRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const ownDoc: Operation = {
    summary: 'The own profile',
    auth: 'required',
    description:
      'With what only its owner sees: email and whether it is verified, verification, studio and role.',
    responses: {
      200: { description: 'The profile.', schema: ownProfileResponseSchema },
      401: unauthenticated,
    },
  };
  app.get('/v1/profile', { config: { doc: ownDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    return { data: await ownProfile(deps, user, await isResetSession(db, bearerOf(request))) };
  });

  const reload = async (id: number) => {
    const row = await userById(db, id);
    if (!row) throw forbidden();
    return row;
  };

  const answer = async (message: string, id: number) => ({
    message,
    user: await ownProfile(deps, await reload(id)),
  });

  async function updateJson(request: FastifyRequest, actor: UserRow) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new HttpError(422, p.nothingToUpdate);

    if (has(body, 'links')) {
      const input = parse(profileLinksSchema, body);
      const target = await targetOf(deps, actor, input.user_id);
      if (target.type === 'user') throw forbidden();
      let message: string = p.linkAdded;
      for (const action of input.links) {
        if (action.action === 'add') {
          const url = /^https?:\/\//i.test(action.url) ? action.url : `https://${action.url}`;
          await appendLink(db, target.id, { url, name: action.name || linkName(url) });
        } else {
          if (!(await deleteLink(db, target.id, action.id))) throw new HttpError(404, p.linkNotFound);
          message = p.linkDeleted;
        }
      }
      return answer(message, target.id);
    }

    if (has(body, 'password') || has(body, 'password_confirmation')) {
      const input = parse(profilePasswordSchema, body);
      const target = await targetOf(deps, actor, input.user_id);
      // A manager may run a member's profile but never take over the login.
      if (target.id !== actor.id) throw forbidden();
      // The current password first: with a stolen token alone, the change would be a takeover (it ends every
      // other session). A fresh reset link's session is the exception: it is how a forgotten one is replaced.
      const token = bearerOf(request);
      if (!(await isResetSession(db, token))) {
        const current = input.current_password ?? '';
        if (!current)
          throw new HttpError(422, p.currentPasswordRequired, {
            current_password: [p.currentPasswordRequired],
          });
        if (!(await verifyPassword(current, actor.passwordHash)))
          throw new HttpError(422, p.currentPasswordWrong, { current_password: [p.currentPasswordWrong] });
      }
      await updateUser(db, target.id, { passwordHash: await hashPassword(input.password) });
      await afterPasswordChange(db, target.id, token);
      return answer(p.passwordChanged, target.id);
    }

    if (has(body, 'color')) {
      const input = parse(profileColorSchema, body);
      const target = await targetOf(deps, actor, input.user_id);
      if (target.type !== 'channel') throw forbidden();
      await updateUser(db, target.id, { color: input.color });
      return answer(p.photoUpdated, target.id);
    }

    if (has(body, 'preference')) {
      const input = parse(profilePreferenceSchema, body);
      const target = await targetOf(deps, actor, input.user_id);
      // What the account likes to watch is the viewer's own business, never a studio's.
      if (target.id !== actor.id) throw forbidden();
      await updateUser(db, target.id, { preference: input.preference });
      return answer(p.preferenceSaved, target.id);
    }

    const detailKeys = ['name', 'username', 'description', 'phone_number'];
    if (has(body, 'gender') && !detailKeys.some((k) => has(body, k))) {
      const input = parse(profileGenderSchema, body);
      const target = await targetOf(deps, actor, input.user_id);
      await updateUser(db, target.id, { gender: input.gender });
      return answer(p.genderChanged, target.id);
    }

    if (!detailKeys.some((k) => has(body, k))) throw new HttpError(422, p.nothingToUpdate);
    const input = parse(profileDetailsSchema, body);
    const target = await targetOf(deps, actor, input.user_id);
    const creatorOnly =
      input.username !== undefined || input.description !== undefined || input.phone_number !== undefined;
    if (creatorOnly && target.type === 'user') throw forbidden();
    if (input.username !== undefined && !(await usernameAvailable(db, input.username, target.id))) {
      throw new HttpError(422, messages.auth.usernameTaken, { username: [messages.auth.usernameTaken] });
    }
    await updateUser(db, target.id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.username !== undefined && { username: input.username, slug: input.username.toLowerCase() }),
      ...(input.description !== undefined && { description: input.description || null }),
      ...(input.phone_number !== undefined && { phoneNumber: input.phone_number }),
    });
    return answer(p.detailsUpdated, target.id);
  }

  async function updateImages(request: FastifyRequest, actor: UserRow) {
    const form = await readImageForm(request);
    const rawId = form.fields.user_id;
    const targetId = rawId === undefined ? undefined : idOf(rawId);
    if (rawId !== undefined && targetId === undefined) throw forbidden();
    const target = await targetOf(deps, actor, targetId);
    // Spec §6: avatar and cover belong to creators.
    if (target.type === 'user') throw forbidden();
    const fields = (Object.keys(IMAGE_BOXES) as (keyof typeof IMAGE_BOXES)[]).filter((k) => form.files[k]);
    if (fields.length === 0) throw new HttpError(422, p.imageFailed, { profile_photo: [p.imageFailed] });
    let message: string = p.photoUpdated;
    for (const field of fields) {
      const bytes = form.files[field] as Buffer;
      const format = sniffImage(bytes);
      if (!format) throw new HttpError(422, p.imageType, { [field]: [p.imageType] });
      const box = IMAGE_BOXES[field];
      // A new name per upload, so caches holding the old picture never serve it for the new one.
      const relative = path.join(
        'users',
        String(target.id),
        `${box.stem}-${randomBytes(6).toString('hex')}.jpg`,
      );
      try {
        await reencodeImage(bytes, format, box, (file) => deps.storage.putFile(relative, file));
      } catch {
        throw new HttpError(422, p.imageFailed, { [field]: [p.imageFailed] });
      }
      const previous = target[box.column];
      await updateUser(db, target.id, { [box.column]: relative });
      if (previous) await deps.storage.remove(previous).catch(() => undefined);
      message = box.done;
    }
    return answer(message, target.id);
  }

  await app.register(async (scope) => {
    await installImageMultipart(scope);
    const box = (b: { width: number; height: number }) => `${b.width}×${b.height}`;
    const updateDoc: Operation = {
      summary: 'Change the own profile, or a studio member’s',
      auth: 'required',
      body: v.union([
        profileLinksSchema,
        profilePasswordSchema,
        profileColorSchema,
        profilePreferenceSchema,
        profileGenderSchema,
        profileDetailsSchema,
      ]),
      rawBody: {
        contentType: 'multipart/form-data',
        schema: multipartForm(
          {
            profile_photo: `Avatar, cropped to ${box(IMAGE_BOXES.profile_photo)}.`,
            profile_cover: `Cover, cropped to ${box(IMAGE_BOXES.profile_cover)}.`,
          },
          { fields: v.object({ user_id: v.optional(v.string()) }), filesRequired: false },
        ),
      },
      description:
        'One form per request, told apart by its fields, in this order: `links` (add or delete, creators ' +
        'only; a URL without scheme gets https://, a link without name its host); `password` with ' +
        '`password_confirmation` (own account only, never a member’s); `color` (channels only); ' +
        '`preference` (the genders the account watches: `m`, `t` or `m,t`, any order accepted, stored in ' +
        'that order; own account only, any type); `gender` alone; else any of `name`, `username`, `description`, `phone_number` (all but `name` for creators ' +
        `only; a taken username is 422 \`${messages.auth.usernameTaken}\`). Nothing of these: 422 ` +
        `\`${p.nothingToUpdate}\`. A multipart form with \`profile_photo\` and/or \`profile_cover\` ` +
        `changes the images (creators only; PNG or JPEG up to ${formatBytes(IMAGE_MAX_BYTES)}, re-encoded ` +
        'to JPEG without metadata). A studio manager sends any form with `user_id` to edit a member; any ' +
        'other `user_id` is 403. The answer is the profile after the change.',
      responses: {
        200: { description: '`{message, user}`.', schema: profileUpdateResponseSchema },
        400: { description: 'A form the parser cannot read.', ...ERR },
        401: unauthenticated,
        403: { description: 'Not allowed for this account type or this target (see above).', ...ERR },
        404: { description: `Deleting a link that is not the target’s: \`${p.linkNotFound}\`.`, ...ERR },
        422: invalid,
      },
    };
    scope.post('/v1/profile', { config: { doc: updateDoc } }, async (request) => {
      const actor = await requireUser(request, deps);
      return request.isMultipart() ? updateImages(request, actor) : updateJson(request, actor);
    });
  });
}

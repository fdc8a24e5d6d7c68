// POST /v1/profile/verification: identity documents of a creator. They are personal data of the most
// sensitive kind, so they live under DATA_DIR/private (never under the served media root), re-encoded
// like any upload so that metadata (GPS of the phone that took them) is not kept either.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import {
  ageOn,
  MIN_AGE,
  messages,
  verificationImageFields,
  verificationSchema,
  verificationStatusSchema,
} from '../../src/contract';
import type { AppDeps } from '../deps';
import { requireKnownCountry } from '../geo/reference';
import { ERR, invalid, multipartForm, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { installImageMultipart, readImageForm } from '../http/multipart';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';
import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, ImageSizeError, reencodeImage, sniffImage } from '../media/images';
import { submitVerification } from '../users/verification';

const m = messages.verification;

/** Enough resolution to read an ID card, bounded so a 50-megapixel photo does not fill the disk. */
const DOCUMENT_BOX = { width: 2000, height: 2000, crop: false } as const;

export default async function verificationRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  await app.register(async (scope) => {
    await installImageMultipart(scope);
    const verificationDoc: Operation = {
      summary: 'Send identity documents for verification',
      auth: 'required',
      rawBody: {
        contentType: 'multipart/form-data',
        schema: multipartForm(Object.fromEntries(verificationImageFields.map((f) => [f, 'PNG or JPEG.'])), {
          fields: verificationSchema,
        }),
      },
      description:
        `Models and channels, at least ${MIN_AGE} years old by \`date_of_birth\`. The images are re-encoded ` +
        'without metadata and kept where no URL reaches them; an image over ' +
        `${IMAGE_MAX_SIDE} px a side or ${IMAGE_MAX_PIXELS / 1e6} megapixels is refused (422) before it is decoded. ` +
        'The verification is then `pending` until the ' +
        'operator approves or rejects it; after a rejection the creator may send again. Uploading videos ' +
        'needs an approved verification.',
      responses: {
        201: {
          description: `\`{message: '${m.sent}', status: 'pending'}\``,
          schema: v.object({ message: v.string(), status: verificationStatusSchema }),
        },
        400: { description: 'A form the parser cannot read.', ...ERR },
        401: unauthenticated,
        403: { description: 'Plain users (type user).', ...ERR },
        409: { description: `Already pending (\`${m.pending}\`) or approved.`, ...ERR },
        415: { description: 'Not a multipart form.', ...ERR },
        422: invalid,
      },
    };
    scope.post('/v1/profile/verification', { config: { doc: verificationDoc } }, async (request, reply) => {
      const user = await requireUser(request, deps);
      if (user.type === 'user') throw new HttpError(403, messages.server.forbidden);
      if (user.verificationStatus === 'pending') throw new HttpError(409, m.pending);
      if (user.verificationStatus === 'approved') throw new HttpError(409, m.alreadyApproved);
      if (!request.isMultipart()) throw new HttpError(415, 'Unsupported content type.');

      const form = await readImageForm(request);
      const presence = Object.fromEntries(
        verificationImageFields.map((f) => [f, form.files[f] ? 'file' : '']),
      );
      const input = parse(verificationSchema, { ...form.fields, ...presence });
      requireKnownCountry(input.country, m.country);

      const formats = verificationImageFields.map((field) => {
        const format = sniffImage(form.files[field] as Buffer);
        if (!format)
          throw new HttpError(422, messages.profile.imageType, { [field]: [messages.profile.imageType] });
        return format;
      });

      const relativeDir = path.posix.join('verification', String(user.id), randomBytes(8).toString('hex'));
      const stored: Record<string, string> = {};
      try {
        for (const [i, field] of verificationImageFields.entries()) {
          const name = `${field}.jpg`;
          try {
            await reencodeImage(
              form.files[field] as Buffer,
              formats[i] as 'png' | 'jpeg',
              DOCUMENT_BOX,
              (file) => deps.storage.putPrivate(path.posix.join(relativeDir, name), file),
            );
          } catch (err) {
            const message =
              err instanceof ImageSizeError && err.reason === 'too-large'
                ? messages.profile.imageDimensions
                : messages.profile.imageFailed;
            throw new HttpError(422, message, { [field]: [message] });
          }
          stored[field] = path.posix.join(relativeDir, name);
        }
        await submitVerification(db, user.id, {
          legalName: input.legal_name,
          stageName: input.stage_name,
          address: input.address,
          country: input.country,
          gender: input.gender,
          dateOfBirth: input.date_of_birth,
          age: ageOn(input.date_of_birth),
          identification: input.identification as 'driver' | 'passport' | 'idcard',
          identificationId: input.identification_id,
          frontPicturePath: stored.front_picture_id as string,
          backPicturePath: stored.back_picture_id as string,
          facePicturePath: stored.face_picture_id as string,
          signaturePath: stored.signature as string,
        });
      } catch (err) {
        // Half a set of ID photos is useless and still personal data: do not keep it.
        await deps.storage.removePrivate(relativeDir);
        throw err;
      }
      return reply.status(201).send({ message: m.sent, status: 'pending' });
    });
  });
}

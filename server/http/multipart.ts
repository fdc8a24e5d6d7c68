// Small multipart forms (profile images, verification): fields and a few images read into memory, each
// file bounded so an oversized one is refused while it streams in rather than after it is stored.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../src/contract/messages';
import { IMAGE_MAX_BYTES } from '../media/images';
import { HttpError } from './errors';

/** Registers the parser in the caller's encapsulated scope only, so other route modules keep their own. */
export async function installImageMultipart(scope: FastifyInstance) {
  await scope.register(multipart, {
    limits: { fileSize: IMAGE_MAX_BYTES, files: 6, fields: 40, fieldSize: 10_000, parts: 50 },
  });
}

export interface ImageForm {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

export async function readImageForm(request: FastifyRequest): Promise<ImageForm> {
  const form: ImageForm = { fields: {}, files: {} };
  // The 422 names the field the client sent (profile_photo, front_picture_id…), so its form marks that one.
  let reading = 'image';
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        reading = part.fieldname;
        const bytes = await part.toBuffer();
        if (bytes.length > 0) form.files[part.fieldname] = bytes;
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(422, messages.profile.imageTooLarge, {
        [reading]: [messages.profile.imageTooLarge],
      });
    }
    // A disk error is ours (500); anything else (no boundary, a body cut mid-file) is a form the parser
    // could not read.
    if (!code?.startsWith('FST_') && (err as NodeJS.ErrnoException).syscall) throw err;
    throw new HttpError(400, messages.server.badRequest);
  }
  return form;
}

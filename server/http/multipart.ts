// Small multipart forms (profile images, verification): fields and a few images read into memory, each
// file bounded so an oversized one is refused while it streams in rather than after it is stored. Only the
// files the call takes are read; any other file part streams past unread, so junk parts cost no memory.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../src/contract/messages';
import { checkImageSize, IMAGE_MAX_BYTES, sniffImage } from '../media/images';
import { HttpError } from './errors';

/** Registers the parser in the caller's encapsulated scope only, so other route modules keep their own. */
export async function installImageMultipart(scope: FastifyInstance) {
  await scope.register(multipart, {
    // Four files: the most a form here takes (the identity documents); one more is a 400.
    limits: { fileSize: IMAGE_MAX_BYTES, files: 4, fields: 40, fieldSize: 10_000, parts: 50 },
  });
}

export interface ImageForm {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

/**
 * The file fields of the route's reference entry (multipartForm marks them binary): what the call reads is
 * what /v1/docs says it takes, and a route cannot forget to name them.
 */
function documentedFiles(request: FastifyRequest): string[] {
  const properties = request.routeOptions.config.doc?.rawBody?.schema.properties;
  const files = Object.entries((properties ?? {}) as Record<string, { format?: string }>)
    .filter(([, property]) => property.format === 'binary')
    .map(([name]) => name);
  if (files.length === 0) throw new Error(`${request.routeOptions.url} documents no file fields`);
  return files;
}

/**
 * Reads the form: its text fields, and the first non-empty file of each name in `fileFields` (by default
 * the route's documented files); other files are drained unread. A PNG or JPEG whose header declares more
 * pixels than the decoder may take is a 422 under its field as soon as it is in, before anything decodes it.
 */
export async function readImageForm(
  request: FastifyRequest,
  fileFields: readonly string[] = documentedFiles(request),
): Promise<ImageForm> {
  const form: ImageForm = { fields: {}, files: {} };
  const wanted = new Set(fileFields);
  // The 422 names the field the client sent (profile_photo, front_picture_id…), so its form marks that one.
  let reading = 'image';
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!wanted.has(part.fieldname) || form.files[part.fieldname]) {
          part.file.resume();
          continue;
        }
        reading = part.fieldname;
        const bytes = await part.toBuffer();
        if (bytes.length === 0) continue;
        const format = sniffImage(bytes);
        if (format && checkImageSize(bytes, format) === 'too-large') {
          throw new HttpError(422, messages.profile.imageDimensions, {
            [part.fieldname]: [messages.profile.imageDimensions],
          });
        }
        form.files[part.fieldname] = bytes;
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
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

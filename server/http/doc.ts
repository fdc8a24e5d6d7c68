// The API reference entry of a route is declared in its registration (`config: { doc }`), so a route and
// its documentation change in the same place; server/routes/docs.ts collects them into OpenAPI 3.1. The
// schemas are the valibot contract schemas the handlers parse with, so the reference cannot drift from
// the validation. The fragments below are the rules several calls share, worded once.
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { errorResponseSchema, socialMessages, videoListSchema } from '../../src/contract';

export interface DocResponse {
  description: string;
  schema?: v.GenericSchema;
}

export interface Operation {
  summary: string;
  /** The rules a client needs: status codes, idempotency, permissions. */
  description?: string;
  auth?: 'required' | 'optional';
  body?: v.GenericSchema;
  /** A body that is not JSON (a multipart form, tus bytes): its media type and JSON Schema as written. */
  rawBody?: { contentType: string; schema: Record<string, unknown> };
  query?: v.GenericSchema;
  /** Request headers the call reads, by name: what they mean. */
  headers?: Record<string, string>;
  responses: Record<number, DocResponse>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's entry in the API reference (/v1/docs). */
    doc?: Operation;
  }
}

export const jsonSchema = (schema: v.GenericSchema) =>
  // Transforms and checks have no JSON Schema form; the shape is what a client needs.
  toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12' }) as Record<string, unknown>;

/**
 * A multipart form: the text fields as the handler validates them (`fields`), plus the files by name. A
 * file replaces the field of the same name, which the handler only checks for presence.
 */
export function multipartForm(
  files: Record<string, string>,
  opts: { fields?: v.GenericSchema; filesRequired?: boolean } = {},
): Record<string, unknown> {
  const {
    properties: fields,
    required: fieldsRequired,
    ...rest
  } = opts.fields ? jsonSchema(opts.fields) : {};
  const properties = { ...(fields as Record<string, unknown> | undefined) };
  for (const [name, description] of Object.entries(files)) {
    properties[name] = { type: 'string', format: 'binary', description };
  }
  const required = new Set(fieldsRequired as string[] | undefined);
  if (opts.filesRequired ?? true) for (const name of Object.keys(files)) required.add(name);
  return { ...rest, type: 'object', properties, ...(required.size ? { required: [...required] } : {}) };
}

export const ERR = { schema: errorResponseSchema };
/** The answer of calls that only confirm: `{message}`. */
export const messageSchema = v.object({ message: v.string() });

export const unauthenticated: DocResponse = {
  description: 'Missing, unknown, revoked or expired bearer token.',
  ...ERR,
};
export const creatorsOnly: DocResponse = {
  description: 'Plain users (type user) cannot use creator tools.',
  ...ERR,
};
export const invalid: DocResponse = {
  description: 'Validation failed: `{message, errors: {field: [messages]}}`.',
  ...ERR,
};
export const videoNotFound: DocResponse = {
  description: '`Video not found`: no such video, not public yet, or its creator geo-blocks the viewer.',
  ...ERR,
};

/** Per-address limits (server/http/rate-limit.ts), worded with the configured numbers. */
export const rateLimited = (max: number, windowMs: number): DocResponse => ({
  description: `More than ${max} requests from one address within ${Math.round(windowMs / 60_000)} minutes.`,
  ...ERR,
});

export const guestOrUser =
  'Guests send `guest_id` (8-64 of A-Z a-z 0-9 -), users a bearer token; an unknown or expired token ' +
  'counts as a guest.';

/** What a call that must attribute its row to someone (identifiedViewer) answers without anyone. */
export const noViewer =
  `Without either: 422 \`${socialMessages.missingViewer}\`. A bearer that no longer works and no ` +
  '`guest_id`: 401, so the client forgets its session and sends again as a guest.';

/** The 401 of those calls. */
export const staleBearer: DocResponse = {
  description: 'A bearer that no longer works, and no `guest_id`.',
  ...ERR,
};

/**
 * The calls the client's outbox sends and replays: the header, its 400 and the rule. Failed requests are
 * rolled back with their key, which is why a retry after a failure still does the work.
 */
export const replayable = (op: Operation): Operation => ({
  ...op,
  description:
    `${op.description ?? ''} Send an \`Idempotency-Key\` header (e.g. the outbox UUID): the first request ` +
    'does the work; every replay with the same key gets the stored answer with `Idempotent-Replayed: true` ' +
    'and changes nothing. Failed requests are not stored, so they can be retried with the same key. The ' +
    'same key with a different body is refused (422), as the IETF Idempotency-Key draft asks.',
  headers: {
    ...op.headers,
    'Idempotency-Key': '8-128 of A-Z a-z 0-9 _ -; the same key for every attempt of one action.',
  },
  responses: {
    ...op.responses,
    400: { description: 'Malformed Idempotency-Key header.', ...ERR },
    422: {
      description: `${op.responses[422]?.description ?? 'Validation failed.'} Or an Idempotency-Key already used with a different body.`,
      ...ERR,
    },
  },
});

export const videoPage: DocResponse = { description: 'A page of videos.', schema: videoListSchema };
export const invalidList: DocResponse = { description: 'Invalid query, or a tampered cursor.', ...ERR };

/** What every video list shows, and the per-viewer flags it carries. */
export const listedVideos =
  'Only approved videos whose scheduled time has passed, of creators who do not geo-block the viewer’s ' +
  'country or region. `gender=m|t|m,t` filters by the creator’s gender. `isLiked` is the viewer’s (user, ' +
  'or `guest_id` in the query), `isRated` the user’s.';

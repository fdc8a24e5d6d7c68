// API reference at /v1/docs: OpenAPI 3.1 generated from the same valibot contract schemas the routes
// validate with, so the reference cannot drift from the code. Other modules describe their calls by
// adding to `operations` (see the social calls below for the pattern).
import { toJsonSchema } from '@valibot/to-json-schema';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import {
  channelListSchema,
  countryListSchema,
  errorResponseSchema,
  eventSchema,
  followInputSchema,
  followingModelsResponseSchema,
  followResponseSchema,
  geoBlockInputSchema,
  geoBlockListSchema,
  joinStudioSchema,
  linkClickSchema,
  pageQuerySchema,
  profileViewSchema,
  publicUserResponseSchema,
  regionListSchema,
  statsInputSchema,
  statsResponseSchema,
  studioResponseSchema,
  trackingResponseSchema,
  uploadDetailsResponseSchema,
  uploadDetailsSchema,
  uploadResultSchema,
  userListQuerySchema,
  videoListSchema,
} from '../../src/contract';
import type { AppDeps } from '../deps';

export interface Operation {
  method: 'get' | 'post' | 'head' | 'patch' | 'delete' | 'options';
  /** OpenAPI form: `/v1/users/{id}`. */
  path: string;
  summary: string;
  /** The rules a client needs: status codes, idempotency, permissions. */
  description?: string;
  auth?: 'required' | 'optional';
  body?: v.GenericSchema;
  /** A body that is not JSON (a multipart form, tus bytes): its media type and JSON Schema as written. */
  rawBody?: { contentType: string; schema: Record<string, unknown> };
  query?: v.GenericSchema;
  responses: Record<number, { description: string; schema?: v.GenericSchema }>;
}

const ERR = { schema: errorResponseSchema };
const unauthenticated = { description: 'Missing, unknown, revoked or expired bearer token.', ...ERR };
const creatorsOnly = { description: 'Plain users (type user) cannot use creator tools.', ...ERR };
const invalid = { description: 'Validation failed: `{message, errors: {field: [messages]}}`.', ...ERR };
const tracking = (summary: string, body: v.GenericSchema, extra = ''): Operation => ({
  method: 'post',
  path: '',
  summary,
  auth: 'optional',
  body,
  description:
    'Guests send `guest_id`, users a bearer token (an unknown token counts as a guest). Send an ' +
    '`Idempotency-Key` header (8-128 of A-Z a-z 0-9 _ -, e.g. the outbox UUID): the first request is ' +
    'counted, every replay with the same key gets the same answer with `Idempotent-Replayed: true` and ' +
    `is never counted again. Failed requests are not stored, so they can be retried with the same key.${extra}`,
  responses: {
    201: { description: 'Acknowledged: `{status: "ok"}`.', schema: trackingResponseSchema },
    400: { description: 'Malformed Idempotency-Key header.', ...ERR },
    404: { description: 'The target does not exist.', ...ERR },
    422: invalid,
  },
});

export const operations: Operation[] = [
  {
    method: 'get',
    path: '/v1/users/{id}',
    summary: 'A profile by id or slug (any case)',
    auth: 'optional',
    description:
      '`isFollowing` is for the bearer’s user. A creator who geo-blocks the viewer’s country or region ' +
      '(trusted proxy headers) answers 404, exactly like an unknown user.',
    responses: {
      200: { description: 'The profile.', schema: publicUserResponseSchema },
      404: { description: 'Unknown or geo-blocked.', ...ERR },
    },
  },
  {
    method: 'get',
    path: '/v1/users/{id}/videos',
    summary: 'A creator’s videos, 30 per page',
    auth: 'optional',
    query: pageQuerySchema,
    description:
      'Everyone sees approved videos whose scheduled time has passed. The creator and the managers of ' +
      'their studio see every status (for badges), with `statusReason` (why a video is in `error`), and ' +
      'scheduled videos.',
    responses: {
      200: { description: 'A page.', schema: videoListSchema },
      404: { description: 'Unknown or geo-blocked.', ...ERR },
      422: invalid,
    },
  },
  {
    method: 'get',
    path: '/v1/users',
    summary: 'Creator cards by type and gender, live first, 30 per page, geo-filtered',
    query: userListQuerySchema,
    responses: { 200: { description: 'A page of cards.', schema: channelListSchema }, 422: invalid },
  },
  {
    method: 'get',
    path: '/v1/profile/liked-videos',
    summary: 'Public videos the user liked, newest like first, 30 per page',
    auth: 'required',
    query: pageQuerySchema,
    responses: {
      200: { description: 'A page.', schema: videoListSchema },
      401: unauthenticated,
      422: invalid,
    },
  },
  {
    method: 'get',
    path: '/v1/profile/following-models',
    summary: 'Followed creators, live first',
    auth: 'required',
    responses: {
      200: { description: 'The list.', schema: followingModelsResponseSchema },
      401: unauthenticated,
    },
  },
  {
    method: 'post',
    path: '/v1/follow-model',
    summary: 'Follow or unfollow a model or channel',
    auth: 'required',
    body: followInputSchema,
    description:
      'Idempotent: **201** only when a follow was created; **200** when already following, after an ' +
      'unfollow, and for an unfollow with nothing to remove. Following yourself or a plain user: 422.',
    responses: {
      200: { description: 'No new follow (already following, or unfollowed).', schema: followResponseSchema },
      201: { description: 'Follow created.', schema: followResponseSchema },
      401: unauthenticated,
      404: { description: 'Unknown or geo-blocked creator.', ...ERR },
      422: invalid,
    },
  },
  {
    method: 'get',
    path: '/v1/profile/studio',
    summary: 'The studio the creator belongs to',
    auth: 'required',
    responses: {
      200: { description: 'The studio.', schema: studioResponseSchema },
      401: unauthenticated,
      404: { description: 'Not in a studio.', ...ERR },
    },
  },
  {
    method: 'post',
    path: '/v1/profile/join-studio',
    summary: 'Join a studio with the key its operator handed out',
    auth: 'required',
    body: joinStudioSchema,
    description:
      'Every failure says `Invalid key` (422 empty or malformed, 404 unknown, 403 plain users and managers ' +
      'of another studio). Joining makes the creator a member: the studio’s managers may then edit the ' +
      'profile and manage the videos.',
    responses: {
      200: { description: 'Joined (or already a member).', schema: studioResponseSchema },
      401: unauthenticated,
      403: { description: 'Invalid key', ...ERR },
      404: { description: 'Invalid key', ...ERR },
      422: { description: 'Invalid key', ...ERR },
    },
  },
  {
    method: 'post',
    path: '/v1/profile/leave-studio',
    summary: 'Leave the studio',
    auth: 'required',
    description:
      'Idempotent: 200 also when not in a studio. A manager cannot leave through the API (403); the operator removes them.',
    responses: {
      200: { description: '`{status: "ok"}`.', schema: trackingResponseSchema },
      401: unauthenticated,
      403: { description: 'Managers cannot leave.', ...ERR },
    },
  },
  {
    method: 'get',
    path: '/v1/geo/countries',
    summary: 'ISO 3166-1 alpha-2 countries (cacheable for a day)',
    responses: { 200: { description: 'All countries, by name.', schema: countryListSchema } },
  },
  {
    method: 'get',
    path: '/v1/geo/regions',
    summary: 'ISO 3166-2 regions of the United States, Canada and the United Kingdom (cacheable)',
    responses: { 200: { description: 'The regions.', schema: regionListSchema } },
  },
  ...(['add', 'delete'] as const).map(
    (verb): Operation => ({
      method: 'post',
      path: `/v1/profile/${verb}-geo-blocked-country`,
      summary: `${verb === 'add' ? 'Block' : 'Unblock'} a country or one of its regions`,
      auth: 'required',
      body: geoBlockInputSchema,
      description:
        'No region (or null/empty): the whole country. Regions exist for US, CA and GB only; anything ' +
        "else is 422 'Error: Unknown region.'. Adding an existing pair or deleting a missing one changes " +
        'nothing and answers 200. The answer is the new list.',
      responses: {
        200: { description: 'The list.', schema: geoBlockListSchema },
        401: unauthenticated,
        403: creatorsOnly,
        422: invalid,
      },
    }),
  ),
  {
    method: 'get',
    path: '/v1/profile/get-geo-blocked-countries',
    summary: 'The creator’s geo-blocks (region_code null: the whole country)',
    auth: 'required',
    responses: {
      200: { description: 'The list.', schema: geoBlockListSchema },
      401: unauthenticated,
      403: creatorsOnly,
    },
  },
  {
    method: 'post',
    path: '/v1/profile/stats',
    summary: 'Creator statistics',
    auth: 'required',
    body: statsInputSchema,
    description:
      'No body: lifetime totals and the last 30 days. `from`/`to` are UTC days, both inclusive, between ' +
      'six months ago and today, `from` <= `to`; otherwise 422 with the field at fault.',
    responses: {
      200: { description: 'Totals and range.', schema: statsResponseSchema },
      401: unauthenticated,
      403: creatorsOnly,
      422: invalid,
    },
  },
  {
    ...tracking('Count a click on a Live Cams entry point (events 1, 3, 5, 7)', eventSchema),
    path: '/v1/event',
  },
  { ...tracking('Count a click on a creator link', linkClickSchema), path: '/v1/link-click' },
  {
    ...tracking(
      'Count a profile view',
      profileViewSchema,
      ' Views of your own profile are acknowledged but not counted.',
    ),
    path: '/v1/profile-view',
  },
  ...uploadOperations(),
];

/** The upload calls: the tus protocol (its headers are the interface), multipart, the outcome, details. */
function uploadOperations(): Operation[] {
  const uploader =
    'Models and channels whose identity verification is approved. Others: 401 without a token; 403 ' +
    '`Only models and channels can upload videos.` for users, `To upload videos, please verify your identity...` ' +
    'while verification is none or pending, `Your verification was rejected, please try again.` when rejected.';
  const outcome =
    'A file is judged by ffprobe, not its name: a video container with a picture track, complete, at most ' +
    '30 minutes. A refused file still becomes a video in status `error` (the creator sees it with its reason) and ' +
    "the answer is 422 `{message: 'Video upload failed: <reason>', errors: {video: [<reason>]}}`.";
  const failed = { description: 'The file was refused; `errors.video[0]` is the reason.', ...ERR };
  const tooLarge = { description: 'Larger than 2 GB (UPLOAD_MAX_BYTES): `Video upload failed: …`.', ...ERR };
  const tusHeaders =
    'tus 1.0.0 (creation, creation-with-upload, creation-defer-length, termination, expiration): send ' +
    '`Tus-Resumable: 1.0.0`. ';
  const notFound = { description: 'Unknown upload, or another user’s.', ...ERR };
  return [
    {
      method: 'options',
      path: '/v1/uploads',
      summary: 'tus capabilities: versions, extensions, Tus-Max-Size',
      responses: { 204: { description: 'Capabilities in the tus headers.' } },
    },
    {
      method: 'post',
      path: '/v1/uploads',
      summary: 'Start a resumable upload (tus creation)',
      auth: 'required',
      description:
        `${tusHeaders}\`Upload-Length\` (bytes, at most 2 GB) and optionally \`Upload-Metadata\` (filename, ` +
        'filetype). Answers 201 with `Location: /v1/uploads/{id}`. Unfinished uploads expire after 24 hours. ' +
        uploader,
      responses: {
        201: { description: 'Created; `Location` names the upload.' },
        401: unauthenticated,
        403: { description: 'Not allowed to upload (see above).', ...ERR },
        412: { description: 'Missing `Tus-Resumable`.', ...ERR },
        413: tooLarge,
      },
    },
    {
      method: 'head',
      path: '/v1/uploads/{id}',
      summary: 'Where to resume: the bytes the server has (Upload-Offset)',
      auth: 'required',
      description:
        `${tusHeaders}After a dropped connection the client asks for \`Upload-Offset\` and continues from there. ` +
        'Once finished, the upload answers 200 with `Upload-Offset` = `Upload-Length` and the `Video-Id` / ' +
        '`Video-Screenshot` headers, so a client that lost the last answer does not upload again; a refused file answers 422.',
      responses: {
        200: { description: 'Offset and length in the headers.' },
        401: unauthenticated,
        404: notFound,
        422: { description: 'Finished, and the file was refused (reason at GET …/video).' },
      },
    },
    {
      method: 'patch',
      path: '/v1/uploads/{id}',
      summary: 'Send bytes from Upload-Offset',
      auth: 'required',
      rawBody: {
        contentType: 'application/offset+octet-stream',
        schema: { type: 'string', format: 'binary' },
      },
      description:
        `${tusHeaders}\`Upload-Offset\` must equal the server's offset (409 otherwise: ask with HEAD). The ` +
        'PATCH that completes the upload checks the file and creates the video before answering: 204 with ' +
        `headers \`Video-Id\` and \`Video-Screenshot\` (URL of the first frame). ${outcome}`,
      responses: {
        204: {
          description: 'Stored; `Upload-Offset` is the new offset (and the video headers when complete).',
        },
        401: unauthenticated,
        404: notFound,
        409: { description: 'Offset mismatch, or the upload is already finished.', ...ERR },
        413: tooLarge,
        422: failed,
      },
    },
    {
      method: 'delete',
      path: '/v1/uploads/{id}',
      summary: 'Abandon an unfinished upload (tus termination)',
      auth: 'required',
      responses: {
        204: { description: 'Removed.' },
        401: unauthenticated,
        404: notFound,
        409: { description: 'Already finished: it is a video now (delete the video instead).', ...ERR },
      },
    },
    {
      method: 'get',
      path: '/v1/uploads/{id}/video',
      summary: 'The outcome of a finished tus upload',
      auth: 'required',
      description:
        'The same answer as POST /v1/videos/upload, for a client that missed the headers of the last PATCH ' +
        '(a reload, another device). 409 while bytes are missing.',
      responses: {
        200: { description: 'The video.', schema: uploadResultSchema },
        401: unauthenticated,
        404: notFound,
        409: { description: 'The upload is not finished yet.', ...ERR },
        422: failed,
      },
    },
    {
      method: 'post',
      path: '/v1/videos/upload',
      summary: 'Upload a video in one multipart request',
      auth: 'required',
      rawBody: {
        contentType: 'multipart/form-data',
        schema: {
          type: 'object',
          properties: { video: { type: 'string', format: 'binary', description: 'The video file.' } },
          required: ['video'],
        },
      },
      description:
        'Streamed to disk as it arrives (never held in memory); for clients that cannot resume. Answers 201 ' +
        `with \`videoId\` and \`screenshot\` (first frame) once the file is checked; processing starts at once. ${outcome} ` +
        uploader,
      responses: {
        201: { description: 'The new video, status `uploaded`.', schema: uploadResultSchema },
        400: { description: 'A form the parser cannot read (no boundary, cut off).', ...ERR },
        401: unauthenticated,
        403: { description: 'Not allowed to upload (see above).', ...ERR },
        413: tooLarge,
        422: { description: 'No `video` file in the form, or the file was refused.', ...ERR },
      },
    },
    {
      method: 'post',
      path: '/v1/videos/upload-details',
      summary: 'Title, tags, nsfw and schedule of an uploaded video',
      auth: 'required',
      body: uploadDetailsSchema,
      description:
        'The owner or a manager of the owner’s studio (403 others). Tags are comma joined; new tags are created. ' +
        '`uploadDate` is a date-time picker value (`2026-05-01T20:30`) in the IANA `uploadDateTimezone`, or an ' +
        'instant with its own offset; `schedule: true` without a date is `Select a date`. An upload stays ' +
        'private until its details arrive; then it is public once processed, or at the scheduled time if later. ' +
        'Starts processing if nothing has started it. Sending details again replaces them.',
      responses: {
        200: { description: 'Stored: `{message, data: video}`.', schema: uploadDetailsResponseSchema },
        401: unauthenticated,
        403: { description: 'Not the owner or their studio manager.', ...ERR },
        404: { description: 'No such video.', ...ERR },
        422: {
          description: 'Validation (spec messages), or the upload itself failed (`Video upload failed: …`).',
          ...ERR,
        },
      },
    },
  ];
}

const jsonSchema = (schema: v.GenericSchema) =>
  // Transforms and checks have no JSON Schema form; the shape is what a client needs.
  toJsonSchema(schema, { errorMode: 'ignore', target: 'draft-2020-12' });

export function openApiDocument(publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const parameters: unknown[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (op.query) {
      const query = jsonSchema(op.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
      }
    }
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = {
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(op.auth === 'required' ? { security: [{ bearer: [] }] } : {}),
      ...(op.auth === 'optional' ? { security: [{}, { bearer: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: false,
              content: { 'application/json': { schema: jsonSchema(op.body) } },
            },
          }
        : {}),
      ...(op.rawBody
        ? {
            requestBody: {
              required: true,
              content: { [op.rawBody.contentType]: { schema: op.rawBody.schema } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, r]) => [
          status,
          {
            description: r.description,
            ...(r.schema ? { content: { 'application/json': { schema: jsonSchema(r.schema) } } } : {}),
          },
        ]),
      ),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ShortCams API',
      version: '1',
      description:
        'Lists are `{data, links: {next}}` (`next` null on the last page); validation failures are 422 ' +
        '`{message, errors: {field: [messages]}}`; every other failure is `{message}`. The viewer’s country ' +
        'and region come from trusted proxy headers; geo-blocked creators are left out of lists and 404 ' +
        'when read directly. Strings with NUL characters or bodies nested deeper than 32 levels are 400.',
    },
    servers: [{ url: publicUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>ShortCams API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:700;text-transform:uppercase;margin-right:.5em}</style>
</head><body><h1>ShortCams API</h1><p>Machine-readable: <a href="/v1/docs/openapi.json">openapi.json</a></p><div id="ops">Loading…</div>
<script>
fetch('/v1/docs/openapi.json').then(r=>r.json()).then(doc=>{
  const el=document.getElementById('ops');el.textContent='';
  const p=document.createElement('p');p.textContent=doc.info.description;el.append(p);
  for(const [path,ops] of Object.entries(doc.paths))for(const [method,op] of Object.entries(ops)){
    const s=document.createElement('section');const h=document.createElement('h3');
    const m=document.createElement('span');m.className='m';m.textContent=method;h.append(m,path);
    const d=document.createElement('p');d.textContent=op.summary+(op.description?' — '+op.description:'');
    const c=document.createElement('p');c.textContent='Answers: '+Object.entries(op.responses).map(([k,v])=>k+' '+v.description).join(' · ');
    s.append(h,d,c);el.append(s);
  }
});
</script></body></html>`;

export default async function docsRoutes(app: FastifyInstance, deps: AppDeps) {
  // Built once: the document only changes with the code.
  const document = openApiDocument(deps.config.publicUrl);
  app.get('/v1/docs/openapi.json', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return document;
  });
  app.get('/v1/docs', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    return reply.type('text/html; charset=utf-8').send(html);
  });
}

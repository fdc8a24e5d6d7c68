// Video uploads: resumable (tus protocol under /v1/uploads), one-shot multipart (POST /v1/videos/upload),
// the upload's outcome (GET /v1/uploads/{id}/video) and the creator's details (POST
// /v1/videos/upload-details). Files are written to DATA_DIR/private as they stream in, never held in memory.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server as TusServer } from '@tus/server';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  formatBytes,
  messages,
  tagSlug,
  type UploadResult,
  uploadDetailsResponseSchema,
  uploadResultSchema,
} from '../../src/contract';
import { uploadDetailsSchema } from '../../src/contract/upload-details';
import { canManageCreator } from '../auth/permissions';
import type { UserRow } from '../auth/tokens';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { ERR, multipartForm, type Operation, unauthenticated } from '../http/doc';
import { HttpError, notFound } from '../http/errors';
import type { IdParams } from '../http/params';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';
import { acceptUpload, enqueue, liveJobsOf, type PipelineDeps, type UploadOutcome } from '../media/pipeline';
import { videoMediaDir } from '../media/storage';
import { createUploadFinisher } from '../media/upload-recovery';
import { slugify } from '../util/slug';
import { presentVideos } from './present';

const m = messages.upload;

/** tus names uploads with 16 random bytes in hex; anything else cannot be an upload of ours. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Unfinished uploads are kept this long for a resume, then removed with their session. */
const UPLOAD_EXPIRY_MS = 24 * 3600_000;
/** Headers the final PATCH of a tus upload carries (and browsers may read) with the new video. */
const VIDEO_ID_HEADER = 'Video-Id';
const SCREENSHOT_HEADER = 'Video-Screenshot';

export default async function uploadRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const { storage, config } = deps;
  const pipelineDeps: PipelineDeps = {
    db,
    storage,
    jobs: deps.jobs,
    staleSeconds: config.mediaStaleSeconds,
    log: (message) => app.log.warn(message),
  };
  const tooLarge = () =>
    new HttpError(413, m.failed(m.tooLarge(formatBytes(config.uploadMaxBytes))), {
      video: [m.tooLarge(formatBytes(config.uploadMaxBytes))],
    });

  // The reference's wording of the rules below, shared by the upload calls.
  const maxSize = formatBytes(config.uploadMaxBytes);
  const uploaderRule =
    'Models and channels whose identity verification is approved. Others: 401 without a token; 403 ' +
    `\`${m.creatorsOnly}\` for users, \`${m.verifyPrompt}\` while verification is none or pending, ` +
    `\`${m.verificationRejected}\` when rejected.`;
  const outcomeRule =
    'A file is judged by ffprobe, not its name: a video container with a picture track, complete, at most ' +
    '30 minutes. A refused file still becomes a video in status `error` (the creator sees it with its ' +
    "reason) and the answer is 422 `{message: 'Video upload failed: <reason>', errors: {video: [<reason>]}}`.";
  const tusRule =
    'tus 1.0.0 (creation, creation-with-upload, creation-defer-length, termination, expiration): send ' +
    '`Tus-Resumable: 1.0.0`. ';
  const tusResumable = { 'Tus-Resumable': '`1.0.0`' };
  const refusedDoc = { description: 'The file was refused; `errors.video[0]` is the reason.', ...ERR };
  const tooLargeDoc = {
    description: `Larger than ${maxSize} (UPLOAD_MAX_BYTES): \`Video upload failed: …\`.`,
    ...ERR,
  };
  const notUploaderDoc = { description: 'Not allowed to upload (see above).', ...ERR };
  const uploadNotFoundDoc = { description: 'Unknown or expired upload, or another user’s.', ...ERR };

  /** Spec §4: models and channels whose identity check is approved; everyone else learns what to do. */
  async function requireUploader(request: FastifyRequest): Promise<UserRow> {
    const user = await requireUser(request, deps);
    if (user.type === 'user') throw new HttpError(403, m.creatorsOnly);
    if (user.verificationStatus === 'rejected') throw new HttpError(403, m.verificationRejected);
    if (user.verificationStatus !== 'approved') throw new HttpError(403, m.verifyPrompt);
    return user;
  }

  const uploaded = (outcome: UploadOutcome): UploadResult => {
    if (!outcome.ok) throw new HttpError(422, m.failed(outcome.reason), { video: [outcome.reason] });
    return {
      message: m.uploaded,
      videoId: outcome.videoId,
      screenshot: outcome.screenshot,
      status: 'uploaded',
    };
  };

  // ---- tus -------------------------------------------------------------------------------------------

  const tusDir = await storage.ensurePrivate('tus');
  const datastore = new FileStore({ directory: tusDir, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  // ---- finishing (server/media/upload-recovery.ts): a complete upload always becomes a video ----------
  const finisher = createUploadFinisher({
    ...pipelineDeps,
    tusDir,
    forgetTusUpload: (id) => datastore.configstore.delete(id),
  });
  // What a crash left complete but unfinished is finished before the first request is taken.
  await finisher.recoverAll();
  /** Who is behind each request tus handles: set by the route after its checks, read by the hooks. */
  const uploaderOf = new WeakMap<Request, UserRow>();
  const tus = new TusServer({
    path: '/v1/uploads',
    datastore,
    maxSize: config.uploadMaxBytes,
    // Relative: a Host header cannot point a client elsewhere, and proxies need no forwarding rules.
    relativeLocation: true,
    exposedHeaders: [VIDEO_ID_HEADER, SCREENSHOT_HEADER],
    // The file of a finished upload has become the video's original; there is nothing left to delete.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const user = uploaderOf.get(req);
      if (!user) throw { status_code: 401, body: m.uploadNotFound };
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(upload.metadata ?? {})) {
        if (typeof value === 'string' && key.length <= 64) metadata[key] = value.slice(0, 500);
      }
      await db
        .insert(t.uploadSessions)
        .values({ id: upload.id, userId: user.id, size: upload.size ?? 0, metadata });
      return {};
    },
    async onUploadFinish(_req, upload) {
      const outcome = await finisher.finish(upload.id);
      if (!outcome) throw { status_code: 404, body: m.uploadNotFound };
      if (!outcome.ok) {
        const body = { message: m.failed(outcome.reason), errors: { video: [outcome.reason] } };
        throw { status_code: 422, body: JSON.stringify(body) };
      }
      return {
        headers: { [VIDEO_ID_HEADER]: String(outcome.videoId), [SCREENSHOT_HEADER]: outcome.screenshot },
      };
    },
  });

  /** tus speaks Web Request/Response; Fastify keeps the say over status, headers and error bodies. */
  async function viaTus(request: FastifyRequest, reply: FastifyReply, user?: UserRow) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      for (const item of [value].flat()) {
        if (item === undefined) continue;
        try {
          headers.append(name, String(item));
        } catch {
          // A header value fetch refuses is no tus header; tus never sees it.
        }
      }
    }
    const hasBody = request.method === 'POST' || request.method === 'PATCH';
    const webRequest = new Request(`http://uploads.invalid${request.url.split('?')[0]}`, {
      method: request.method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(request.raw) as unknown as BodyInit, duplex: 'half' } : {}),
    } as RequestInit);
    if (user) uploaderOf.set(webRequest, user);
    const response = await tus.handleWeb(webRequest);
    response.headers.forEach((value, name) => {
      if (name !== 'content-type' && name !== 'content-length') reply.header(name, value);
    });
    if (response.status < 400) {
      const body = response.status === 204 ? '' : await response.text();
      return reply.status(response.status).send(body || undefined);
    }
    const text = (await response.text()).trim();
    return reply
      .status(tusStatus(response.status, text))
      .send(tusError(response.status, text, request.method));
  }

  /**
   * tus answers 5xx where the server is not failing: a request that waited too long for another request on
   * the same upload (423 Locked: tus clients retry it) and an extension we do not offer (a client error).
   */
  const tusStatus = (status: number, text: string) =>
    text === ERRORS.ERR_LOCK_TIMEOUT.body ? 423 : status === 501 ? 400 : status;

  function tusError(
    status: number,
    text: string,
    method: string,
  ): { message: string; errors?: Record<string, string[]> } {
    if (text.startsWith('{')) {
      try {
        return JSON.parse(text) as { message: string };
      } catch {
        // Not ours after all: worded below.
      }
    }
    // A PATCH can only overrun the length its upload declared (that length was held to the limit at POST).
    if (status === 413 && method === 'PATCH') return { message: m.beyondLength };
    if (status === 413) {
      const reason = m.tooLarge(formatBytes(config.uploadMaxBytes));
      return { message: m.failed(reason), errors: { video: [reason] } };
    }
    if (status === 404 || status === 410) return { message: m.uploadNotFound };
    if (text === ERRORS.ERR_LOCK_TIMEOUT.body) return { message: m.uploadBusy };
    if (status >= 500 && status !== 501) {
      app.log.error({ tus: text }, 'tus request failed');
      return { message: messages.server.internal };
    }
    return { message: text || messages.server.badRequest };
  }

  /** The upload named in the path, if it is this user's. */
  async function ownUpload(request: FastifyRequest<IdParams>, user: UserRow) {
    const id = request.params.id;
    if (!UPLOAD_ID.test(id)) throw notFound(m.uploadNotFound);
    const [session] = await db
      .select()
      .from(t.uploadSessions)
      .where(and(eq(t.uploadSessions.id, id), eq(t.uploadSessions.userId, user.id)));
    if (!session) throw notFound(m.uploadNotFound);
    return session;
  }

  /**
   * A finished upload's file has become a video, so tus no longer knows it. A client that lost the final
   * answer resumes with HEAD: it learns the upload is complete (offset = length) and gets the video's
   * headers, instead of a 404 that would make it upload the whole file again. A refused file answers
   * 422 (the reason is at GET /v1/uploads/{id}/video); PATCH and DELETE have nothing left to act on (409).
   */
  async function finished(session: typeof t.uploadSessions.$inferSelect, reply: FastifyReply) {
    const [video] = session.videoId
      ? await db.select().from(t.videos).where(eq(t.videos.id, session.videoId))
      : [];
    reply.header('Tus-Resumable', '1.0.0').header('Cache-Control', 'no-store');
    if (reply.request.method !== 'HEAD') return reply.status(409).send({ message: m.uploadFinished });
    if (!video || video.status === 'deleting')
      return reply.status(404).send({ message: messages.video.notFound });
    if (video.status === 'error')
      return reply.status(422).send({ message: m.failed(video.statusReason ?? '') });
    return reply
      .status(200)
      .header('Upload-Offset', String(session.size))
      .header('Upload-Length', String(session.size))
      .header(VIDEO_ID_HEADER, String(video.id))
      .header(SCREENSHOT_HEADER, storage.url(`${videoMediaDir(video)}/first.jpg`) ?? '')
      .send();
  }

  await app.register(async (scope) => {
    // A tus body is the file itself, in any content type the client likes: left unread for tus.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    const capabilitiesDoc: Operation = {
      summary: 'tus capabilities: versions, extensions, Tus-Max-Size',
      responses: { 204: { description: 'Capabilities in the tus headers.' } },
    };
    // Capabilities (versions, extensions, max size): no login, browsers ask before a cross-origin upload.
    scope.options('/v1/uploads', { config: { doc: capabilitiesDoc } }, (request, reply) =>
      viaTus(request, reply),
    );
    scope.options('/v1/uploads/:id', { config: { doc: capabilitiesDoc } }, (request, reply) =>
      viaTus(request, reply),
    );

    const createDoc: Operation = {
      summary: 'Start a resumable upload (tus creation)',
      auth: 'required',
      headers: {
        ...tusResumable,
        'Upload-Length': `Bytes, at most ${maxSize}.`,
        'Upload-Metadata': 'Optional: `filename`, `filetype` (tus encoding).',
      },
      description:
        `${tusRule}Answers 201 with \`Location: /v1/uploads/{id}\`. Unfinished uploads expire after ` +
        `${UPLOAD_EXPIRY_MS / 3600_000} hours. ${uploaderRule}`,
      responses: {
        201: { description: 'Created; `Location` names the upload.' },
        400: { description: 'Missing or malformed `Upload-Length` or `Upload-Metadata`.', ...ERR },
        401: unauthenticated,
        403: notUploaderDoc,
        412: { description: 'Missing `Tus-Resumable`.', ...ERR },
        413: tooLargeDoc,
      },
    };
    scope.post('/v1/uploads', { config: { doc: createDoc } }, async (request, reply) =>
      viaTus(request, reply, await requireUploader(request)),
    );

    // HEAD, PATCH and DELETE of one upload: the same checks, then tus (or the finished upload's answer).
    const onUpload = async (request: FastifyRequest<IdParams>, reply: FastifyReply) => {
      const user = await requireUploader(request);
      const session = await finisher.settle(await ownUpload(request, user));
      if (session.completedAt) return finished(session, reply);
      await viaTus(request, reply, user);
      if (request.method === 'DELETE' && reply.statusCode === 204)
        await db.delete(t.uploadSessions).where(eq(t.uploadSessions.id, session.id));
      return reply;
    };

    const offsetDoc: Operation = {
      summary: 'Where to resume: the bytes the server has (Upload-Offset)',
      auth: 'required',
      headers: tusResumable,
      description:
        `${tusRule}After a dropped connection the client asks for \`Upload-Offset\` and continues from there. ` +
        'Once finished, the upload answers 200 with `Upload-Offset` = `Upload-Length` and the `Video-Id` / ' +
        '`Video-Screenshot` headers, so a client that lost the last answer does not upload again; a refused ' +
        'file answers 422.',
      responses: {
        200: { description: 'Offset and length in the headers.' },
        401: unauthenticated,
        403: notUploaderDoc,
        404: uploadNotFoundDoc,
        422: { description: 'Finished, and the file was refused (reason at GET …/video).' },
      },
    };
    scope.head<IdParams>('/v1/uploads/:id', { config: { doc: offsetDoc } }, onUpload);

    const patchDoc: Operation = {
      summary: 'Send bytes from Upload-Offset',
      auth: 'required',
      headers: { ...tusResumable, 'Upload-Offset': 'The server’s offset, as HEAD told it.' },
      rawBody: {
        contentType: 'application/offset+octet-stream',
        schema: { type: 'string', format: 'binary' },
      },
      description:
        `${tusRule}\`Upload-Offset\` must equal the server's offset (409 otherwise: ask with HEAD). The ` +
        'PATCH that completes the upload checks the file and creates the video before answering: 204 with ' +
        `headers \`Video-Id\` and \`Video-Screenshot\` (URL of the first frame). ${outcomeRule}`,
      responses: {
        204: {
          description: 'Stored; `Upload-Offset` is the new offset (and the video headers when complete).',
        },
        401: unauthenticated,
        403: { description: 'Not allowed to upload, or no `Upload-Offset` / another content type.', ...ERR },
        404: uploadNotFoundDoc,
        409: { description: 'Offset mismatch, or the upload is already finished.', ...ERR },
        413: tooLargeDoc,
        422: refusedDoc,
        423: {
          description: `Another request on the same upload is still running: \`${m.uploadBusy}\``,
          ...ERR,
        },
      },
    };
    scope.patch<IdParams>('/v1/uploads/:id', { config: { doc: patchDoc } }, onUpload);

    const abandonDoc: Operation = {
      summary: 'Abandon an unfinished upload (tus termination)',
      auth: 'required',
      headers: tusResumable,
      responses: {
        204: { description: 'Removed.' },
        401: unauthenticated,
        403: notUploaderDoc,
        404: uploadNotFoundDoc,
        409: { description: 'Already finished: it is a video now (delete the video instead).', ...ERR },
      },
    };
    scope.delete<IdParams>('/v1/uploads/:id', { config: { doc: abandonDoc } }, onUpload);
  });

  const outcomeDoc: Operation = {
    summary: 'The outcome of a finished tus upload',
    auth: 'required',
    description:
      'The same answer as POST /v1/videos/upload, for a client that missed the headers of the last PATCH ' +
      '(a reload, another device). 409 while bytes are missing; 404 once the video is deleted.',
    responses: {
      200: { description: 'The video.', schema: uploadResultSchema },
      401: unauthenticated,
      404: { description: 'Unknown upload, another user’s, or its video was deleted.', ...ERR },
      409: { description: 'The upload is not finished yet.', ...ERR },
      422: refusedDoc,
    },
  };
  // The outcome of a finished tus upload, for a client that missed the final PATCH's headers (a reload,
  // a second device): the same answer as POST /v1/videos/upload.
  app.get<IdParams>('/v1/uploads/:id/video', { config: { doc: outcomeDoc } }, async (request, reply) => {
    const user = await requireUser(request, deps);
    const session = await finisher.settle(await ownUpload(request, user));
    if (!session.completedAt) return reply.status(409).send({ message: m.uploadUnfinished });
    const [video] = session.videoId
      ? await db.select().from(t.videos).where(eq(t.videos.id, session.videoId))
      : [];
    if (!video || video.status === 'deleting') throw notFound(messages.video.notFound);
    if (video.status === 'error') {
      const reason = video.statusReason ?? m.processingFailed;
      throw new HttpError(422, m.failed(reason), { video: [reason] });
    }
    return {
      message: m.uploaded,
      videoId: video.id,
      screenshot: storage.url(`${videoMediaDir(video)}/first.jpg`) ?? '',
      status: video.status,
    } satisfies UploadResult;
  });

  // ---- multipart -------------------------------------------------------------------------------------

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, fieldSize: 1000, parts: 11 },
    });
    const uploadDoc: Operation = {
      summary: 'Upload a video in one multipart request',
      auth: 'required',
      rawBody: { contentType: 'multipart/form-data', schema: multipartForm({ video: 'The video file.' }) },
      description:
        'Streamed to disk as it arrives (never held in memory); for clients that cannot resume. Answers 201 ' +
        `with \`videoId\` and \`screenshot\` (first frame) once the file is checked; processing starts at once. ` +
        `${outcomeRule} ${uploaderRule}`,
      responses: {
        201: { description: 'The new video, status `uploaded`.', schema: uploadResultSchema },
        400: { description: 'A form the parser cannot read (no boundary, cut off).', ...ERR },
        401: unauthenticated,
        403: notUploaderDoc,
        413: tooLargeDoc,
        422: { description: 'No `video` file in the form, or the file was refused.', ...ERR },
      },
    };
    scope.post('/v1/videos/upload', { config: { doc: uploadDoc } }, async (request, reply) => {
      const user = await requireUploader(request);
      if (!request.isMultipart()) throw new HttpError(422, m.failed(m.noFile), { video: [m.noFile] });
      const incoming = await storage.ensurePrivate('incoming');
      // No extension: ffprobe must judge the content, not a name the client chose.
      const file = path.join(incoming, randomBytes(16).toString('hex'));
      let received = false;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'video' || received) {
            part.file.resume();
            continue;
          }
          // The parser destroys the stream of a form that ended mid-file before we get to read it.
          if (part.file.destroyed) throw new HttpError(400, messages.server.badRequest);
          await pipeline(part.file, createWriteStream(file));
          if (part.file.truncated) throw tooLarge();
          received = true;
        }
      } catch (err) {
        await fs.rm(file, { force: true });
        if (err instanceof HttpError) throw err;
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        // A failing disk is ours to report (500); anything else is a form the parser could not read.
        if ((err as NodeJS.ErrnoException).syscall) throw err;
        throw new HttpError(400, messages.server.badRequest);
      }
      if (!received) throw new HttpError(422, m.failed(m.noFile), { video: [m.noFile] });
      return reply.status(201).send(uploaded(await acceptUpload(pipelineDeps, file, user.id)));
    });
  });

  // ---- details ---------------------------------------------------------------------------------------

  const detailsDoc: Operation = {
    summary: 'Title, tags, nsfw and schedule of an uploaded video',
    auth: 'required',
    body: uploadDetailsSchema,
    description:
      'The owner or a manager of the owner’s studio (403 others). Tags are comma joined; new tags are created. ' +
      '`uploadDate` is a date-time picker value (`2026-05-01T20:30`) in the IANA `uploadDateTimezone`, or an ' +
      `instant with its own offset; \`schedule: true\` without a date is \`${m.selectDate}\`. An upload stays ` +
      'private until its details arrive; then it is public once processed, or at the scheduled time if later. ' +
      'Starts processing if nothing has started it. Sending details again replaces them.',
    responses: {
      200: { description: 'Stored: `{message, data: video}`.', schema: uploadDetailsResponseSchema },
      401: unauthenticated,
      403: { description: 'Not the owner or their studio manager.', ...ERR },
      404: { description: 'No such video, or it is being deleted.', ...ERR },
      422: {
        description: 'Validation (spec messages), or the upload itself failed (`Video upload failed: …`).',
        ...ERR,
      },
    },
  };
  app.post('/v1/videos/upload-details', { config: { doc: detailsDoc } }, async (request) => {
    const user = await requireUser(request, deps);
    const input = parse(uploadDetailsSchema, request.body);
    const [video] = await db.select().from(t.videos).where(eq(t.videos.id, input.videoId));
    if (!video || video.status === 'deleting') throw notFound(messages.video.notFound);
    if (!(await canManageCreator(db, user, video.userId)))
      throw new HttpError(403, messages.server.forbidden);
    if (video.status === 'error') {
      const reason = video.statusReason ?? m.processingFailed;
      throw new HttpError(422, m.failed(reason), { videoId: [reason] });
    }
    const slugs = input.tags.map(tagSlug);
    await db.transaction(async (tx) => {
      await tx
        .update(t.videos)
        .set({
          title: input.title,
          slug: slugify(input.title),
          isNsfw: input.isNsfw,
          uploadTimezone: input.timeZone,
          // Unscheduled: public once processed (or now, if it already is); the job never publishes earlier.
          publishAt: input.publishAt ?? sql`least(${t.videos.publishAt}, now())`,
          updatedAt: new Date(),
        })
        .where(eq(t.videos.id, video.id));
      if (slugs.length) {
        await tx
          .insert(t.tags)
          .values(input.tags.map((name, i) => ({ name, slug: slugs[i] as string })))
          .onConflictDoNothing({ target: t.tags.slug });
      }
      const tags = slugs.length ? await tx.select().from(t.tags).where(inArray(t.tags.slug, slugs)) : [];
      const idOf = new Map(tags.map((tag) => [tag.slug, tag.id]));
      await tx.delete(t.videoTags).where(eq(t.videoTags.videoId, video.id));
      if (slugs.length) {
        await tx
          .insert(t.videoTags)
          .values(
            slugs.map((slug, position) => ({ videoId: video.id, tagId: idOf.get(slug) as number, position })),
          );
      }
    });
    // Processing starts at upload; should that hand-over have been lost, the details start it again.
    if (
      video.status === 'uploaded' &&
      deps.jobs &&
      (await liveJobsOf(deps.database, video.id)).length === 0
    ) {
      await enqueue(deps.jobs, video.id, 'preprocess');
    }
    const [row] = await db.select().from(t.videos).where(eq(t.videos.id, video.id));
    const [data] = await presentVideos(db, storage, row ? [row] : [], {
      liked: new Set(),
      rated: new Set(),
      managed: new Set([video.id]),
    });
    return { message: m.uploaded, data };
  });

  // ---- housekeeping ----------------------------------------------------------------------------------

  // Abandoned uploads: tus's expired files, their sessions, and multipart files of a crashed request.
  const sweepAbandoned = async () => {
    try {
      await tus.cleanUpExpiredUploads();
      const before = new Date(Date.now() - UPLOAD_EXPIRY_MS);
      await db
        .delete(t.uploadSessions)
        .where(and(isNull(t.uploadSessions.completedAt), lt(t.uploadSessions.createdAt, before)));
      const incoming = await storage.ensurePrivate('incoming');
      for (const name of await fs.readdir(incoming)) {
        const file = path.join(incoming, name);
        const stat = await fs.stat(file).catch(() => null);
        if (stat && stat.mtimeMs < before.getTime()) await fs.rm(file, { force: true });
      }
    } catch (err) {
      app.log.warn({ err }, 'upload housekeeping failed');
    }
  };
  const timer = setInterval(sweepAbandoned, 3600_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

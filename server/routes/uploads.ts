// Video uploads: resumable (tus protocol under /v1/uploads), one-shot multipart (POST /v1/videos/upload),
// the upload's outcome (GET /v1/uploads/{id}/video) and the creator's details (POST
// /v1/videos/upload-details). Files are written to DATA_DIR/private as they stream in, never held in memory.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatBytes, messages, uploadDetailsResponseSchema, uploadResultSchema } from '../../src/contract';
import { uploadDetailsSchema } from '../../src/contract/upload-details';
import type { AppDeps } from '../deps';
import { ERR, multipartForm, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import type { IdParams } from '../http/params';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';
import { acceptUpload } from '../media/pipeline';
import { createUploadFinisher } from '../media/upload-recovery';
import * as q from '../uploads/queries';
import {
  finishedUploadAnswer,
  finishUpload,
  ownUpload,
  pipelineOf,
  receiveVideoForm,
  recordUpload,
  requireUploader,
  updateDetails,
  uploadAnswer,
} from '../uploads/service';
import {
  createTus,
  SCREENSHOT_HEADER,
  sweepIncoming,
  UPLOAD_EXPIRY_MS,
  VIDEO_ID_HEADER,
} from '../uploads/tus';

const m = messages.upload;

export default async function uploadRoutes(app: FastifyInstance, deps: AppDeps) {
  const { config } = deps;
  const pipelineDeps = pipelineOf(deps, (message) => app.log.warn(message));

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
    'tus 1.0.0 (creation, creation-with-upload, termination, expiration): send ' + '`Tus-Resumable: 1.0.0`. ';
  const tusResumable = { 'Tus-Resumable': '`1.0.0`' };
  const refusedDoc = { description: 'The file was refused; `errors.video[0]` is the reason.', ...ERR };
  const tooLargeDoc = {
    description: `Larger than ${maxSize} (UPLOAD_MAX_BYTES): \`Video upload failed: …\`.`,
    ...ERR,
  };
  const notUploaderDoc = { description: 'Not allowed to upload (see above).', ...ERR };
  const uploadNotFoundDoc = { description: 'Unknown or expired upload, or another user’s.', ...ERR };

  const tus = await createTus(
    {
      storage: deps.storage,
      s3: config.s3,
      maxSize: config.uploadMaxBytes,
      logError: (details, message) => app.log.error(details, message),
    },
    {
      created: (user, upload) => recordUpload(deps, user, upload),
      finished: (upload, file) => finishUpload(finisher, upload, file),
    },
  );
  // ---- finishing (server/media/upload-recovery.ts): a complete upload always becomes a video ----------
  const finisher = createUploadFinisher({
    ...pipelineDeps,
    tusFile: tus.takenFile,
    forgetTusUpload: tus.forget,
  });
  // What a crash left complete but unfinished is finished before the first request is taken.
  await finisher.recoverAll();

  /**
   * A finished upload's file has become a video, so tus no longer knows it. A client that lost the final
   * answer resumes with HEAD: it learns the upload is complete (offset = length) and gets the video's
   * headers, instead of a 404 that would make it upload the whole file again. A refused file answers
   * 422 (the reason is at GET /v1/uploads/{id}/video); PATCH and DELETE have nothing left to act on (409).
   */
  async function finished(session: q.UploadSession, reply: FastifyReply) {
    reply.header('Tus-Resumable', '1.0.0').header('Cache-Control', 'no-store');
    if (reply.request.method !== 'HEAD') return reply.status(409).send({ message: m.uploadFinished });
    // The same 404 (deleted) and 422 (refused) as GET /v1/uploads/{id}/video, without a body.
    const answer = await finishedUploadAnswer(deps, session);
    return reply
      .status(200)
      .header('Upload-Offset', String(session.size))
      .header('Upload-Length', String(session.size))
      .header(VIDEO_ID_HEADER, String(answer.videoId))
      .header(SCREENSHOT_HEADER, answer.screenshot)
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
      tus.handle(request, reply),
    );
    scope.options('/v1/uploads/:id', { config: { doc: capabilitiesDoc } }, (request, reply) =>
      tus.handle(request, reply),
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
        `${UPLOAD_EXPIRY_MS / 3600_000} hours. A creation may carry the first bytes ` +
        '(`Content-Type: application/offset+octet-stream`): they are taken as a PATCH from offset 0 would be, ' +
        'and the 201 adds `Upload-Offset` (and `Video-Id` / `Video-Screenshot` when they were all of it) or ' +
        `answers that PATCH's refusal. The length must be known: \`Upload-Defer-Length\` is a 400 ` +
        `\`${m.lengthRequired}\`. ${uploaderRule}`,
      responses: {
        201: { description: 'Created; `Location` names the upload.' },
        400: {
          description: 'Missing or malformed `Upload-Length` or `Upload-Metadata`, or `Upload-Defer-Length`.',
          ...ERR,
        },
        401: unauthenticated,
        403: notUploaderDoc,
        412: { description: 'Missing `Tus-Resumable`.', ...ERR },
        413: tooLargeDoc,
        422: { description: 'The bytes sent with the creation completed a file that was refused.', ...ERR },
      },
    };
    scope.post('/v1/uploads', { config: { doc: createDoc } }, async (request, reply) =>
      tus.handle(request, reply, await requireUploader(request, deps)),
    );

    // HEAD, PATCH and DELETE of one upload: the same checks, then tus (or the finished upload's answer).
    // Each is counted in as it arrives, before the checks, whose waits may end in any order.
    const arrive = (request: FastifyRequest<IdParams>, reply: FastifyReply, done: () => void) => {
      tus.arrive(request, reply);
      done();
    };
    const onUpload = async (request: FastifyRequest<IdParams>, reply: FastifyReply) => {
      const user = await requireUploader(request, deps);
      const session = await finisher.settle(await ownUpload(deps, request.params.id, user));
      if (session.completedAt) return finished(session, reply);
      await tus.handle(request, reply, user);
      if (request.method === 'DELETE' && reply.statusCode === 204)
        await q.deleteSession(deps.database.db, session.id);
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
    scope.head<IdParams>('/v1/uploads/:id', { config: { doc: offsetDoc }, onRequest: arrive }, onUpload);

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
        409: {
          description:
            'Offset mismatch (ask with HEAD), a later request on the upload overtook this one while the ' +
            'server checked it (the client had given it up), or the upload is already finished.',
          ...ERR,
        },
        413: tooLargeDoc,
        422: refusedDoc,
        423: {
          description: `Another request on the same upload is still running: \`${m.uploadBusy}\``,
          ...ERR,
        },
      },
    };
    scope.patch<IdParams>('/v1/uploads/:id', { config: { doc: patchDoc }, onRequest: arrive }, onUpload);

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
    scope.delete<IdParams>('/v1/uploads/:id', { config: { doc: abandonDoc }, onRequest: arrive }, onUpload);
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
    const session = await finisher.settle(await ownUpload(deps, request.params.id, user));
    if (!session.completedAt) return reply.status(409).send({ message: m.uploadUnfinished });
    return finishedUploadAnswer(deps, session);
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
      const user = await requireUploader(request, deps);
      if (!request.isMultipart()) throw new HttpError(422, m.failed(m.noFile), { video: [m.noFile] });
      const file = await receiveVideoForm(request, deps);
      if (!file) throw new HttpError(422, m.failed(m.noFile), { video: [m.noFile] });
      return reply.status(201).send(uploadAnswer(await acceptUpload(pipelineDeps, file, user.id)));
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
    return updateDetails(deps, user, parse(uploadDetailsSchema, request.body));
  });

  // ---- housekeeping ----------------------------------------------------------------------------------

  // Abandoned uploads: tus's expired files, their sessions, and multipart files of a crashed request.
  const sweepAbandoned = async () => {
    try {
      await tus.cleanUpExpired();
      const before = new Date(Date.now() - UPLOAD_EXPIRY_MS);
      await q.deleteAbandonedSessions(deps.database.db, before);
      await sweepIncoming(deps.storage, before);
    } catch (err) {
      app.log.warn({ err }, 'upload housekeeping failed');
    }
  };
  const timer = setInterval(sweepAbandoned, 3600_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

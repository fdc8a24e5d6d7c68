// What the upload routes do beyond HTTP: who may upload, reading a multipart video to a local file,
// creating the video from a finished upload, the answer of an upload that is done, and the details.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Upload } from '@tus/server';
import type { FastifyRequest } from 'fastify';
import { formatBytes, messages, type UploadResult } from '../../src/contract';
import type { UploadDetails } from '../../src/contract/upload-details';
import { canManageCreator } from '../auth/permissions';
import type { UserRow } from '../auth/tokens';
import type { VideoRow } from '../db/schema';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../http/errors';
import { requireUser } from '../http/viewer';
import { enqueue, liveJobsOf, type PipelineDeps, type UploadOutcome } from '../media/pipeline';
import { videoMediaDir } from '../media/storage';
import type { UploadFinisher } from '../media/upload-recovery';
import { presentVideos } from '../videos/present';
import { videoById } from '../videos/queries';
import * as q from './queries';
import { SCREENSHOT_HEADER, VIDEO_ID_HEADER } from './tus';

const m = messages.upload;

/** tus names uploads with 16 random bytes in hex; anything else cannot be an upload of ours. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export const tooLarge = (maxBytes: number) =>
  new HttpError(413, m.failed(m.tooLarge(formatBytes(maxBytes))), {
    video: [m.tooLarge(formatBytes(maxBytes))],
  });

/** Spec §4: models and channels whose identity check is approved; everyone else learns what to do. */
export async function requireUploader(request: FastifyRequest, deps: AppDeps): Promise<UserRow> {
  const user = await requireUser(request, deps);
  if (user.type === 'user') throw new HttpError(403, m.creatorsOnly);
  if (user.verificationStatus === 'rejected') throw new HttpError(403, m.verificationRejected);
  if (user.verificationStatus !== 'approved') throw new HttpError(403, m.verifyPrompt);
  return user;
}

/** The answer of both upload calls once the file is in, or the 422 of a refused file. */
export function uploadAnswer(outcome: UploadOutcome): UploadResult {
  if (!outcome.ok) throw new HttpError(422, m.failed(outcome.reason), { video: [outcome.reason] });
  return {
    message: m.uploaded,
    videoId: outcome.videoId,
    screenshot: outcome.screenshot,
    status: 'uploaded',
  };
}

export const screenshotOf = (deps: AppDeps, video: VideoRow) =>
  deps.storage.url(`${videoMediaDir(video)}/first.jpg`) ?? '';

export const pipelineOf = (deps: AppDeps, log: (message: string) => void): PipelineDeps => ({
  db: deps.database.db,
  storage: deps.storage,
  jobs: deps.jobs,
  staleSeconds: deps.config.mediaStaleSeconds,
  uploadReview: deps.config.uploadReview,
  log,
});

/** A tus upload was created: remember whose it is (with its metadata, bounded). */
export async function recordUpload(deps: AppDeps, user: UserRow, upload: Upload) {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(upload.metadata ?? {})) {
    if (typeof value === 'string' && key.length <= 64) metadata[key] = value.slice(0, 500);
  }
  await q.insertSession(deps.database.db, {
    id: upload.id,
    userId: user.id,
    size: upload.size ?? 0,
    metadata,
  });
}

/**
 * A tus upload is complete: its file becomes a video, and the final PATCH answers its id and first frame
 * in headers (tus leaves no room for a body), or the 422 of a refused file.
 */
export async function finishUpload(
  finisher: UploadFinisher,
  upload: Upload,
  file: string,
): Promise<Record<string, string>> {
  // The finisher ties the video to its session, so that a crash at any point of this is carried forward at
  // start or by the client's next HEAD (server/media/upload-recovery.ts).
  const outcome = await finisher.finish(upload.id);
  if (!outcome) {
    await fs.rm(file, { force: true });
    throw { status_code: 404, body: m.uploadNotFound };
  }
  if (!outcome.ok) {
    const body = { message: m.failed(outcome.reason), errors: { video: [outcome.reason] } };
    throw { status_code: 422, body: JSON.stringify(body) };
  }
  return { [VIDEO_ID_HEADER]: String(outcome.videoId), [SCREENSHOT_HEADER]: outcome.screenshot };
}

/** The upload named in the path, if it is this user's. */
export async function ownUpload(deps: AppDeps, id: string, user: UserRow) {
  if (!UPLOAD_ID.test(id)) throw notFound(m.uploadNotFound);
  const session = await q.ownSession(deps.database.db, id, user.id);
  if (!session) throw notFound(m.uploadNotFound);
  return session;
}

/** The video a finished upload became, as GET /v1/uploads/{id}/video and the multipart call answer it. */
export async function finishedUploadAnswer(deps: AppDeps, session: q.UploadSession): Promise<UploadResult> {
  const video = await videoById(deps.database.db, session.videoId);
  if (!video || video.status === 'deleting') throw notFound(messages.video.notFound);
  if (video.status === 'error') {
    const reason = video.statusReason ?? m.processingFailed;
    throw new HttpError(422, m.failed(reason), { video: [reason] });
  }
  return {
    message: m.uploaded,
    videoId: video.id,
    screenshot: screenshotOf(deps, video),
    status: video.status,
    inReview: video.status === 'approved' && video.review === 'held',
    statusReason: video.status === 'rejected' ? video.statusReason : null,
  };
}

/**
 * The `video` file of a multipart form, streamed to a local file (never held in memory). Other files are
 * drained; a form without one is a 422, a file over `maxBytes` a 413.
 */
export async function receiveVideoForm(request: FastifyRequest, deps: AppDeps): Promise<string | undefined> {
  const incoming = await deps.storage.workDir('incoming');
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
      // An upload is private until it is published (DATA_DIR/private): this user's only.
      await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
      if (part.file.truncated) throw tooLarge(deps.config.uploadMaxBytes);
      received = true;
    }
  } catch (err) {
    await fs.rm(file, { force: true });
    if (err instanceof HttpError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw tooLarge(deps.config.uploadMaxBytes);
    // A failing disk is ours to report (500); anything else is a form the parser could not read.
    if ((err as NodeJS.ErrnoException).syscall) throw err;
    throw new HttpError(400, messages.server.badRequest);
  }
  return received ? file : undefined;
}

/**
 * Stores the details of `videoId` (owner or their studio's manager) and answers the video as lists show it.
 * Processing starts at upload; should that hand-over have been lost, the details start it again.
 */
export async function updateDetails(deps: AppDeps, user: UserRow, input: UploadDetails) {
  const { db } = deps.database;
  const video = await videoById(db, input.videoId);
  if (!video || video.status === 'deleting') throw notFound(messages.video.notFound);
  if (!(await canManageCreator(db, user, video.userId))) throw new HttpError(403, messages.server.forbidden);
  if (video.status === 'error') {
    const reason = video.statusReason ?? m.processingFailed;
    throw new HttpError(422, m.failed(reason), { videoId: [reason] });
  }
  await q.saveDetails(db, video.id, input);
  if (video.status === 'uploaded' && deps.jobs && (await liveJobsOf(deps.database, video.id)).length === 0) {
    await enqueue(deps.jobs, video.id, 'preprocess');
  }
  const row = await videoById(db, video.id);
  const [data] = await presentVideos(db, deps.storage, row ? [row] : [], {
    liked: new Set(),
    rated: new Set(),
    managed: new Set([video.id]),
  });
  return { message: m.uploaded, data };
}

// From a stored upload to a video row and its first frame, before any job runs.
import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { messages } from '../../../src/contract/messages';
import type { Db } from '../../db/client';
import { videos } from '../../db/schema';
import { crashPoint } from '../../util/crash-point';
import { fitWithin, frameArgs } from '../args';
import { ffmpeg, MediaToolError } from '../ffmpeg';
import { inspectUpload, type MediaInfo, MediaRejection } from '../probe';
import { newMediaKey, videoMediaDir } from '../storage';
import { POSTER_MAX } from './poster';
import { enqueue } from './queues';
import { failVideo, originalPath, type PipelineDeps, shapeOf, UNPUBLISHED_AT } from './row';

const m = messages.upload;

export type UploadOutcome =
  | { ok: true; videoId: number; screenshot: string }
  | { ok: false; videoId: number; reason: string };

/**
 * Turns a completely received local file into a video of `userId`: checks it (ffprobe), creates the row
 * (uploaded, or error with the reason), extracts the first frame, moves the original into private storage
 * and queues preprocessing. The file at `file` is moved or removed in every case.
 */
export async function acceptUpload(
  deps: PipelineDeps,
  file: string,
  userId: number,
  /**
   * Runs in the transaction that creates the row: a tus upload ties its session to the new video there, so
   * no crash can leave a video that its upload does not know about (see ../upload-recovery.ts).
   */
  onRow?: (tx: Db, videoId: number) => Promise<void>,
): Promise<UploadOutcome> {
  const { db, storage } = deps;
  let info: MediaInfo | undefined;
  let reason: string | undefined;
  try {
    info = await inspectUpload(file);
  } catch (err) {
    if (!(err instanceof MediaRejection)) throw err;
    reason = err.message;
  }
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(videos)
      .values({
        userId,
        slug: 'video',
        status: info ? 'uploaded' : 'error',
        statusReason: reason ?? null,
        publishAt: UNPUBLISHED_AT,
        mediaKey: newMediaKey(),
        ...(info ? shapeOf(info) : {}),
      })
      .returning({ id: videos.id, mediaKey: videos.mediaKey });
    if (!created) throw new Error('video insert returned nothing');
    await onRow?.(tx, created.id);
    return created;
  });
  const videoId = row.id;
  // The crash test's window "the row exists, the file is still where the upload left it".
  await crashPoint('upload-finish:row-created');
  if (!info) {
    await fs.rm(file, { force: true });
    return { ok: false, videoId, reason: reason ?? m.notVideo };
  }
  const source = originalPath(videoId);
  const dir = videoMediaDir(row);
  const screenshot = `${dir}/first.jpg`;
  const frame = `${file}.first.jpg`;
  try {
    // From the file as received, on this machine: the storage may be a bucket away.
    await ffmpeg(frameArgs(file, { atSeconds: 0, size: fitWithin(info, POSTER_MAX), output: frame }), {
      timeoutMs: 60_000,
    });
    await storage.putFile(screenshot, frame);
  } catch (err) {
    if (!(err instanceof MediaToolError)) throw err;
    // ffprobe liked the header but not a single frame decodes: nothing worth keeping.
    await failVideo(db, videoId, m.damaged);
    await fs.rm(file, { force: true });
    await storage.remove(dir);
    return { ok: false, videoId, reason: m.damaged };
  } finally {
    await fs.rm(frame, { force: true });
  }
  await storage.putPrivate(source, file);
  await db
    .update(videos)
    .set({ sourcePath: source, thumbnailPath: screenshot, updatedAt: new Date() })
    .where(eq(videos.id, videoId));
  if (deps.jobs) await enqueue(deps.jobs, videoId, 'preprocess');
  return { ok: true, videoId, screenshot: storage.url(screenshot) ?? '' };
}

// Finishing a tus upload, so that a finished upload always becomes a video (or a clear error), whenever the
// server dies. Once the last byte is on disk, four things happen in order: the file is checked and its video
// row created (tied to the upload session in the same transaction), the file moves to the originals, the
// first frame is cut, and the session is marked complete. A crash can stop this between any two of them;
// whatever is found afterwards is carried forward from there:
//
//   complete file, no video yet            → finish it now (check, row, move, first frame)
//   a video that never got its file        → drop that row, finish again from the bytes wherever they are
//   a video with its file (or in error)    → only mark the session complete
//
// `finish` is idempotent and runs once at a time per upload in this process. It runs on the last PATCH, on a
// HEAD or GET …/video that finds a complete but unfinished upload (a client resuming after the crash never
// sees the "complete, but no Video-Id" answer that would strand it), and at start for every upload left so.
import fs from 'node:fs/promises';
import { and, eq, isNull } from 'drizzle-orm';
import { messages } from '../../src/contract/messages';
import type { Db } from '../db/client';
import { uploadSessions, type VideoRow, videos } from '../db/schema';
import { crashPoint } from '../util/crash-point';
import { acceptUpload, originalPath, type PipelineDeps, type UploadOutcome } from './pipeline';
import { videoMediaDir } from './storage';

type Session = typeof uploadSessions.$inferSelect;

export interface UploadFinisherDeps extends PipelineDeps {
  /**
   * Where a finished upload's bytes lie as a local file: @tus/file-store's own file, or the copy taken from
   * the bucket when uploads go to S3 (server/uploads/tus.ts).
   */
  tusFile: (id: string) => Promise<string>;
  /** tus's own note about an upload (offset, metadata), removed once the file has become a video. */
  forgetTusUpload: (id: string) => Promise<void>;
}

/** What a finished upload came to; null when its bytes are not all there yet. */
export type FinishResult = UploadOutcome | null;

const exists = (file: string) =>
  fs.stat(file).then(
    (stat) => stat,
    () => null,
  );

export function createUploadFinisher(deps: UploadFinisherDeps) {
  const { db, storage } = deps;
  const running = new Map<string, Promise<FinishResult>>();
  const { tusFile } = deps;

  const sessionOf = async (id: string) =>
    (await db.select().from(uploadSessions).where(eq(uploadSessions.id, id)))[0];
  const videoOf = async (id: number) => (await db.select().from(videos).where(eq(videos.id, id)))[0];

  const outcomeOf = (video: VideoRow): UploadOutcome =>
    video.status === 'error'
      ? { ok: false, videoId: video.id, reason: video.statusReason ?? messages.upload.processingFailed }
      : { ok: true, videoId: video.id, screenshot: storage.url(`${videoMediaDir(video)}/first.jpg`) ?? '' };

  async function complete(session: Session, videoId: number) {
    await deps.forgetTusUpload(session.id).catch(() => undefined);
    await fs.rm(await tusFile(session.id), { force: true });
    await db
      .update(uploadSessions)
      .set({ videoId, offset: session.size, completedAt: new Date() })
      .where(eq(uploadSessions.id, session.id));
  }

  /**
   * A row created for this upload whose file never arrived in the originals (the server died in between):
   * the bytes go back where a fresh finish expects them and the row goes, as if it had never been made.
   * Nobody can have seen it: its id travels to the client only once the session is complete.
   */
  async function undoHalfAccepted(session: Session, video: VideoRow): Promise<boolean> {
    const whole = async (file: string) => (await exists(file))?.size === session.size;
    const file = await tusFile(session.id);
    if (!(await whole(file))) {
      // The bytes may have reached the originals (a local path, or a copy of a remote storage's object).
      const moved = await storage.openPrivate(originalPath(video.id)).catch(() => null);
      try {
        if (moved && (await whole(moved.path))) await fs.copyFile(moved.path, file);
      } finally {
        await moved?.release();
      }
    }
    if (!(await whole(file))) return false;
    await db.transaction(async (tx) => {
      await tx.update(uploadSessions).set({ videoId: null }).where(eq(uploadSessions.id, session.id));
      await tx.delete(videos).where(and(eq(videos.id, video.id), isNull(videos.sourcePath)));
    });
    await storage.removePrivate(`originals/${video.id}`);
    await storage.remove(videoMediaDir(video));
    return true;
  }

  async function run(id: string): Promise<FinishResult> {
    let session = await sessionOf(id);
    if (!session) return null;
    if (session.completedAt) {
      const video = session.videoId ? await videoOf(session.videoId) : undefined;
      return video ? outcomeOf(video) : null;
    }
    if (session.videoId) {
      const video = await videoOf(session.videoId);
      if (video && (video.sourcePath || video.status === 'error' || video.status === 'deleting')) {
        await complete(session, video.id);
        return outcomeOf(video);
      }
      if (video && !(await undoHalfAccepted(session, video))) {
        // Neither copy of the bytes survived: say so rather than leave the creator waiting forever.
        await db
          .update(videos)
          .set({ status: 'error', statusReason: messages.upload.processingFailed, updatedAt: new Date() })
          .where(eq(videos.id, video.id));
        await complete(session, video.id);
        return { ok: false, videoId: video.id, reason: messages.upload.processingFailed };
      }
      session = (await sessionOf(id)) ?? session;
    }
    const file = await tusFile(id);
    const stat = await exists(file);
    if (!stat || stat.size !== session.size) return null;
    await crashPoint('upload-finish:before-accept');
    const link = async (tx: Db, videoId: number) => {
      const linked = await tx
        .update(uploadSessions)
        .set({ videoId })
        .where(and(eq(uploadSessions.id, id), isNull(uploadSessions.videoId)))
        .returning({ id: uploadSessions.id });
      // Another process finished it meanwhile: this row must not exist.
      if (linked.length === 0) throw new Error(`upload ${id} was finished elsewhere`);
    };
    const outcome = await acceptUpload(deps, file, session.userId, link);
    await crashPoint('upload-finish:before-complete');
    await complete(session, outcome.videoId);
    return outcome;
  }

  /** Finishes the upload if all its bytes are in; its outcome, or null while bytes are missing. */
  function finish(id: string): Promise<FinishResult> {
    let job = running.get(id);
    if (!job) {
      job = run(id).finally(() => running.delete(id));
      running.set(id, job);
    }
    return job;
  }

  /** The session as a request should see it: finished first if its bytes are complete but it is not. */
  async function settle(session: Session): Promise<Session> {
    if (session.completedAt) return session;
    if (!session.videoId && (await exists(await tusFile(session.id)))?.size !== session.size) return session;
    await finish(session.id);
    return (await sessionOf(session.id)) ?? session;
  }

  /** Every upload left complete but unfinished (a crash, a failed finish): finished now. Returns their ids. */
  async function recoverAll(): Promise<string[]> {
    const open = await db.select().from(uploadSessions).where(isNull(uploadSessions.completedAt));
    const done: string[] = [];
    for (const session of open) {
      try {
        if ((await settle(session)).completedAt) done.push(session.id);
      } catch (err) {
        deps.log?.(`upload ${session.id} could not be finished: ${(err as Error).message}`);
      }
    }
    if (done.length) deps.log?.(`finished ${done.length} upload(s) a stop had left unfinished`);
    return done;
  }

  return { finish, settle, recoverAll };
}

export type UploadFinisher = ReturnType<typeof createUploadFinisher>;

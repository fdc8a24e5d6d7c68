// A finished tus upload always becomes a video: the states a stop can leave between "last byte on disk" and
// "session complete" are laid out on disk and in the database as a crash leaves them, then a client resumes
// (HEAD, as tus-js-client does) and must get the video, never "complete, but no Video-Id". The same states
// reached by a real kill -9 are in upload-crash.test.ts. Also: bytes beyond Upload-Length have their own
// reason.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { originalPath } from '../../server/media/pipeline';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { makeClip } from './media-fixtures';
import { bearer } from './social-helpers';

let ctx: TestContext;
let auth: Record<string, string>;
let userId: number;
let clip: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  const creator = await insertUser(ctx);
  userId = creator.id;
  auth = await bearer(ctx, creator.id);
  const fixtures = await fs.mkdtemp(path.join(ctx.config.dataDir, 'fixtures-'));
  clip = await fs.readFile(await makeClip(fixtures, 'clip.mp4', { width: 180, height: 320, seconds: 2 }));
});
afterAll(() => ctx.close());

const tus = (extra: Record<string, string> = {}) => ({ ...auth, 'tus-resumable': '1.0.0', ...extra });

async function create(length: number) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/uploads',
    headers: tus({ 'upload-length': String(length) }),
  });
  expect(res.statusCode, res.body).toBe(201);
  const location = String(res.headers.location);
  return { location, id: location.split('/').pop() as string };
}

/** What the last PATCH leaves on disk when the server dies before it could finish: every byte, no video. */
const allBytesOnDisk = (id: string) => fs.writeFile(ctx.storage.privateAbs(`tus/${id}`), clip);

const head = (location: string) => ctx.app.inject({ method: 'HEAD', url: location, headers: tus() });
const outcome = (location: string) =>
  ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: auth });
const videosOfCreator = () => ctx.database.db.select().from(t.videos).where(eq(t.videos.userId, userId));

describe('an upload whose finish was cut short', () => {
  it('is finished by the HEAD of a client resuming, which gets the video instead of being stranded', async () => {
    const { location, id } = await create(clip.length);
    await allBytesOnDisk(id);
    const before = (await videosOfCreator()).length;

    const res = await head(location);
    expect(res.statusCode).toBe(200);
    expect(res.headers['upload-offset']).toBe(String(clip.length));
    const videoId = Number(res.headers['video-id']);
    expect(videoId).toBeGreaterThan(0);
    expect(res.headers['video-screenshot']).toMatch(
      new RegExp(`^/media/videos/${videoId}-[\\w-]{22}/first\\.jpg$`),
    );
    expect((await outcome(location)).json()).toMatchObject({ videoId, status: 'uploaded' });
    expect((await videosOfCreator()).length).toBe(before + 1);
    await fs.access(ctx.storage.privateAbs(originalPath(videoId)));
    expect(await fs.readdir(ctx.storage.privateAbs('tus'))).not.toContain(id);
  });

  it('is finished by GET …/video too, which no longer answers 409 forever', async () => {
    const { location, id } = await create(clip.length);
    await allBytesOnDisk(id);
    const res = await outcome(location);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Video uploaded successfully', status: 'uploaded' });
  });

  it('drops a row that never got its file and finishes again, leaving one video', async () => {
    const { location, id } = await create(clip.length);
    await allBytesOnDisk(id);
    // The server died right after creating the row (linked to the session in the same transaction).
    const orphan = await insertVideo(ctx, {
      userId,
      status: 'uploaded',
      playlistPath: null,
      thumbnailPath: null,
      sourcePath: null,
    });
    await ctx.database.db
      .update(t.uploadSessions)
      .set({ videoId: orphan.id })
      .where(eq(t.uploadSessions.id, id));
    const before = (await videosOfCreator()).length;

    const res = await head(location);
    expect(res.statusCode).toBe(200);
    const videoId = Number(res.headers['video-id']);
    expect(videoId).not.toBe(orphan.id);
    expect((await videosOfCreator()).length).toBe(before);
    expect(await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, orphan.id))).toEqual([]);
  });

  it('finds the bytes in the originals when the crash came after the move', async () => {
    const { location, id } = await create(clip.length);
    const orphan = await insertVideo(ctx, {
      userId,
      status: 'uploaded',
      playlistPath: null,
      thumbnailPath: null,
      sourcePath: null,
    });
    await ctx.database.db
      .update(t.uploadSessions)
      .set({ videoId: orphan.id })
      .where(eq(t.uploadSessions.id, id));
    // The file left the upload area for the originals, under the row's id.
    await fs.rm(ctx.storage.privateAbs(`tus/${id}`));
    const moved = ctx.storage.privateAbs(originalPath(orphan.id));
    await fs.mkdir(path.dirname(moved), { recursive: true });
    await fs.writeFile(moved, clip);

    const res = await head(location);
    expect(res.statusCode).toBe(200);
    const videoId = Number(res.headers['video-id']);
    expect(await fs.readFile(ctx.storage.privateAbs(originalPath(videoId)))).toEqual(clip);
    await expect(fs.access(moved)).rejects.toThrow();
  });

  it('only marks the session complete when the video was made before the stop', async () => {
    const { location, id } = await create(clip.length);
    const made = await insertVideo(ctx, {
      userId,
      status: 'uploaded',
      sourcePath: 'originals/x/source',
      playlistPath: null,
    });
    await ctx.database.db
      .update(t.uploadSessions)
      .set({ videoId: made.id })
      .where(eq(t.uploadSessions.id, id));
    const res = await head(location);
    expect(res.statusCode).toBe(200);
    expect(res.headers['video-id']).toBe(String(made.id));
  });

  it('ends in a clear error when no copy of the bytes survived', async () => {
    const { location, id } = await create(clip.length);
    const lost = await insertVideo(ctx, { userId, status: 'uploaded', sourcePath: null, playlistPath: null });
    await ctx.database.db
      .update(t.uploadSessions)
      .set({ videoId: lost.id })
      .where(eq(t.uploadSessions.id, id));
    expect((await head(location)).statusCode).toBe(422);
    const res = await outcome(location);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Video upload failed: The video could not be processed.',
      errors: { video: ['The video could not be processed.'] },
    });
  });

  it('leaves an upload with bytes missing as it is: resumable, not finished', async () => {
    const { location, id } = await create(clip.length);
    await fs.writeFile(ctx.storage.privateAbs(`tus/${id}`), clip.subarray(0, 1000));
    const res = await head(location);
    expect(res.statusCode).toBe(200);
    expect(res.headers['upload-offset']).toBe('1000');
    expect(res.headers['video-id']).toBeUndefined();
    expect((await outcome(location)).statusCode).toBe(409);
  });
});

describe('bytes beyond Upload-Length', () => {
  it('answer their own reason, not the 2 GB limit', async () => {
    const { location } = await create(100);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: tus({ 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
      payload: Buffer.alloc(150, 1),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'More bytes were sent than the upload declared (Upload-Length).' });
    // Nothing was taken: the upload resumes from where it was.
    expect((await head(location)).headers['upload-offset']).toBe('0');
  });
});

// Upload calls through app.inject on the real database and real ffprobe/ffmpeg (no job workers here: the
// pipeline has its own tests). Who may upload, how both upload paths answer, which files are refused and
// why, the 2 GB limit (scaled down by configuration), and every rule of the upload details.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { ffmpeg } from '../../server/media/ffmpeg';
import { liveJobsOf, UNPUBLISHED_AT } from '../../server/media/pipeline';
import { multipartBody } from './form';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';
import { makeClip, makeLongClip, truncate, understateDuration } from './media-fixtures';
import { bearer } from './social-helpers';

let ctx: TestContext;
let fixtures: string;
let clip: string;
const headers: Record<string, Record<string, string>> = {};
const ids: Record<string, number> = {};
/** The id of a person of the cast. */
const idOf = (who: string) => ids[who] as number;

beforeAll(async () => {
  ctx = await createTestContext({ jobs: true });
  const db = ctx.database.db;
  const [studio] = await db.insert(t.studios).values({ name: 'North', keyHash: 'hash-north' }).returning();
  const people = {
    user: await insertUser(ctx, { type: 'user', verificationStatus: 'none' }),
    unverified: await insertUser(ctx, { verificationStatus: 'none' }),
    pending: await insertUser(ctx, { verificationStatus: 'pending' }),
    rejected: await insertUser(ctx, { type: 'channel', verificationStatus: 'rejected' }),
    owner: await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' }),
    channel: await insertUser(ctx, { type: 'channel' }),
    manager: await insertUser(ctx, { studioId: studio?.id, studioRole: 'manager' }),
    other: await insertUser(ctx),
  };
  headers.guest = {};
  for (const [name, person] of Object.entries(people)) {
    headers[name] = await bearer(ctx, person.id);
    ids[name] = person.id;
  }
  fixtures = await fs.mkdtemp(path.join(ctx.config.dataDir, 'fixtures-'));
  clip = await makeClip(fixtures, 'clip.mp4', { width: 180, height: 320, seconds: 2 });
});
afterAll(() => ctx.close());

async function multipartUpload(who: string, file: string | Buffer, filename = 'clip.mp4') {
  const data = typeof file === 'string' ? await fs.readFile(file) : file;
  const body = multipartBody({ video: { filename, contentType: 'video/mp4', data } });
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/videos/upload',
    headers: { ...headers[who], ...body.headers },
    payload: body.payload,
  });
}

const tusHeaders = (who: string, extra: Record<string, string> = {}) => ({
  ...headers[who],
  'tus-resumable': '1.0.0',
  ...extra,
});

async function tusUpload(who: string, bytes: Buffer) {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/v1/uploads',
    headers: tusHeaders(who, { 'upload-length': String(bytes.length) }),
  });
  expect(created.statusCode, created.body).toBe(201);
  const location = String(created.headers.location);
  const patched = await ctx.app.inject({
    method: 'PATCH',
    url: location,
    headers: tusHeaders(who, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
    payload: bytes,
  });
  return { location, patched };
}

const videoRow = async (id: number) =>
  (await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id)))[0];

/** Where a video's first frame is served: in a folder named with its random key, which only the row knows. */
const screenshotOf = async (id: number) => {
  const key = (await videoRow(id))?.mediaKey;
  expect(key).toMatch(/^[\w-]{22}$/);
  return `/media/videos/${id}-${key}/first.jpg`;
};

describe('who may upload (spec §4)', () => {
  const expected: [string, number, string | null][] = [
    ['guest', 401, 'Unauthenticated.'],
    ['user', 403, 'Only models and channels can upload videos.'],
    ['unverified', 403, 'To upload videos, please verify your identity...'],
    ['pending', 403, 'To upload videos, please verify your identity...'],
    ['rejected', 403, 'Your verification was rejected, please try again.'],
    ['owner', 201, null],
    ['channel', 201, null],
  ];

  it.each(expected)('multipart upload as %s → %i', async (who, status, message) => {
    const res = await multipartUpload(who, clip);
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json()).toEqual({ message });
    else {
      const body = res.json();
      expect(body).toEqual({
        message: 'Video uploaded successfully',
        videoId: expect.any(Number),
        screenshot: await screenshotOf(body.videoId),
        status: 'uploaded',
      });
      expect(await videoRow(body.videoId)).toMatchObject({ userId: ids[who], status: 'uploaded', title: '' });
      const shot = await ctx.app.inject({ method: 'GET', url: body.screenshot });
      expect(shot.statusCode).toBe(200);
      expect(shot.headers['content-type']).toBe('image/jpeg');
    }
  });

  it.each(expected)('tus upload creation as %s → %i', async (who, status, message) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: tusHeaders(who, { 'upload-length': '1000' }),
    });
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json()).toEqual({ message });
    else expect(res.headers.location).toMatch(/^\/v1\/uploads\/[0-9a-f]{32}$/);
  });

  it('keeps each upload to its creator: others get 404, as for an unknown upload', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: tusHeaders('owner', { 'upload-length': '10' }),
    });
    const location = String(created.headers.location);
    for (const [who, status] of [
      ['guest', 401],
      ['other', 404],
      ['manager', 404],
      ['owner', 200],
    ] as const) {
      const head = await ctx.app.inject({ method: 'HEAD', url: location, headers: tusHeaders(who) });
      expect(head.statusCode, who).toBe(status);
    }
    const patch = await ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: tusHeaders('other', {
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      }),
      payload: Buffer.alloc(10),
    });
    expect(patch.json()).toEqual({ message: 'Upload not found.' });
    for (const id of ['nope', '0'.repeat(32), 'A'.repeat(32)]) {
      const res = await ctx.app.inject({
        method: 'HEAD',
        url: `/v1/uploads/${id}`,
        headers: tusHeaders('owner'),
      });
      expect(res.statusCode, id).toBe(404);
    }
  });
});

describe('the upload answer', () => {
  it('answers a finished tus upload on its last PATCH and again at GET /v1/uploads/{id}/video', async () => {
    const bytes = await fs.readFile(clip);
    const { location, patched } = await tusUpload('owner', bytes);
    expect(patched.statusCode, patched.body).toBe(204);
    const videoId = Number(patched.headers['video-id']);
    expect(patched.headers['video-screenshot']).toBe(await screenshotOf(videoId));
    expect(await videoRow(videoId)).toMatchObject({ userId: ids.owner, status: 'uploaded' });
    const again = await ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: headers.owner });
    expect(again.json()).toEqual({
      message: 'Video uploaded successfully',
      videoId,
      screenshot: await screenshotOf(videoId),
      status: 'uploaded',
      // Not playable yet, so not waiting for the operators either; nothing refused it.
      inReview: false,
      statusReason: null,
    });
    // A client that lost that answer resumes with HEAD: told the upload is complete, with the video.
    const head = await ctx.app.inject({ method: 'HEAD', url: location, headers: tusHeaders('owner') });
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({
      'upload-offset': String(bytes.length),
      'upload-length': String(bytes.length),
      'video-id': String(videoId),
    });
    const late = await ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: tusHeaders('owner', {
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      }),
      payload: bytes,
    });
    expect(late.statusCode).toBe(409);
    // Other users learn nothing about it; the uploader's tus files are gone (the original is private).
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: headers.other })).statusCode,
    ).toBe(404);
    expect(await fs.readdir(ctx.storage.privateAbs('tus'))).not.toContain(location.split('/').pop());
    await fs.access(ctx.storage.privateAbs(`originals/${videoId}/source`));
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/media/../private/originals/${videoId}/source` }))
        .statusCode,
    ).toBe(404);
  });

  it('says an unfinished upload is not finished, and forgets a terminated one', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: tusHeaders('owner', { 'upload-length': '100' }),
    });
    const location = String(created.headers.location);
    const early = await ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: headers.owner });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: 'The upload is not finished yet.' });
    const removed = await ctx.app.inject({ method: 'DELETE', url: location, headers: tusHeaders('owner') });
    expect(removed.statusCode).toBe(204);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: headers.owner })).statusCode,
    ).toBe(404);
  });

  it('speaks JSON for protocol errors too', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/v1/uploads', headers: headers.owner });
    expect(res.statusCode).toBe(412);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ message: 'Tus-Resumable Required' });
    const noLength = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: tusHeaders('owner'),
    });
    expect(noLength.statusCode).toBe(400);
    expect(typeof noLength.json().message).toBe('string');
    const options = await ctx.app.inject({ method: 'OPTIONS', url: '/v1/uploads' });
    expect(options.statusCode).toBe(204);
    expect(options.headers['tus-max-size']).toBe(String(2 * 1024 ** 3));
  });
});

describe('files that are not acceptable videos (ffprobe decides, not the name)', () => {
  const refusals = async (file: string | Buffer, reason: string, name = 'clip.mp4') => {
    const res = await multipartUpload('owner', file, name);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: `Video upload failed: ${reason}`, errors: { video: [reason] } });
    // The attempt is on the creator's list with its reason; nothing of the file is kept.
    const [row] = await ctx.database.db
      .select()
      .from(t.videos)
      .where(eq(t.videos.userId, idOf('owner')))
      .orderBy(t.videos.id)
      .then((rows) => rows.slice(-1));
    expect(row).toMatchObject({ status: 'error', statusReason: reason, sourcePath: null });
    await expect(fs.access(ctx.storage.privateAbs(`originals/${row?.id}`))).rejects.toThrow();
  };

  it('refuses a text file named .mp4', async () => {
    await refusals(Buffer.from('just some text, not a video\n'.repeat(20)), 'The file is not a video.');
  });

  it('refuses a truncated MP4, index at the end or at the front', async () => {
    await refusals(await truncate(clip, 'half.mp4'), 'The video file is incomplete or damaged.');
    const faststart = await makeClip(fixtures, 'fs.mp4', {
      width: 180,
      height: 320,
      seconds: 4,
      faststart: true,
    });
    await refusals(await truncate(faststart, 'half-fs.mp4'), 'The video file is incomplete or damaged.');
  });

  it('refuses a 40-minute video', async () => {
    await refusals(await makeLongClip(fixtures, 40), 'The video is longer than 30 minutes.');
  });

  it('refuses a 31-minute video whose header says one minute', async () => {
    const long = await makeLongClip(fixtures, 31, 'mkv');
    const file = await understateDuration(long, 60, 'understated.mkv');
    await refusals(file, 'The video is longer than 30 minutes.', 'understated.mkv');
  });

  it('refuses an image and an empty file', async () => {
    const png = path.join(fixtures, 'still.png');
    await ffmpeg(['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1', png]);
    await refusals(png, 'The file is not a video.', 'still.mp4');
    await refusals(Buffer.alloc(0), 'The file is not a video.');
  });

  it('answers a refused tus upload on its last PATCH, at GET …/video and on HEAD', async () => {
    const { location, patched } = await tusUpload('owner', Buffer.from('plain text\n'.repeat(100)));
    expect(patched.statusCode).toBe(422);
    expect(patched.json()).toEqual({
      message: 'Video upload failed: The file is not a video.',
      errors: { video: ['The file is not a video.'] },
    });
    const again = await ctx.app.inject({ method: 'GET', url: `${location}/video`, headers: headers.owner });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('Video upload failed: The file is not a video.');
    expect(
      (await ctx.app.inject({ method: 'HEAD', url: location, headers: tusHeaders('owner') })).statusCode,
    ).toBe(422);
  });

  it('asks for a file when the form has none', async () => {
    const body = multipartBody({ title: 'no file here' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/videos/upload',
      headers: { ...headers.owner, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ video: ['Choose a video file to upload.'] });
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/v1/videos/upload',
      headers: headers.owner,
      payload: { video: 'x' },
    });
    expect(json.statusCode).toBe(422);
  });
});

describe('the size limit (2 GB; 64 KB here through UPLOAD_MAX_BYTES)', () => {
  let small: TestContext;
  let auth: Record<string, string>;
  beforeAll(async () => {
    small = await createTestContext({ config: { uploadMaxBytes: 64 * 1024 } });
    auth = await bearer(small, (await insertUser(small)).id);
  });
  afterAll(() => small.close());

  it('refuses a tus upload declared larger, before a byte is sent', async () => {
    const res = await small.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-length': String(64 * 1024 + 1) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'Video upload failed: The file is larger than 64 KB.',
      errors: { video: ['The file is larger than 64 KB.'] },
    });
  });

  it('stops a multipart upload at the limit and keeps nothing', async () => {
    const body = multipartBody({
      video: { filename: 'big.mp4', contentType: 'video/mp4', data: Buffer.alloc(100 * 1024, 7) },
    });
    const res = await small.app.inject({
      method: 'POST',
      url: '/v1/videos/upload',
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Video upload failed: The file is larger than 64 KB.');
    expect(await fs.readdir(small.storage.privateAbs('incoming'))).toEqual([]);
    expect(await small.database.db.select().from(t.videos)).toEqual([]);
  });
});

describe('POST /v1/videos/upload-details', () => {
  const details = (who: string, body: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/v1/videos/upload-details',
      headers: headers[who],
      payload: body as object,
    });
  const fresh = (status: 'uploaded' | 'approved' = 'uploaded') =>
    insertVideo(ctx, { userId: idOf('owner'), status, title: '', publishAt: UNPUBLISHED_AT });
  const future = () => {
    // Wall-clock time in Paris, a day ahead, as a datetime-local picker sends it.
    const at = new Date(Date.now() + 24 * 3600_000);
    const parts = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).format(at);
    return { local: parts.replace(' ', 'T'), at: new Date(Math.floor(at.getTime() / 60_000) * 60_000) };
  };

  it('is for the owner and the managers of their studio', async () => {
    const video = await fresh();
    for (const [who, status] of [
      ['guest', 401],
      ['user', 403],
      ['other', 403],
      ['channel', 403],
      ['manager', 200],
      ['owner', 200],
    ] as const) {
      const res = await details(who, { videoId: video.id, title: `By ${who}` });
      expect(res.statusCode, `${who} ${res.body}`).toBe(status);
      if (status === 403) expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    }
    expect((await videoRow(video.id))?.title).toBe('By owner');
    expect((await details('owner', { videoId: 99999999, title: 'x' })).json()).toEqual({
      message: 'Video not found',
    });
  });

  it('answers every rule with the spec’s words', async () => {
    const video = await fresh();
    const errors = async (body: Record<string, unknown>) => {
      const res = await details('owner', { videoId: video.id, title: 'Ok', ...body });
      expect(res.statusCode, res.body).toBe(422);
      return res.json();
    };
    expect(await errors({ videoId: undefined })).toEqual({
      message: 'Missing video identifier.',
      errors: { videoId: ['Missing video identifier.'] },
    });
    expect((await errors({ videoId: 'abc' })).message).toBe('Missing video identifier.');
    expect((await errors({ title: '   ' })).errors).toEqual({ title: ['Title is required.'] });
    expect((await errors({ title: undefined })).message).toBe('Title is required.');
    expect((await errors({ tags: 'a' })).errors.tags).toEqual(['Tag must be at least 2 characters long']);
    expect((await errors({ tags: 'neon,Neon' })).errors.tags).toEqual(['Cannot add the same tag twice']);
    expect((await errors({ tags: 'neon lights' })).errors.tags).toEqual(['Tags cannot have spaces.']);
    expect((await errors({ tags: '#neon' })).errors.tags).toEqual(['Tags cannot have #.']);
    expect((await errors({ schedule: true })).errors).toEqual({ uploadDate: ['Select a date'] });
    expect(
      (await errors({ uploadDate: '2020-05-01T10:00', uploadDateTimezone: 'Europe/Paris' })).errors,
    ).toEqual({ uploadDate: ['Selected date is in the past'] });
    expect((await errors({ uploadDate: '2030-02-30T10:00', uploadDateTimezone: 'UTC' })).errors).toEqual({
      uploadDate: ['Choose a valid date and time.'],
    });
    expect(
      (await errors({ uploadDate: '2030-05-01T10:00', uploadDateTimezone: 'Mars/Olympus' })).errors,
    ).toEqual({
      uploadDateTimezone: ['Choose a time zone.'],
    });
    expect((await errors({ is_nsfw: 'maybe' })).errors).toEqual({
      is_nsfw: ['Not safe for work must be true or false.'],
    });
    // Several problems at once: each field says its own.
    expect((await errors({ title: '', tags: 'a,#b' })).errors).toEqual({
      title: ['Title is required.'],
      tags: ['Tags cannot have #.', 'Tag must be at least 2 characters long'],
    });
    expect((await videoRow(video.id))?.title).toBe('');
  });

  it('stores title, tags (created as needed, in order), nsfw; unscheduled goes public once processed', async () => {
    const [neon] = await ctx.database.db.insert(t.tags).values({ name: 'Neon', slug: 'neon' }).returning();
    const video = await fresh('approved');
    const start = () => ctx.app.inject({ method: 'GET', url: `/v1/videos/start/${video.id}` });
    // Processed before the details came: still private.
    expect((await start()).statusCode).toBe(404);
    const res = await details('owner', {
      videoId: String(video.id),
      title: '  Night drive  ',
      tags: 'retro-wave, neon,Chill_Out',
      is_nsfw: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Video uploaded successfully');
    expect(body.data).toMatchObject({
      id: video.id,
      title: 'Night drive',
      slug: 'night-drive',
      status: 'approved',
    });
    expect(body.data.tags.map((tag: { name: string; slug: string }) => [tag.name, tag.slug])).toEqual([
      ['retro-wave', 'retro-wave'],
      ['Neon', 'neon'],
      ['Chill_Out', 'chill-out'],
    ]);
    expect(body.data.tags[1].id).toBe(neon?.id);
    expect(await videoRow(video.id)).toMatchObject({ isNsfw: true, uploadTimezone: null });
    expect((await videoRow(video.id))?.publishAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await start()).statusCode).toBe(200);
    // Editing again replaces the tags.
    await details('owner', { videoId: video.id, title: 'Night drive', tags: 'neon' });
    const tags = await ctx.database.db.select().from(t.videoTags).where(eq(t.videoTags.videoId, video.id));
    expect(tags.map((x) => x.tagId)).toEqual([neon?.id]);
  });

  it('schedules in the creator’s time zone; the video stays out of every feed until then', async () => {
    const video = await fresh('approved');
    const { local, at } = future();
    const res = await details('owner', {
      videoId: video.id,
      title: 'Tomorrow',
      schedule: true,
      uploadDate: local,
      uploadDateTimezone: 'Europe/Paris',
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await videoRow(video.id);
    expect(row?.publishAt.toISOString()).toBe(at.toISOString());
    expect(row?.uploadTimezone).toBe('Europe/Paris');
    for (const url of [`/v1/videos/start/${video.id}`]) {
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    const feed = await ctx.app.inject({ method: 'GET', url: '/v1/videos?per_page=50' });
    expect(feed.json().data.map((v: { id: number }) => v.id)).not.toContain(video.id);
    // The owner sees it (with its status) on their own list meanwhile.
    const own = await ctx.app.inject({
      method: 'GET',
      url: `/v1/users/${ids.owner}/videos`,
      headers: headers.owner,
    });
    expect(own.json().data.map((v: { id: number }) => v.id)).toContain(video.id);
    // Time passes.
    await ctx.database.db
      .update(t.videos)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(t.videos.id, video.id));
    expect((await ctx.app.inject({ method: 'GET', url: `/v1/videos/start/${video.id}` })).statusCode).toBe(
      200,
    );
  });

  it('starts processing if nothing has started it, and never twice', async () => {
    const video = await fresh('uploaded');
    expect(await liveJobsOf(ctx.database, video.id)).toEqual([]);
    await details('owner', { videoId: video.id, title: 'Go' });
    expect((await liveJobsOf(ctx.database, video.id)).map((j) => j.name)).toEqual(['video-preprocess']);
    await details('owner', { videoId: video.id, title: 'Go again' });
    expect(await liveJobsOf(ctx.database, video.id)).toHaveLength(1);
  });

  it('explains a video whose upload failed instead of storing details for it', async () => {
    const video = await insertVideo(ctx, {
      userId: idOf('owner'),
      status: 'error',
      statusReason: 'The file is not a video.',
    });
    const res = await details('owner', { videoId: video.id, title: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Video upload failed: The file is not a video.');
  });
});

describe('why a video failed (statusReason), for the people who manage it', () => {
  let creator: number;
  beforeAll(async () => {
    const [owner] = await ctx.database.db
      .select()
      .from(t.users)
      .where(eq(t.users.id, idOf('owner')));
    // A creator of their own in the owner's studio: a short list, managed by the same manager.
    const member = await insertUser(ctx, { studioId: owner?.studioId, studioRole: 'member' });
    creator = member.id;
    headers.member = await bearer(ctx, creator);
  });

  const listOf = async (who: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/users/${creator}/videos`,
      headers: headers[who],
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as ({ id: number } & Record<string, unknown>)[];
  };

  it('tells the creator and their studio’s manager why an upload ended in error', async () => {
    expect((await multipartUpload('member', Buffer.from('not a video\n'.repeat(50)))).statusCode).toBe(422);
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.userId, creator));
    if (!row) throw new Error('video row expected');
    for (const who of ['member', 'manager']) {
      expect(
        (await listOf(who)).find((v) => v.id === row.id),
        who,
      ).toMatchObject({
        status: 'error',
        statusReason: 'The file is not a video.',
      });
    }
    for (const who of ['guest', 'user', 'other', 'owner']) {
      expect(
        (await listOf(who)).map((v) => v.id),
        who,
      ).not.toContain(row.id);
    }
  });

  it('never tells anyone else, even about a video they may watch', async () => {
    // A public video still carrying a note: the field itself must follow who is asking.
    const video = await insertVideo(ctx, { userId: creator, statusReason: 'Held back once for review.' });
    expect((await listOf('member')).find((v) => v.id === video.id)?.statusReason).toBe(
      'Held back once for review.',
    );
    for (const who of ['guest', 'user', 'other', 'owner', 'channel']) {
      const shown = (await listOf(who)).find((v) => v.id === video.id);
      expect(shown, who).toBeDefined();
      expect(shown, who).not.toHaveProperty('statusReason');
      for (const url of ['/v1/videos?per_page=50', `/v1/videos/start/${video.id}`, '/v1/discover']) {
        const res = await ctx.app.inject({ method: 'GET', url, headers: headers[who] });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, `${who} ${url}`).not.toContain('statusReason');
      }
    }
  });
});

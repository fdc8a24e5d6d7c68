// Files at rest: identity documents, originals, uploads in progress and work folders (DATA_DIR/private),
// mailed links (DATA_DIR/mail) and the database (DATA_DIR/pgdata) are this user's only, whatever the umask:
// folders 0700, files 0600. Public media (DATA_DIR/media) keep the modes the umask gives, since a web
// server may serve them.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, pgliteDir } from '../../server/db/client';
import * as t from '../../server/db/schema';
import { createDeliver } from '../../server/mail/mailer';
import { originalPath } from '../../server/media/pipeline';
import { LocalStorage } from '../../server/media/storage';
import { multipartBody, verificationFields } from './form';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { makeImage } from './images';
import { makeClip } from './media-fixtures';
import { bearer } from './social-helpers';

let ctx: TestContext;
let clip: Buffer;
let scratch: string;
/** What the umask gives a file or folder made without a mode: public media must keep exactly that. */
let umask: number;

beforeAll(async () => {
  ctx = await createTestContext();
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-modes-'));
  const fixtures = await fs.mkdtemp(path.join(scratch, 'fixtures-'));
  clip = await fs.readFile(await makeClip(fixtures, 'clip.mp4', { width: 180, height: 320, seconds: 2 }));
  const probe = path.join(scratch, 'umask-probe');
  await fs.writeFile(probe, '');
  umask = ~(await fs.stat(probe)).mode & 0o666;
});
afterAll(async () => {
  await ctx.close();
  await fs.rm(scratch, { recursive: true, force: true });
});

const modeOf = async (file: string) => (await fs.stat(file)).mode & 0o777;

/** Asserts `file` and every folder from `root` down to it are closed to group and others. */
async function expectPrivate(root: string, file: string) {
  expect(await modeOf(file), file).toBe(0o600);
  for (let dir = path.dirname(file); dir.startsWith(root); dir = path.dirname(dir)) {
    expect(await modeOf(dir), dir).toBe(0o700);
  }
  expect((await modeOf(file)) & 0o077).toBe(0);
}

describe('DATA_DIR/private', () => {
  it('keeps identity documents 0600 in 0700 folders, and the avatar in media as the umask makes it', async () => {
    const creator = await insertUser(ctx, { verificationStatus: 'none' });
    const [jpg, png] = await Promise.all([makeImage('jpg', 320, 200), makeImage('png', 320, 200)]);
    const image = (data: Buffer, type: string) => ({ filename: 'x', contentType: type, data });
    const { payload, headers } = multipartBody({
      ...verificationFields(),
      front_picture_id: image(jpg, 'image/jpeg'),
      back_picture_id: image(png, 'image/png'),
      face_picture_id: image(jpg, 'image/jpeg'),
      signature: image(png, 'image/png'),
    });
    const auth = await bearer(ctx, creator.id);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/profile/verification',
      payload,
      headers: { ...headers, ...auth },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [request] = await ctx.database.db
      .select()
      .from(t.verificationRequests)
      .where(eq(t.verificationRequests.userId, creator.id));
    const documents = [
      request?.frontPicturePath,
      request?.backPicturePath,
      request?.facePicturePath,
      request?.signaturePath,
    ];
    expect(documents.every(Boolean)).toBe(true);
    for (const relative of documents) {
      await expectPrivate(ctx.storage.privateRoot, ctx.storage.privateAbs(relative as string));
    }
    expect(await modeOf(ctx.storage.privateRoot)).toBe(0o700);

    // Public media: as before, a web server may read them.
    const form = multipartBody({ profile_photo: image(png, 'image/png') });
    const avatar = await ctx.app.inject({
      method: 'POST',
      url: '/v1/profile',
      payload: form.payload,
      headers: { ...form.headers, ...auth },
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, creator.id));
    const stored = ctx.storage.abs(row?.avatarPath as string);
    expect(await modeOf(stored)).toBe(0o666 & ~umask);
    expect(await modeOf(path.dirname(stored))).toBe(0o777 & ~umask);
  });

  it('keeps a tus upload in progress (bytes and note) 0600, and the original it becomes', async () => {
    const creator = await insertUser(ctx);
    const tus = { ...(await bearer(ctx, creator.id)), 'tus-resumable': '1.0.0' };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/v1/uploads',
      headers: { ...tus, 'upload-length': String(clip.length) },
    });
    expect(created.statusCode).toBe(201);
    const location = String(created.headers.location);
    const id = location.split('/').pop() as string;
    const half = Math.floor(clip.length / 2);
    const patch = (offset: number, bytes: Buffer) =>
      ctx.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...tus,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        payload: bytes,
      });
    expect((await patch(0, clip.subarray(0, half))).statusCode).toBe(204);
    await expectPrivate(ctx.storage.privateRoot, ctx.storage.privateAbs(`tus/${id}`));
    await expectPrivate(ctx.storage.privateRoot, ctx.storage.privateAbs(`tus/${id}.json`));

    const done = await patch(half, clip.subarray(half));
    expect(done.statusCode, done.body).toBe(204);
    const videoId = Number(done.headers['video-id']);
    await expectPrivate(ctx.storage.privateRoot, ctx.storage.privateAbs(originalPath(videoId)));
  });

  it('keeps the original of a multipart upload 0600 too, and work folders 0700', async () => {
    const creator = await insertUser(ctx);
    const form = multipartBody({ video: { filename: 'clip.mp4', contentType: 'video/mp4', data: clip } });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/videos/upload',
      payload: form.payload,
      headers: { ...form.headers, ...(await bearer(ctx, creator.id)) },
    });
    expect(res.statusCode, res.body).toBe(201);
    await expectPrivate(ctx.storage.privateRoot, ctx.storage.privateAbs(originalPath(res.json().videoId)));
    for (const work of ['tmp', 'incoming', 'tus']) {
      expect(await modeOf(await ctx.storage.workDir(work))).toBe(0o700);
    }
  });

  it('closes a private root an older version left world-readable, and leaves DATA_DIR as it is', async () => {
    const dataDir = path.join(scratch, 'old-install');
    await fs.mkdir(path.join(dataDir, 'private', 'originals', '7'), { recursive: true, mode: 0o755 });
    await fs.chmod(path.join(dataDir, 'private'), 0o755);
    const storage = new LocalStorage(dataDir);
    await storage.workDir('tmp');
    expect(await modeOf(path.join(dataDir, 'private'))).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'private', 'tmp'))).toBe(0o700);

    // A fresh DATA_DIR: made as the umask says, only private/ below it is closed.
    const fresh = path.join(scratch, 'fresh-install');
    const file = path.join(scratch, 'document.jpg');
    await fs.writeFile(file, 'id card');
    await new LocalStorage(fresh).putPrivate('verification/1/abc/front_picture_id.jpg', file);
    expect(await modeOf(fresh)).toBe(0o777 & ~umask);
    await expectPrivate(
      path.join(fresh, 'private'),
      path.join(fresh, 'private', 'verification/1/abc/front_picture_id.jpg'),
    );
  });
});

describe('DATA_DIR/mail', () => {
  it('writes each .eml 0600 in a 0700 outbox, closing one an older version left open', async () => {
    const dataDir = path.join(scratch, 'mail-install');
    const deliver = createDeliver({ smtpUrl: undefined, dataDir, mailFrom: 'A <a@example.test>' }, () => {});
    await deliver({ to: 'b@example.test', subject: 'Sign in', text: 'https://example.test/login?token=x' });
    const outbox = path.join(dataDir, 'mail');
    const [name] = await fs.readdir(outbox);
    await expectPrivate(outbox, path.join(outbox, name as string));
    expect(await modeOf(outbox)).toBe(0o700);
    expect(await modeOf(dataDir)).toBe(0o777 & ~umask);

    await fs.chmod(outbox, 0o755);
    await deliver({ to: 'b@example.test', subject: 'Again', text: 'https://example.test/login?token=y' });
    expect(await modeOf(outbox)).toBe(0o700);
    for (const file of await fs.readdir(outbox)) expect(await modeOf(path.join(outbox, file))).toBe(0o600);
  });
});

describe('DATA_DIR/pgdata', () => {
  it('opens PGlite in a 0700 folder, also one an older version made 0755', async () => {
    for (const older of [false, true]) {
      const dataDir = path.join(scratch, `db-${older}`);
      if (older) await fs.mkdir(pgliteDir(dataDir), { recursive: true, mode: 0o755 });
      const database = await openDatabase({ dataDir, lock: { role: 'test' } });
      try {
        await database.executeSql('select 1');
        expect(await modeOf(pgliteDir(dataDir))).toBe(0o700);
        // The folder is what closes PGlite's own files (it writes them 0666): nobody else can reach them.
        expect((await modeOf(pgliteDir(dataDir))) & 0o077).toBe(0);
        expect((await fs.readdir(pgliteDir(dataDir))).length).toBeGreaterThan(0);
        expect(await modeOf(dataDir)).toBe(0o777 & ~umask);
      } finally {
        await database.close();
      }
    }
  });
});

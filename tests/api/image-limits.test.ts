// What an uploaded picture may cost: its size is read from its header and checked before anything decodes
// it (a 1 MB PNG can declare 16000x16000 pixels, 780 MB for ffmpeg), pictures are decoded two at a time,
// and file parts a call does not take stream past unread. ffmpeg is the real one, watched through a
// pass-through spy so that a test can tell it never ran.
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as t from '../../server/db/schema';
import { multipartForm } from '../../server/http/doc';
import { installErrorHandler } from '../../server/http/errors';
import { installImageMultipart, readImageForm } from '../../server/http/multipart';
import { ffmpeg } from '../../server/media/ffmpeg';
import {
  checkImageSize,
  createLimiter,
  IMAGE_MAX_PIXELS,
  IMAGE_MAX_SIDE,
  imageSizes,
  imageWork,
  reencodeImage,
} from '../../server/media/images';
import { messages } from '../../src/contract';
import { asProgressive, blackPng, claimingSize, withDecoyApp1 } from './big-images';
import { multipartBody, type Part, verificationFields } from './form';
import { createTestContext, insertUser, type TestContext } from './helpers';
import { makeImage } from './images';
import { bearer } from './social-helpers';

vi.mock('../../server/media/ffmpeg', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../server/media/ffmpeg')>();
  return { ...actual, ffmpeg: vi.fn(actual.ffmpeg) };
});

const p = messages.profile;
let ctx: TestContext;
let png: Buffer;
let jpg: Buffer;
/** 16000x16000, 256 megapixels, in about 750 KB. */
let hugePng: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  [png, jpg, hugePng] = await Promise.all([
    makeImage('png', 400, 300),
    makeImage('jpg', 320, 200),
    blackPng(16000, 16000),
  ]);
});
afterAll(() => ctx.close());
// A block: a function returned from a hook would be run as its teardown.
beforeEach(() => {
  vi.mocked(ffmpeg).mockClear();
});

function deferred() {
  let resolve: () => void = () => {};
  let reject: (err: Error) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
/** Lets every promise callback already due run: what has been started has reached its first wait. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('picture sizes from the header, without decoding', () => {
  it('reads PNG (IHDR) and JPEG (SOF0, progressive SOF2) sizes of real ffmpeg pictures', () => {
    expect(imageSizes(png, 'png')).toEqual([{ width: 400, height: 300 }]);
    expect(imageSizes(hugePng, 'png')).toEqual([{ width: 16000, height: 16000 }]);
    expect(imageSizes(jpg, 'jpeg')).toEqual([{ width: 320, height: 200 }]);
    expect(imageSizes(asProgressive(jpg), 'jpeg')).toEqual([{ width: 320, height: 200 }]);
  });

  it('skips APPn segments by their length: a frame header inside EXIF data is not the picture', () => {
    const decoyed = withDecoyApp1(jpg);
    expect(decoyed.includes(Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x3e, 0x80, 0x3e, 0x80]))).toBe(true);
    expect(imageSizes(decoyed, 'jpeg')).toEqual([{ width: 320, height: 200 }]);
    expect(checkImageSize(decoyed, 'jpeg')).toBe('ok');
  });

  it('checks every picture of a file: a huge one after the first EOI is found past the scan data', () => {
    const twoPictures = Buffer.concat([jpg, claimingSize(jpg, 16000, 16000)]);
    expect(imageSizes(twoPictures, 'jpeg')).toEqual([
      { width: 320, height: 200 },
      { width: 16000, height: 16000 },
    ]);
    expect(checkImageSize(twoPictures, 'jpeg')).toBe('too-large');
  });

  it.each([
    [IMAGE_MAX_SIDE, IMAGE_MAX_PIXELS / IMAGE_MAX_SIDE, 'ok'],
    [IMAGE_MAX_SIDE, IMAGE_MAX_PIXELS / IMAGE_MAX_SIDE + 1, 'too-large'],
    [IMAGE_MAX_SIDE + 1, 10, 'too-large'],
    [10, IMAGE_MAX_SIDE + 1, 'too-large'],
    [16000, 16000, 'too-large'],
    // A height of 0 is given later (DNL): not known before decoding, so not decoded.
    [320, 0, 'unknown'],
  ] as const)('a JPEG declaring %i x %i is %s', (width, height, verdict) => {
    expect(checkImageSize(claimingSize(jpg, width, height), 'jpeg')).toBe(verdict);
  });

  it('knows no size for a JPEG cut before its frame header, a PNG without IHDR or with a bad one', () => {
    expect(checkImageSize(jpg.subarray(0, 20), 'jpeg')).toBe('unknown');
    expect(checkImageSize(png.subarray(0, 16), 'png')).toBe('unknown');
    const garbled = Buffer.from(png);
    garbled.writeUInt32BE(16000, 16);
    expect(checkImageSize(garbled, 'png')).toBe('unknown');
  });
});

describe('the image queue', () => {
  it('runs two tasks at a time; the others start in turn as slots free, failures free theirs too', async () => {
    const limiter = createLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      limiter.run(async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.waiting]).toEqual([2, 2]);

    gates[1]?.resolve();
    expect(await runs[1]).toBe(1);
    await settle();
    expect(started).toEqual([0, 1, 2]);
    expect([limiter.active, limiter.waiting]).toEqual([2, 1]);

    gates[0]?.reject(new Error('ffmpeg failed'));
    await expect(runs[0]).rejects.toThrow('ffmpeg failed');
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);

    gates[2]?.resolve();
    gates[3]?.resolve();
    expect(await Promise.all(runs.slice(2))).toEqual([2, 3]);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  it('holds a re-encode until one of the two slots is free: ffmpeg does not start before', async () => {
    const gate = deferred();
    const holders = [imageWork.run(() => gate.promise), imageWork.run(() => gate.promise)];
    let stored = false;
    const box = { width: 150, height: 150, crop: true };
    const reencode = reencodeImage(png, 'png', box, async (file) => {
      stored = (await fs.stat(file)).size > 0;
    });
    await vi.waitFor(() => expect(imageWork.waiting).toBe(1));
    expect(ffmpeg).not.toHaveBeenCalled();
    gate.resolve();
    await Promise.all([...holders, reencode]);
    expect(ffmpeg).toHaveBeenCalledTimes(1);
    expect(stored).toBe(true);
  });
});

describe('file parts a call does not take', () => {
  /** A call that takes `photo`, reporting which files it kept and which parts were read into memory. */
  async function formApp() {
    const app = Fastify();
    installErrorHandler(app);
    await app.register(async (scope) => {
      await installImageMultipart(scope);
      const doc = {
        summary: 'A form with one picture',
        rawBody: { contentType: 'multipart/form-data', schema: multipartForm({ photo: 'A picture.' }) },
        responses: {},
      };
      scope.post('/form', { config: { doc } }, async (request: FastifyRequest) => {
        const buffered: string[] = [];
        const parts = request.parts.bind(request);
        request.parts = ((...args: Parameters<typeof parts>) => {
          const source = parts(...args);
          return (async function* () {
            for await (const part of source) {
              if (part.type === 'file') {
                const toBuffer = part.toBuffer.bind(part);
                part.toBuffer = () => {
                  buffered.push(part.fieldname);
                  return toBuffer();
                };
              }
              yield part;
            }
          })();
        }) as typeof request.parts;
        const form = await readImageForm(request);
        return { files: Object.keys(form.files), buffered, fields: form.fields };
      });
    });
    return app;
  }

  const post = (app: Awaited<ReturnType<typeof formApp>>, parts: Record<string, Part>) => {
    const { payload, headers } = multipartBody(parts);
    return app.inject({ method: 'POST', url: '/form', payload, headers });
  };

  it('drains a 15 MB junk part and a second copy of the picture unread; the picture and fields arrive', async () => {
    const app = await formApp();
    const junk = Buffer.alloc(15 * 1024 * 1024, 0x61);
    const { payload, headers } = multipartBody({
      junk: { filename: 'junk.bin', contentType: 'application/octet-stream', data: junk },
      photo: { filename: 'a.png', contentType: 'image/png', data: png },
      note: 'kept',
    });
    // The same name twice: the first one counts (multipartBody takes each name once, so append it by hand).
    const boundary = headers['content-type'].split('boundary=')[1] as string;
    const again = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="b.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    const body = Buffer.concat([
      payload.subarray(0, payload.length - `--${boundary}--\r\n`.length),
      again,
      junk.subarray(0, 1024 * 1024),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await app.inject({ method: 'POST', url: '/form', payload: body, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ files: ['photo'], buffered: ['photo'], fields: { note: 'kept' } });
    await app.close();
  });

  it('refuses a form of more than four files (the most any form here takes)', async () => {
    const app = await formApp();
    const file = (name: string): Part => ({ filename: `${name}.png`, contentType: 'image/png', data: png });
    const res = await post(app, {
      photo: file('photo'),
      a: file('a'),
      b: file('b'),
      c: file('c'),
      d: file('d'),
    });
    expect(res.statusCode).toBe(400);
    await app.close();
  });
});

describe('POST /v1/profile: avatar and cover', () => {
  const upload = async (userId: number, parts: Record<string, Part>) => {
    const { payload, headers } = multipartBody(parts);
    return ctx.app.inject({
      method: 'POST',
      url: '/v1/profile',
      payload,
      headers: { ...headers, ...(await bearer(ctx, userId)) },
    });
  };
  const storedImages = async (userId: number) =>
    fs.readdir(ctx.storage.abs(`users/${userId}`)).catch(() => [] as string[]);

  it('refuses a 16000x16000 PNG avatar by its header: 422, ffmpeg never runs, nothing is stored', async () => {
    const owner = await insertUser(ctx);
    const res = await upload(owner.id, {
      profile_photo: { filename: 'a.png', contentType: 'image/png', data: hugePng },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: p.imageDimensions,
      errors: { profile_photo: [p.imageDimensions] },
    });
    expect(ffmpeg).not.toHaveBeenCalled();
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, owner.id));
    expect(row?.avatarPath).toBeNull();
    expect(await storedImages(owner.id)).toEqual([]);
  });

  it('refuses a cover JPEG declaring 9000x4000 under its own field; a normal avatar still goes through', async () => {
    const owner = await insertUser(ctx);
    const wide = await upload(owner.id, {
      profile_cover: { filename: 'c.jpg', contentType: 'image/jpeg', data: claimingSize(jpg, 9000, 4000) },
    });
    expect(wide.statusCode).toBe(422);
    expect(wide.json().errors).toEqual({ profile_cover: [p.imageDimensions] });
    expect(ffmpeg).not.toHaveBeenCalled();

    const fine = await upload(owner.id, {
      profile_photo: { filename: 'a.png', contentType: 'image/png', data: png },
    });
    expect(fine.statusCode, fine.body).toBe(200);
    expect(ffmpeg).toHaveBeenCalledTimes(1);
    expect(await storedImages(owner.id)).toHaveLength(1);
  });
});

describe('POST /v1/profile/verification: the four documents', () => {
  const fields = verificationFields();
  const documents = ['front_picture_id', 'back_picture_id', 'face_picture_id', 'signature'] as const;

  it.each(documents)(
    'refuses a 16000x16000 PNG as %s: 422 under it, nothing decoded or kept',
    async (field) => {
      const creator = await insertUser(ctx, { verificationStatus: 'none' });
      const images: Record<string, Part> = Object.fromEntries(
        documents.map((name) => [name, { filename: `${name}.jpg`, contentType: 'image/jpeg', data: jpg }]),
      );
      images[field] = { filename: `${field}.png`, contentType: 'image/png', data: hugePng };
      const { payload, headers } = multipartBody({ ...fields, ...images });
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/profile/verification',
        payload,
        headers: { ...headers, ...(await bearer(ctx, creator.id)) },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: p.imageDimensions, errors: { [field]: [p.imageDimensions] } });
      expect(ffmpeg).not.toHaveBeenCalled();
      const requests = await ctx.database.db
        .select()
        .from(t.verificationRequests)
        .where(eq(t.verificationRequests.userId, creator.id));
      expect(requests).toEqual([]);
      const kept = await fs
        .readdir(path.join(ctx.storage.privateRoot, 'verification', String(creator.id)))
        .catch(() => []);
      expect(kept).toEqual([]);
    },
  );
});

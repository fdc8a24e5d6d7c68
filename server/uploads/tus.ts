// Resumable uploads (tus 1.0, @tus/server) behind Fastify. The bytes in progress live where the media
// storage is: on local disk (@tus/file-store under DATA_DIR/private/tus), or in the S3 bucket
// (@tus/s3-store: each upload's parts and its .info object at the bucket's top level), so that any API
// node can take any PATCH of an upload. A finished upload is handed to the pipeline as a local file.
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import type { S3Store } from '@tus/s3-store';
import { ERRORS, Server as TusServer, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatBytes, messages } from '../../src/contract';
import type { UserRow } from '../auth/tokens';
import { type MediaStorage, S3Storage, s3ClientOptions, s3Sdk } from '../media/storage';
import { type Arrival, arrivalOrder } from './arrivals';

const m = messages.upload;

/** Unfinished uploads are kept this long for a resume, then removed with their session. */
export const UPLOAD_EXPIRY_MS = 24 * 3600_000;
/** Headers the final PATCH of a tus upload carries (and browsers may read) with the new video. */
export const VIDEO_ID_HEADER = 'Video-Id';
export const SCREENSHOT_HEADER = 'Video-Screenshot';

/** What the routes decide when tus creates or completes an upload. */
export interface TusHooks {
  created(user: UserRow, upload: Upload): Promise<void>;
  /** The upload's bytes as a local file (to move or remove); answers the headers of the final PATCH. */
  finished(upload: Upload, file: string): Promise<Record<string, string>>;
}

/** Where the bytes of uploads in progress live, and how a finished one becomes a local file. */
interface UploadBytes {
  datastore: FileStore | S3Store;
  /** The finished upload's bytes as a local file, which the caller then owns. */
  take(id: string): Promise<string>;
  /** Where `take` leaves that file: a crash may find it there (server/media/upload-recovery.ts). */
  takenFile(id: string): Promise<string>;
  /** tus's own note about an upload, dropped once its file has become a video. */
  forget(id: string): Promise<void>;
}

/**
 * @tus/file-store makes its files with the process umask (0644 as a rule). An upload in progress is as
 * private as the original it becomes: its bytes and its note (the .json, with the file's name) are this
 * user's only, from before the first byte.
 */
class PrivateFileStore extends FileStore {
  override async create(upload: Upload): Promise<Upload> {
    const created = await super.create(upload);
    for (const name of [upload.id, `${upload.id}.json`])
      await fs.chmod(path.join(this.directory, name), 0o600);
    return created;
  }
}

async function localBytes(storage: MediaStorage): Promise<UploadBytes> {
  const directory = await storage.workDir('tus');
  const datastore = new PrivateFileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  return {
    datastore,
    async take(id) {
      // The file now lives on as the video's original (or is gone); only tus's note about it remains.
      await datastore.configstore.delete(id);
      return path.join(directory, id);
    },
    takenFile: async (id) => path.join(directory, id),
    forget: (id) => datastore.configstore.delete(id),
  };
}

async function bucketBytes(
  storage: S3Storage,
  s3: NonNullable<import('../config').Config['s3']>,
): Promise<UploadBytes> {
  // Loaded only with a bucket: 160 ms of a start that local uploads do without.
  const { S3Store } = await import('@tus/s3-store');
  const { DeleteObjectsCommand, GetObjectCommand } = s3Sdk();
  const datastore = new S3Store({
    // Each PATCH of tus-js-client's default chunking becomes whole parts; smaller tails wait in a .part.
    partSize: 8 * 1024 * 1024,
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
    // Object tags are not in every S3-compatible server; expiry goes by the multipart upload's age.
    useTags: false,
    s3ClientConfig: { bucket: s3.bucket, ...s3ClientOptions(s3) },
  });
  return {
    datastore,
    async take(id) {
      const file = path.join(await storage.workDir('incoming'), id);
      const object = await storage.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: id }));
      await pipeline(object.Body as Readable, createWriteStream(file, { mode: 0o600 }));
      await storage.client.send(
        new DeleteObjectsCommand({
          Bucket: s3.bucket,
          Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true },
        }),
      );
      return file;
    },
    takenFile: async (id) => path.join(await storage.workDir('incoming'), id),
    // `take` removed the bucket's objects already.
    forget: async () => undefined,
  };
}

export interface TusBridge {
  /**
   * A request on one upload (`:id`) has arrived: a route's onRequest, before any check that waits. A PATCH
   * that a later request on the same upload overtook is then refused (arrivals.ts says why).
   */
  arrive(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): void;
  /** Passes a Fastify request to tus; `user` is who the route checked, for the creation hook. */
  handle(request: FastifyRequest, reply: FastifyReply, user?: UserRow): Promise<FastifyReply>;
  /** Removes expired unfinished uploads' bytes. */
  cleanUpExpired(): Promise<number>;
  /** Where a finished upload's bytes lie as a local file, and how tus forgets it (upload-recovery.ts). */
  takenFile(id: string): Promise<string>;
  forget(id: string): Promise<void>;
}

export async function createTus(
  opts: {
    storage: MediaStorage;
    s3: import('../config').Config['s3'];
    maxSize: number;
    logError: (details: object, message: string) => void;
  },
  hooks: TusHooks,
): Promise<TusBridge> {
  const bytes =
    opts.storage instanceof S3Storage && opts.s3
      ? await bucketBytes(opts.storage, opts.s3)
      : await localBytes(opts.storage);
  // An upload of unknown length would become a session of size 0, "complete" at its first PATCH: a video in
  // error. Not offered (OPTIONS no longer lists it), so tus refuses Upload-Defer-Length before it creates
  // anything, and errorOf words the refusal.
  bytes.datastore.extensions = bytes.datastore.extensions.filter((e) => e !== 'creation-defer-length');
  /** Who is behind each request tus handles: set by the route after its checks, read by the hooks. */
  const uploaderOf = new WeakMap<Request, UserRow>();
  const tus = new TusServer({
    path: '/v1/uploads',
    datastore: bytes.datastore,
    maxSize: opts.maxSize,
    // Relative: a Host header cannot point a client elsewhere, and proxies need no forwarding rules.
    relativeLocation: true,
    exposedHeaders: [VIDEO_ID_HEADER, SCREENSHOT_HEADER],
    // The file of a finished upload has become the video's original; there is nothing left to delete.
    disableTerminationForFinishedUploads: true,
    async onUploadCreate(req, upload) {
      const user = uploaderOf.get(req);
      if (!user) throw { status_code: 401, body: m.uploadNotFound };
      await hooks.created(user, upload);
      return {};
    },
    async onUploadFinish(_req, upload) {
      const headers = await hooks.finished(upload, await bytes.take(upload.id));
      return { headers };
    },
  });

  /**
   * tus answers 5xx where the server is not failing: a request that waited too long for another request on
   * the same upload (423 Locked: tus clients retry it) and an extension we do not offer (a client error).
   */
  const statusOf = (status: number, text: string) =>
    text === ERRORS.ERR_LOCK_TIMEOUT.body ? 423 : status === 501 ? 400 : status;

  function errorOf(
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
      const reason = m.tooLarge(formatBytes(opts.maxSize));
      return { message: m.failed(reason), errors: { video: [reason] } };
    }
    if (text === ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION.body.trim())
      return { message: m.lengthRequired };
    if (status === 404 || status === 410) return { message: m.uploadNotFound };
    if (text === ERRORS.ERR_LOCK_TIMEOUT.body) return { message: m.uploadBusy };
    if (status >= 500 && status !== 501) {
      opts.logError({ tus: text }, 'tus request failed');
      return { message: messages.server.internal };
    }
    return { message: text || messages.server.badRequest };
  }

  /** Hands a Web request to tus, on behalf of `user` (for the creation hook). */
  function run(webRequest: Request, user: UserRow | undefined): Promise<Response> {
    if (user) uploaderOf.set(webRequest, user);
    return tus.handleWeb(webRequest);
  }

  /** tus's answer as Fastify's: its headers, our status codes and JSON error bodies; `status` for a success. */
  async function answer(reply: FastifyReply, response: Response, method: string, status = response.status) {
    response.headers.forEach((value, name) => {
      if (name !== 'content-type' && name !== 'content-length') reply.header(name, value);
    });
    if (response.status < 400) {
      const body = response.status === 204 ? '' : await response.text();
      return reply.status(status).send(body || undefined);
    }
    const text = (await response.text()).trim();
    return reply.status(statusOf(response.status, text)).send(errorOf(response.status, text, method));
  }

  /**
   * creation-with-upload (a POST that carries the first bytes) as what it stands for: a creation, then a
   * PATCH from offset 0. tus's own handling of it reads the upload back after the finish hook has made it a
   * video, answers that 404, and the client's retry makes a second video. Answers 201 with `Location` and
   * `Upload-Offset` (and the video's headers once complete), or the PATCH's refusal.
   */
  async function createWithUpload(request: FastifyRequest, reply: FastifyReply, user: UserRow | undefined) {
    // Each half is exactly the request it stands for: no method override turns it into another.
    const override = 'x-http-method-override';
    const bodyHeaders = ['content-type', 'content-length', 'transfer-encoding', override];
    const created = await run(
      new Request(`http://uploads.invalid${pathOf(request)}`, {
        method: 'POST',
        headers: headersOf(request, bodyHeaders),
      }),
      user,
    );
    const location = created.headers.get('location');
    if (created.status !== 201 || !location) return answer(reply, created, 'POST');
    const creationHeaders = [
      'upload-length',
      'upload-defer-length',
      'upload-metadata',
      'upload-concat',
      override,
    ];
    const headers = headersOf(request, creationHeaders);
    headers.set('upload-offset', '0');
    const sent = await run(
      new Request(`http://uploads.invalid${location}`, {
        method: 'PATCH',
        headers,
        body: Readable.toWeb(request.raw) as unknown as BodyInit,
        duplex: 'half',
      } as RequestInit),
      user,
    );
    // The upload exists whatever became of the bytes: the client resumes it, or reads its outcome, there.
    reply.header('Location', location);
    return answer(reply, sent, 'PATCH', 201);
  }

  const order = arrivalOrder();
  const arrivals = new WeakMap<FastifyRequest, Arrival>();
  /** tus's own answer to a PATCH from an offset that is not the upload's: the client asks with HEAD. */
  const overtaken = () =>
    new Response(ERRORS.INVALID_OFFSET.body, {
      status: ERRORS.INVALID_OFFSET.status_code,
      headers: { 'Tus-Resumable': '1.0.0' },
    });

  return {
    arrive(request, reply) {
      const arrival = order.arrive(request.params.id);
      arrivals.set(request, arrival);
      // 'close' comes once the answer is sent, or the connection is gone without one.
      reply.raw.once('close', () => order.leave(arrival));
    },
    cleanUpExpired: () => tus.cleanUpExpiredUploads(),
    takenFile: (id) => bytes.takenFile(id),
    forget: (id) => bytes.forget(id),
    // tus speaks Web Request/Response; Fastify keeps the say over status, headers and error bodies.
    async handle(request, reply, user) {
      if (request.method === 'POST' && request.headers['content-type'] === UPLOAD_BYTES_TYPE)
        return createWithUpload(request, reply, user);
      // Every request that gets here is counted (a HEAD too: it is what overtakes); only a PATCH writes, so
      // only an overtaken PATCH is refused.
      const arrival = arrivals.get(request);
      const wasOvertaken = arrival !== undefined && !order.reach(arrival);
      if (wasOvertaken && request.method === 'PATCH') return answer(reply, overtaken(), request.method);
      const hasBody = request.method === 'POST' || request.method === 'PATCH';
      const webRequest = new Request(`http://uploads.invalid${pathOf(request)}`, {
        method: request.method,
        headers: headersOf(request),
        ...(hasBody ? { body: Readable.toWeb(request.raw) as unknown as BodyInit, duplex: 'half' } : {}),
      } as RequestInit);
      return answer(reply, await run(webRequest, user), request.method);
    },
  };
}

/** The content type of tus bytes, which makes a POST a creation-with-upload. */
const UPLOAD_BYTES_TYPE = 'application/offset+octet-stream';

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] as string;

/** The request's headers for fetch, without those named in `drop` (lower case). */
function headersOf(request: FastifyRequest, drop: readonly string[] = []): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (drop.includes(name)) continue;
    for (const item of [value].flat()) {
      if (item === undefined) continue;
      try {
        headers.append(name, String(item));
      } catch {
        // A header value fetch refuses is no tus header; tus never sees it.
      }
    }
  }
  return headers;
}

/** Removes the files of multipart uploads that a crashed request left behind. */
export async function sweepIncoming(storage: MediaStorage, before: Date) {
  const incoming = await storage.workDir('incoming');
  for (const name of await fs.readdir(incoming)) {
    const file = path.join(incoming, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && stat.mtimeMs < before.getTime()) await fs.rm(file, { force: true });
  }
}

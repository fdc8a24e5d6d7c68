// Resumable uploads (tus 1.0, @tus/server) behind Fastify. The bytes in progress live where the media
// storage is: on local disk (@tus/file-store under DATA_DIR/private/tus), or in the S3 bucket
// (@tus/s3-store: each upload's parts and its .info object at the bucket's top level), so that any API
// node can take any PATCH of an upload. A finished upload is handed to the pipeline as a local file.
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectsCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { ERRORS, Server as TusServer, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatBytes, messages } from '../../src/contract';
import type { UserRow } from '../auth/tokens';
import { type MediaStorage, S3Storage, s3ClientOptions } from '../media/storage';

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
}

async function localBytes(storage: MediaStorage): Promise<UploadBytes> {
  const directory = await storage.workDir('tus');
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  return {
    datastore,
    async take(id) {
      // The file now lives on as the video's original (or is gone); only tus's note about it remains.
      await datastore.configstore.delete(id);
      return path.join(directory, id);
    },
  };
}

function bucketBytes(storage: S3Storage, s3: NonNullable<import('../config').Config['s3']>): UploadBytes {
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
      await pipeline(object.Body as Readable, createWriteStream(file));
      await storage.client.send(
        new DeleteObjectsCommand({
          Bucket: s3.bucket,
          Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true },
        }),
      );
      return file;
    },
  };
}

export interface TusBridge {
  /** Passes a Fastify request to tus; `user` is who the route checked, for the creation hook. */
  handle(request: FastifyRequest, reply: FastifyReply, user?: UserRow): Promise<FastifyReply>;
  /** Removes expired unfinished uploads' bytes. */
  cleanUpExpired(): Promise<number>;
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
      ? bucketBytes(opts.storage, opts.s3)
      : await localBytes(opts.storage);
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

  function errorOf(status: number, text: string): { message: string; errors?: Record<string, string[]> } {
    if (text.startsWith('{')) {
      try {
        return JSON.parse(text) as { message: string };
      } catch {
        // Not ours after all: worded below.
      }
    }
    if (status === 413) {
      const reason = m.tooLarge(formatBytes(opts.maxSize));
      return { message: m.failed(reason), errors: { video: [reason] } };
    }
    if (status === 404 || status === 410) return { message: m.uploadNotFound };
    if (text === ERRORS.ERR_LOCK_TIMEOUT.body) return { message: m.uploadBusy };
    if (status >= 500 && status !== 501) {
      opts.logError({ tus: text }, 'tus request failed');
      return { message: messages.server.internal };
    }
    return { message: text || messages.server.badRequest };
  }

  return {
    cleanUpExpired: () => tus.cleanUpExpiredUploads(),
    // tus speaks Web Request/Response; Fastify keeps the say over status, headers and error bodies.
    async handle(request, reply, user) {
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
      return reply.status(statusOf(response.status, text)).send(errorOf(response.status, text));
    },
  };
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

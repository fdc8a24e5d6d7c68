// Where media lives: one interface for the upload pipeline, the demo seed, profile images, verification
// documents and the /media routes. Local disk by default (DATA_DIR/media, served at /media, and
// DATA_DIR/private, never served); an S3-compatible bucket when S3_BUCKET is set (keys media/… and
// private/…), so that any API node and any worker node reads and writes the same files. ffmpeg needs
// files on disk: work happens in local work folders, and finished files go to the storage.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config';

const require = createRequire(import.meta.url);
/**
 * The AWS SDK, loaded when a bucket is configured: it takes 120 ms of a start that DATA_DIR storage does
 * without (issue 32: a restarted node answers within a second). Synchronous, as the storage is made.
 */
export const s3Sdk = () => require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');

const inside = (root: string, relative: string): string => {
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) throw new Error(`path escapes ${root}: ${relative}`);
  return full;
};

/**
 * A video's media folder. /media is served to <video> elements, which carry no token, so the folder name is
 * the only lock: a random key (128 bits) that viewers learn only from the API, which already hides videos
 * that are not public. Rows from before the key keep their folder, videos/{id}.
 */
export const videoMediaDir = (video: { id: number; mediaKey: string | null }): string =>
  video.mediaKey ? `videos/${video.id}-${video.mediaKey}` : `videos/${video.id}`;

/** The key of a new video's media folder, set when its row is created. */
export const newMediaKey = (): string => randomBytes(16).toString('base64url');

/** Content types of what the pipeline writes, the same from local disk and from a bucket; undefined for others. */
export function contentTypeOf(name: string): string | undefined {
  if (name.endsWith('.m3u8')) return 'application/vnd.apple.mpegurl';
  if (name.endsWith('.ts')) return 'video/mp2t';
  if (name.endsWith('.mp4')) return 'video/mp4';
  if (name.endsWith('.jpg') || name.endsWith('.jpeg')) return 'image/jpeg';
  if (name.endsWith('.png')) return 'image/png';
  return undefined;
}

/** What /media answers for one file: the bytes asked for (all, or one range) and the file's size. */
export interface MediaRead {
  body: Readable;
  size: number;
  range?: { start: number; end: number };
}

/** A private file as a path on this machine; `release` drops the copy a remote storage had to make. */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Throws unless the storage takes writes now (readiness, /readyz). */
  check(): Promise<void>;
  /** Public URL of a stored media file; null stays null so optional media maps cleanly. */
  url(relative: string | null | undefined): string | null;
  /** A folder on this machine for work in progress (ffmpeg output, incoming uploads); never served. */
  workDir(name: string): Promise<string>;
  /** Stores the finished local file as media `relative`, replacing it atomically; the local file stays. */
  putFile(relative: string, localFile: string): Promise<void>;
  /** Replaces media folder `relativeDir` with the local folder `localDir` (consumed), playlists last. */
  publishDir(localDir: string, relativeDir: string): Promise<void>;
  /** Copies media `relative` to a local file; false when there is no such file. */
  fetchFile(relative: string, localFile: string): Promise<boolean>;
  /** Removes a media file or folder; a missing one is not an error. */
  remove(relative: string): Promise<void>;
  /** Moves the local file into private storage (never served) as `relative`. */
  putPrivate(relative: string, localFile: string): Promise<void>;
  /** A private file as a local path, to read it with ffmpeg; throws ENOENT when it does not exist. */
  openPrivate(relative: string): Promise<LocalCopy>;
  /** Removes a private file or folder; a missing one is not an error. */
  removePrivate(relative: string): Promise<void>;
  /** A media file for /media (all of it, or bytes start..end inclusive); undefined when missing. */
  read(relative: string, range?: { start: number; end?: number }): Promise<MediaRead | undefined>;
}

/** Under `base` (a CDN or the bucket's public URL) when configured, else /media on this server. */
const urlMaker =
  (publicBase: string | undefined) =>
  (relative: string | null | undefined): string | null => {
    if (!relative) return null;
    const clean = relative.split(path.sep).join('/');
    return publicBase ? `${publicBase}/${clean}` : `/media/${clean}`;
  };

async function moveFile(from: string, to: string) {
  try {
    await fs.rename(from, to);
  } catch (err) {
    // DATA_DIR spread over two file systems (a mounted media volume): copy, then drop the source.
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.copyFile(from, to);
    await fs.rm(from, { force: true });
  }
}

/**
 * DATA_DIR/private holds identity documents, originals and uploads in progress: folders 0700 and files 0600,
 * whatever the process umask. Modes are given where things are made, not by a umask, which is per process
 * and would also close the public media that nginx may serve from DATA_DIR/media.
 */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** chmod, but a folder someone else owns (a mount point the operator set up) stays as they made it. */
async function restrict(target: string, mode: number) {
  try {
    await fs.chmod(target, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/** Every file under `dir`, relative to it, with the playlists last (they name the segments before them). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort((a, b) => Number(a.endsWith('.m3u8')) - Number(b.endsWith('.m3u8')) || a.localeCompare(b));
}

/**
 * DATA_DIR/media (served at /media by @fastify/static) and DATA_DIR/private. Rows store paths relative to
 * the media root.
 */
export class LocalStorage implements MediaStorage {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly privateRoot: string;
  readonly url: (relative: string | null | undefined) => string | null;

  constructor(dataDir: string, publicBase?: string) {
    this.root = path.join(dataDir, 'media');
    this.privateRoot = path.join(dataDir, 'private');
    this.url = urlMaker(publicBase);
  }

  abs(relative: string): string {
    return inside(this.root, relative);
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.W_OK);
  }

  privateAbs(relative: string): string {
    return inside(this.privateRoot, relative);
  }

  async ensure(relativeDir: string): Promise<string> {
    const dir = this.abs(relativeDir);
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  private privateRootReady: Promise<void> | undefined;

  /**
   * The private root, closed once per process: also a root an older version made world-readable, which
   * shuts everything below it too. Its parent (DATA_DIR) keeps the default mode: nginx may need to pass
   * through it to DATA_DIR/media.
   */
  private openPrivateRoot(): Promise<void> {
    this.privateRootReady ??= (async () => {
      await fs.mkdir(path.dirname(this.privateRoot), { recursive: true });
      await fs.mkdir(this.privateRoot, { recursive: true, mode: PRIVATE_DIR });
      await restrict(this.privateRoot, PRIVATE_DIR);
    })().catch((err: unknown) => {
      this.privateRootReady = undefined;
      throw err;
    });
    return this.privateRootReady;
  }

  /** A folder under the private root; every folder mkdir makes on the way gets the mode too. */
  private async makePrivateDir(dir: string) {
    await this.openPrivateRoot();
    await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  }

  async ensurePrivate(relativeDir: string): Promise<string> {
    const dir = this.privateAbs(relativeDir);
    await this.makePrivateDir(dir);
    return dir;
  }

  workDir(name: string): Promise<string> {
    return this.ensurePrivate(name);
  }

  /**
   * Copied beside the target, then renamed over it: a reader (a player polling a master playlist that grows
   * as renditions finish) sees the old file or the new one, never a half-written one.
   */
  async putFile(relative: string, localFile: string): Promise<void> {
    const target = this.abs(relative);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await fs.copyFile(localFile, partial);
      await fs.rename(partial, target);
    } catch (err) {
      await fs.rm(partial, { force: true });
      throw err;
    }
  }

  /** A rename: readers see the old folder or the new one, never half of either. */
  async publishDir(localDir: string, relativeDir: string): Promise<void> {
    const target = this.abs(relativeDir);
    await fs.rm(target, { recursive: true, force: true });
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(localDir, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.cp(localDir, target, { recursive: true });
      await fs.rm(localDir, { recursive: true, force: true });
    }
  }

  async fetchFile(relative: string, localFile: string): Promise<boolean> {
    try {
      await fs.copyFile(this.abs(relative), localFile);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async remove(relative: string): Promise<void> {
    await fs.rm(this.abs(relative), { recursive: true, force: true });
  }

  async putPrivate(relative: string, localFile: string): Promise<void> {
    const target = this.privateAbs(relative);
    await this.makePrivateDir(path.dirname(target));
    await moveFile(localFile, target);
    // A rename (and a copy) keeps the source's mode: ffmpeg's output or an upload written 0644.
    await fs.chmod(target, PRIVATE_FILE);
  }

  async openPrivate(relative: string): Promise<LocalCopy> {
    const file = this.privateAbs(relative);
    await fs.access(file);
    return { path: file, release: async () => {} };
  }

  async removePrivate(relative: string): Promise<void> {
    await fs.rm(this.privateAbs(relative), { recursive: true, force: true });
  }

  async read(relative: string, range?: { start: number; end?: number }): Promise<MediaRead | undefined> {
    const file = this.abs(relative);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return undefined;
    if (!range) return { body: createReadStream(file), size: stat.size };
    const end = Math.min(range.end ?? stat.size - 1, stat.size - 1);
    return {
      body: createReadStream(file, { start: range.start, end }),
      size: stat.size,
      range: { start: range.start, end },
    };
  }
}

/** The S3 client of a configuration: path-style for stand-ins and MinIO, the SDK's defaults otherwise. */
export function s3Client(s3: S3Config): S3Client {
  return new (s3Sdk().S3Client)(s3ClientOptions(s3));
}

/**
 * Options of every S3 client here (ours and @tus/s3-store's). Checksums only where an operation requires
 * them: the SDK's default sends bodies as aws-chunked with trailing checksums, which many S3-compatible
 * servers (older MinIO, stand-ins) store as is instead of decoding.
 */
export function s3ClientOptions(s3: S3Config) {
  return {
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    ...(s3.accessKeyId && s3.secretAccessKey
      ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
      : {}),
  };
}

const missing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * An S3-compatible bucket: media under `media/`, originals and ID documents under `private/`. Only `media/`
 * may be public (a CDN or a bucket policy on that prefix); without MEDIA_PUBLIC_URL the API serves it at
 * /media itself. Work folders stay on local disk (DATA_DIR/private), per node.
 */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  readonly url: (relative: string | null | undefined) => string | null;
  private readonly local: LocalStorage;
  private readonly sdk = s3Sdk();

  constructor(config: Pick<Config, 'dataDir' | 'mediaPublicUrl'> & { s3: S3Config }) {
    this.client = s3Client(config.s3);
    this.bucket = config.s3.bucket;
    this.url = urlMaker(config.mediaPublicUrl);
    this.local = new LocalStorage(config.dataDir);
  }

  async check(): Promise<void> {
    await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }));
  }

  private mediaKey(relative: string) {
    return `media/${path.posix.normalize(relative.split(path.sep).join('/')).replace(/^(\.\.\/)+/, '')}`;
  }

  private privateKey(relative: string) {
    return `private/${path.posix.normalize(relative.split(path.sep).join('/')).replace(/^(\.\.\/)+/, '')}`;
  }

  workDir(name: string): Promise<string> {
    return this.local.ensurePrivate(name);
  }

  private async upload(key: string, localFile: string) {
    const { size } = await fs.stat(localFile);
    await this.client.send(
      new this.sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(localFile),
        ContentLength: size,
        ContentType: contentTypeOf(key) ?? 'application/octet-stream',
      }),
    );
  }

  private async download(key: string, localFile: string): Promise<boolean> {
    try {
      const object = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      await fs.mkdir(path.dirname(localFile), { recursive: true });
      await pipeline(object.Body as Readable, createWriteStream(localFile));
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  private async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  private async deleteKeys(keys: string[]) {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      if (batch.length === 0) continue;
      await this.client.send(
        new this.sdk.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }

  /** A key and everything under it as a folder: what a local rm -r of the same path would remove. */
  private async removeKey(key: string) {
    await this.deleteKeys([key, ...(await this.keysUnder(`${key.replace(/\/+$/, '')}/`))]);
  }

  putFile(relative: string, localFile: string): Promise<void> {
    return this.upload(this.mediaKey(relative), localFile);
  }

  /**
   * Uploads the new files (segments first, playlists last, so a playlist never names a segment that is not
   * there yet), then deletes what the old folder had beyond them.
   */
  async publishDir(localDir: string, relativeDir: string): Promise<void> {
    const prefix = `${this.mediaKey(relativeDir)}/`;
    const files = await filesUnder(localDir);
    for (const file of files) await this.upload(prefix + file, path.join(localDir, file));
    const fresh = new Set(files.map((f) => prefix + f));
    await this.deleteKeys((await this.keysUnder(prefix)).filter((key) => !fresh.has(key)));
    await fs.rm(localDir, { recursive: true, force: true });
  }

  fetchFile(relative: string, localFile: string): Promise<boolean> {
    return this.download(this.mediaKey(relative), localFile);
  }

  remove(relative: string): Promise<void> {
    return this.removeKey(this.mediaKey(relative));
  }

  async putPrivate(relative: string, localFile: string): Promise<void> {
    await this.upload(this.privateKey(relative), localFile);
    await fs.rm(localFile, { force: true });
  }

  async openPrivate(relative: string): Promise<LocalCopy> {
    const dir = await fs.mkdtemp(path.join(await this.workDir('tmp'), 'private-'));
    const file = path.join(dir, path.basename(relative));
    const release = () => fs.rm(dir, { recursive: true, force: true });
    if (
      !(await this.download(this.privateKey(relative), file).catch(async (err) => {
        await release();
        throw err;
      }))
    ) {
      await release();
      throw Object.assign(new Error(`no such private file: ${relative}`), { code: 'ENOENT' });
    }
    return { path: file, release };
  }

  removePrivate(relative: string): Promise<void> {
    return this.removeKey(this.privateKey(relative));
  }

  async read(relative: string, range?: { start: number; end?: number }): Promise<MediaRead | undefined> {
    try {
      const object = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.mediaKey(relative),
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      const body = object.Body as Readable;
      if (!range) return { body, size: object.ContentLength ?? 0 };
      // Content-Range: bytes start-end/size
      const match = /bytes (\d+)-(\d+)\/(\d+)/.exec(object.ContentRange ?? '');
      if (!match) return { body, size: object.ContentLength ?? 0 };
      return {
        body,
        size: Number(match[3]),
        range: { start: Number(match[1]), end: Number(match[2]) },
      };
    } catch (err) {
      if (missing(err) || (err as { name?: string }).name === 'InvalidRange') return undefined;
      throw err;
    }
  }
}

export function createStorage(config: Config): MediaStorage {
  return config.s3
    ? new S3Storage({ dataDir: config.dataDir, mediaPublicUrl: config.mediaPublicUrl, s3: config.s3 })
    : new LocalStorage(config.dataDir, config.mediaPublicUrl);
}

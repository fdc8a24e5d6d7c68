import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

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

/**
 * Media lives under DATA_DIR/media and is served at /media; rows store paths relative to that root.
 * DATA_DIR/private holds what must never be served: uploaded originals, uploads in progress, work folders.
 */
export class MediaStorage {
  readonly root: string;
  readonly privateRoot: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'media');
    this.privateRoot = path.join(dataDir, 'private');
  }

  abs(relative: string): string {
    return inside(this.root, relative);
  }

  privateAbs(relative: string): string {
    return inside(this.privateRoot, relative);
  }

  async ensurePrivate(relativeDir: string): Promise<string> {
    const dir = this.privateAbs(relativeDir);
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  async removePrivate(relative: string): Promise<void> {
    await fs.rm(this.privateAbs(relative), { recursive: true, force: true });
  }

  /** Public URL path of a stored file; null stays null so optional media maps cleanly. */
  url(relative: string | null | undefined): string | null {
    return relative ? `/media/${relative.split(path.sep).join('/')}` : null;
  }

  async ensure(relativeDir: string): Promise<string> {
    const dir = this.abs(relativeDir);
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  /** Replace `relativeDir` with a finished temporary folder, so readers never see half-written media. */
  async publishDir(tmpAbs: string, relativeDir: string): Promise<void> {
    const target = this.abs(relativeDir);
    await fs.rm(target, { recursive: true, force: true });
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(tmpAbs, target);
  }

  async remove(relative: string): Promise<void> {
    await fs.rm(this.abs(relative), { recursive: true, force: true });
  }
}

import fs from 'node:fs/promises';
import path from 'node:path';

/** Media lives under DATA_DIR/media and is served at /media; rows store paths relative to that root. */
export class MediaStorage {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'media');
  }

  abs(relative: string): string {
    const full = path.resolve(this.root, relative);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`path escapes media root: ${relative}`);
    return full;
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

// Uploaded images: the type is decided by the bytes, never by the name or the declared MIME type, and
// the stored file is always our own re-encode, so nothing of the upload (metadata, trailing payloads,
// polyglots) survives.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stillReencodeArgs } from './args';
import { ffmpeg } from './ffmpeg';

export const IMAGE_MAX_BYTES = 16 * 1024 * 1024;

export function sniffImage(bytes: Buffer): 'png' | 'jpeg' | undefined {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

/**
 * Re-encodes `bytes` (already sniffed) as JPEG and hands the local result to `store` (into the media or the
 * private storage). Throws when ffmpeg cannot decode it.
 */
export async function reencodeImage(
  bytes: Buffer,
  format: 'png' | 'jpeg',
  box: { width: number; height: number; crop: boolean },
  store: (localFile: string) => Promise<void>,
): Promise<void> {
  const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-img-'));
  try {
    const input = path.join(tmpDir, `in.${format}`);
    const output = path.join(tmpDir, `out-${randomBytes(4).toString('hex')}.jpg`);
    await fs.writeFile(input, bytes);
    await ffmpeg(stillReencodeArgs(input, format, box, output), { timeoutMs: 30_000 });
    await store(output);
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
  }
}

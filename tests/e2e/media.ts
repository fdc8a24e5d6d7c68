// Real files for the creator's tests, made by the same ffmpeg the server runs: pictures to crop, a short clip
// to upload, and the size of a JPEG read from its own header.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ffmpeg } from '../../server/media/ffmpeg';

async function render(name: string, args: string[]): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-e2e-media-'));
  try {
    const out = path.join(dir, name);
    await ffmpeg(['-v', 'error', '-y', ...args, out], { timeoutMs: 120_000 });
    return await fs.readFile(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A test pattern picture, PNG or JPEG, of the given size. */
export function makeImage(format: 'png' | 'jpg', width: number, height: number): Promise<Buffer> {
  return render(`picture.${format}`, [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}`,
    '-frames:v',
    '1',
  ]);
}

/** A short vertical H.264 + AAC clip, small enough to transcode in seconds. */
export function makeClip(seconds = 2): Promise<Buffer> {
  return render('clip.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=180x320:rate=24',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=44100',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-movflags',
    '+faststart',
  ]);
}

/**
 * Width and height from the first JPEG found in `bytes` (a file, or a multipart body carrying one): its
 * start-of-frame segment, walked to marker by marker as a decoder does.
 */
export function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let at = bytes.indexOf(Buffer.from([0xff, 0xd8, 0xff]));
  if (at < 0) return null;
  at += 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    // SOF0..SOF15, without DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

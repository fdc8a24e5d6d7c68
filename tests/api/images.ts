// Test images made by the real ffmpeg, with a metadata marker the server must strip.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ffmpeg, ffprobe } from '../../server/media/ffmpeg';

export const MARKER = 'SECRET-GPS-48.8584N';

export async function makeImage(format: 'png' | 'jpg', width: number, height: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-testimg-'));
  const out = path.join(dir, `x.${format}`);
  await ffmpeg([
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${width}x${height}`,
    '-frames:v',
    '1',
    '-metadata',
    `comment=${MARKER}`,
    '-metadata',
    `title=${MARKER}`,
    out,
  ]);
  const bytes = await fs.readFile(out);
  await fs.rm(dir, { recursive: true, force: true });
  return format === 'png' ? withPngText(bytes) : withJpegComment(bytes);
}

export async function dimensionsOf(file: string) {
  const { stdout } = await ffprobe([
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0',
    file,
  ]);
  const [w, h] = stdout.trim().split(',').map(Number);
  return { width: w, height: h };
}

/** A tEXt chunk right after IHDR, as phones and editors write them (ffmpeg's PNG muxer writes none). */
function withPngText(png: Buffer): Buffer {
  const data = Buffer.from(`Comment\0${MARKER}`, 'latin1');
  const type = Buffer.from('tEXt', 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])));
  const ihdrEnd = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([png.subarray(0, ihdrEnd), len, type, data, crc, png.subarray(ihdrEnd)]);
}

/** A COM segment right after SOI, where EXIF and comments live in camera JPEGs. */
function withJpegComment(jpg: Buffer): Buffer {
  const text = Buffer.from(MARKER, 'latin1');
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpg.subarray(0, 2), header, text, jpg.subarray(2)]);
}

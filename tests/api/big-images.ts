// Pictures that declare more pixels than they weigh, for the decoder limits: PNGs written chunk by chunk
// (ffmpeg itself needs 1.9 GB and 7 s to make a 16000x16000 one; this takes under a second and a few MB),
// and real ffmpeg JPEGs with their headers edited.
import zlib from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid, fully decodable black 8-bit RGB PNG of any size. The rows are streamed through deflate, so even
 * 16000x16000 (768 MB of pixels) never exists in memory: it compresses to about 750 KB.
 */
export async function blackPng(width: number, height: number): Promise<Buffer> {
  // Filter byte 0, then black pixels: every row is the same.
  const row = Buffer.alloc(1 + width * 3);
  const deflate = zlib.createDeflate({ level: 9, strategy: zlib.constants.Z_RLE, chunkSize: 1 << 20 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(compressed)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Where the frame header (SOF0, as ffmpeg writes) of a JPEG starts, found by walking the segments. */
export function sofOffset(jpg: Buffer): number {
  let i = 2;
  while (i + 4 <= jpg.length) {
    const marker = jpg[i + 1] as number;
    if (marker >= 0xc0 && marker <= 0xc2) return i;
    i += 2 + jpg.readUInt16BE(i + 2);
  }
  throw new Error('no SOF before the end');
}

/** The JPEG with its frame header claiming another size (its pixels stay what they were). */
export function claimingSize(jpg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpg);
  const sof = sofOffset(copy);
  copy.writeUInt16BE(height, sof + 5);
  copy.writeUInt16BE(width, sof + 7);
  return copy;
}

/** The JPEG with a progressive frame header (SOF2), which the size is read from just the same. */
export function asProgressive(jpg: Buffer): Buffer {
  const copy = Buffer.from(jpg);
  copy[sofOffset(copy) + 1] = 0xc2;
  return copy;
}

/**
 * An APP1 segment right after SOI, as cameras write EXIF there (with a thumbnail JPEG inside): this one
 * holds the bytes of a 16000x16000 frame header, which must be skipped with the segment, never read.
 */
export function withDecoyApp1(jpg: Buffer): Buffer {
  const decoy = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x3e, 0x80, 0x3e, 0x80, 0x03]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), decoy, Buffer.alloc(70_000 - 200)]);
  // Two APP1 segments: one segment holds at most 65533 bytes, and the walk must go past both.
  const segments: Buffer[] = [];
  for (let at = 0; at < payload.length; at += 60_000) {
    const part = payload.subarray(at, at + 60_000);
    const header = Buffer.from([0xff, 0xe1, 0, 0]);
    header.writeUInt16BE(part.length + 2, 2);
    segments.push(header, part);
  }
  return Buffer.concat([jpg.subarray(0, 2), ...segments, jpg.subarray(2)]);
}

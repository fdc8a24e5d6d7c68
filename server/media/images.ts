// Uploaded images: the type is decided by the bytes, never by the name or the declared MIME type, and
// the stored file is always our own re-encode, so nothing of the upload (metadata, trailing payloads,
// polyglots) survives.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PROFILE_IMAGE_MAX_BYTES } from '../../src/contract/profile';
import { stillReencodeArgs } from './args';
import { ffmpeg } from './ffmpeg';

/** One limit for every uploaded image (avatar, cover, verification photos): the spec's 16 MB. */
export const IMAGE_MAX_BYTES = PROFILE_IMAGE_MAX_BYTES;

/**
 * What a decoder may be asked to unpack. PNG and JPEG compress a plain picture a thousandfold, so 1 MB can
 * declare 16000x16000 pixels, which ffmpeg takes 780 MB and 5 s to decode. At 40 megapixels (what phones
 * save, and most cameras) it takes 145 MB for 8-bit RGB, 340 MB for 16-bit RGBA; a side over 8000 px is no
 * photo of a face or an ID card. messages.profile.imageDimensions words these numbers.
 */
export const IMAGE_MAX_SIDE = 8000;
export const IMAGE_MAX_PIXELS = 40_000_000;

export function sniffImage(bytes: Buffer): 'png' | 'jpeg' | undefined {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * PNG: the IHDR chunk, which the format requires right after the signature. One whose checksum fails is
 * noise, not a size: nothing is known, so nothing is decoded.
 */
function pngSizes(b: Buffer): ImageSize[] {
  if (b.length < 33 || b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') return [];
  if (zlib.crc32(b.subarray(12, 29)) !== b.readUInt32BE(29)) return [];
  return [{ width: b.readUInt32BE(16), height: b.readUInt32BE(20) }];
}

// SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range: baseline, extended, progressive
// (C2), lossless, hierarchical and arithmetic frames all carry their size in the same place.
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG: the size of every frame header (SOFn), found by walking the marker segments by their lengths, so
 * that a thumbnail inside an APP1 (EXIF) segment or bytes of an ICC profile are never mistaken for the
 * picture. Entropy-coded data after each SOS (several in a progressive file) is skipped up to the next
 * marker; a file of several pictures (MPO, or bytes after EOI) has each of them checked.
 */
function jpegSizes(b: Buffer): ImageSize[] {
  const sizes: ImageSize[] = [];
  let i = 0;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) {
      // Not where a marker should be: resync on the next one, as ffmpeg's decoder does.
      i++;
      continue;
    }
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      // Fill byte before a marker.
      i++;
      continue;
    }
    // No length: start and end of image, restart markers, TEM, and a stuffed 0xFF00.
    if (
      marker === 0xd8 ||
      marker === 0xd9 ||
      marker === 0x01 ||
      marker === 0x00 ||
      (marker & 0xf8) === 0xd0
    ) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    if (length < 2) return sizes;
    if (isStartOfFrame(marker) && i + 9 <= b.length) {
      sizes.push({ height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) });
    }
    i += 2 + length;
    if (marker === 0xda) {
      // Scan data: 0xFF only appears stuffed (FF00) or as a restart marker until the next real marker.
      while (i + 1 < b.length) {
        const next = b[i + 1] as number;
        if (b[i] === 0xff && next !== 0x00 && next !== 0xff && (next & 0xf8) !== 0xd0) break;
        i++;
      }
    }
  }
  return sizes;
}

/** Every picture size the file's headers declare, read without decoding a pixel; empty when none is found. */
export function imageSizes(bytes: Buffer, format: 'png' | 'jpeg'): ImageSize[] {
  return format === 'png' ? pngSizes(bytes) : jpegSizes(bytes);
}

/**
 * Whether the picture may go to the decoder: 'ok'; 'too-large' when a declared size is over the limits;
 * 'unknown' when the header declares none (or a zero side, a JPEG whose height comes later in a DNL
 * segment), since a size that cannot be read first cannot be bounded either.
 */
export function checkImageSize(bytes: Buffer, format: 'png' | 'jpeg'): 'ok' | 'too-large' | 'unknown' {
  const sizes = imageSizes(bytes, format);
  if (sizes.length === 0 || sizes.some((s) => s.width === 0 || s.height === 0)) return 'unknown';
  const over = (s: ImageSize) =>
    s.width > IMAGE_MAX_SIDE || s.height > IMAGE_MAX_SIDE || s.width * s.height > IMAGE_MAX_PIXELS;
  return sizes.some(over) ? 'too-large' : 'ok';
}

/** A picture refused before any decoding, by what its header declares. */
export class ImageSizeError extends Error {
  constructor(readonly reason: 'too-large' | 'unknown') {
    super(
      reason === 'too-large' ? 'image larger than the pixel limits' : 'image size not found in its header',
    );
  }
}

/** Runs at most `slots` tasks at once; the others wait, first come first served. */
export function createLimiter(slots: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < slots) active++;
      // The slot is handed over by the task that ends (below), so `active` never drops in between.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else active--;
      }
    },
  };
}

/**
 * Picture decodes of this process. Even within the limits one costs ffmpeg up to a few hundred MB: a crowd
 * changing avatars at once, or one verification's four photos next to another's, waits its turn instead of
 * adding up.
 */
export const imageWork = createLimiter(2);

/**
 * Re-encodes `bytes` (already sniffed) as JPEG and hands the local result to `store` (into the media or the
 * private storage). Throws ImageSizeError, before ffmpeg runs, for a picture over the limits or of unknown
 * size, and an error when ffmpeg cannot decode it.
 */
export async function reencodeImage(
  bytes: Buffer,
  format: 'png' | 'jpeg',
  box: { width: number; height: number; crop: boolean },
  store: (localFile: string) => Promise<void>,
): Promise<void> {
  const size = checkImageSize(bytes, format);
  if (size !== 'ok') throw new ImageSizeError(size);
  const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-img-'));
  try {
    const input = path.join(tmpDir, `in.${format}`);
    const output = path.join(tmpDir, `out-${randomBytes(4).toString('hex')}.jpg`);
    // Identity documents pass through here too: readable by this user only.
    await fs.writeFile(input, bytes, { mode: 0o600 });
    const args = stillReencodeArgs(input, format, box, output);
    // The decoder's own ceiling, for a picture the header walk above could not see (ffmpeg resyncs on
    // markers inside segments it does not know): it refuses a frame over it before allocating it.
    args.splice(args.indexOf('-i'), 0, '-max_pixels', String(IMAGE_MAX_PIXELS));
    await imageWork.run(() => ffmpeg(args, { timeoutMs: 30_000 }));
    await store(output);
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
  }
}

// The check a file gets on the device before a single byte is sent (spec §5: a video, at most 30 minutes
// and 2 GB). The browser's own <video> element reads the metadata; it also gives a first frame to show
// until the server's exists. A real video the browser cannot play (HEVC in a browser without it, say) is
// still let through when its first bytes are a video container's: the server's ffprobe has the last word.
import { formatBytes, messages, VIDEO_MAX_BYTES, VIDEO_MAX_SECONDS } from '../../contract';

const m = messages.upload;

/** Why a file is refused, worded for after 'Video upload failed: '. */
export class FileRefused extends Error {
  constructor(readonly reason: string) {
    super(m.failed(reason));
    this.name = 'FileRefused';
  }
}

export interface CheckedVideo {
  /** From the file's metadata; null when the browser could not read them (the server will). */
  durationSeconds: number | null;
  /** A frame near the start, as a small JPEG; null when the browser cannot draw one. */
  localFrame: Blob | null;
}

/** How long the browser may take over a file's metadata before it counts as unreadable. */
const METADATA_TIMEOUT_MS = 15_000;
/** Long side of the local frame: a thumbnail, not a poster. */
const FRAME_MAX = 360;

export async function checkVideoFile(file: File): Promise<CheckedVideo> {
  if (file.size === 0) throw new FileRefused(m.notVideo);
  if (file.size > VIDEO_MAX_BYTES) throw new FileRefused(m.tooLarge(formatBytes(VIDEO_MAX_BYTES)));
  const read = await readWithVideoElement(file);
  if (read === 'unreadable') {
    if (await looksLikeVideoContainer(file)) return { durationSeconds: null, localFrame: null };
    throw new FileRefused(m.notVideo);
  }
  // Sound only (an audio file named .mp4): the browser reads it, but there is no picture.
  if (read.width === 0) throw new FileRefused(m.notVideo);
  if (read.duration !== null && read.duration > VIDEO_MAX_SECONDS) throw new FileRefused(m.tooLong);
  return { durationSeconds: read.duration, localFrame: read.frame };
}

interface Read {
  duration: number | null;
  width: number;
  frame: Blob | null;
}

function readWithVideoElement(file: File): Promise<Read | 'unreadable'> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    let settled = false;
    const finish = (result: Read | 'unreadable') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(result);
    };
    const timer = setTimeout(() => finish('unreadable'), METADATA_TIMEOUT_MS);
    video.addEventListener('error', () => finish('unreadable'), { once: true });
    video.addEventListener(
      'loadedmetadata',
      () => {
        void (async () => {
          const duration = await durationOf(video);
          const frame = video.videoWidth > 0 ? await grabFrame(video) : null;
          finish({ duration, width: video.videoWidth, frame });
        })();
      },
      { once: true },
    );
    video.src = url;
  });
}

/**
 * The duration in seconds. WebM files from MediaRecorder say Infinity until the browser has looked at their
 * end: a seek far past it makes it look.
 */
async function durationOf(video: HTMLVideoElement): Promise<number | null> {
  if (Number.isFinite(video.duration)) return video.duration;
  const found = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 5000);
    video.addEventListener(
      'durationchange',
      () => {
        clearTimeout(timer);
        resolve(Number.isFinite(video.duration) ? video.duration : null);
      },
      { once: true },
    );
    video.currentTime = Number.MAX_SAFE_INTEGER;
  });
  video.currentTime = 0;
  return found;
}

/** A frame just after the start (the very first is often black), drawn small. */
async function grabFrame(video: HTMLVideoElement): Promise<Blob | null> {
  const seeked = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000);
    video.addEventListener(
      'seeked',
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      { once: true },
    );
  });
  video.currentTime = Math.min(0.5, (Number.isFinite(video.duration) ? video.duration : 1) / 2);
  if (!(await seeked)) return null;
  const scale = Math.min(1, FRAME_MAX / Math.max(video.videoWidth, video.videoHeight));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
  canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
  const context = canvas.getContext('2d');
  if (!context) return null;
  try {
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
  } catch {
    return null;
  }
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', 0.8));
}

/** The first bytes of the containers ffprobe accepts (MP4/MOV, Matroska/WebM, AVI, FLV, Ogg, MPEG, ASF, MXF). */
async function looksLikeVideoContainer(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 512).arrayBuffer());
  const ascii = (at: number, text: string) => [...text].every((c, i) => head[at + i] === c.charCodeAt(0));
  const bytes = (at: number, ...values: number[]) => values.every((b, i) => head[at + i] === b);
  return (
    ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip'].some((box) => ascii(4, box)) ||
    bytes(0, 0x1a, 0x45, 0xdf, 0xa3) ||
    (ascii(0, 'RIFF') && ascii(8, 'AVI ')) ||
    ascii(0, 'FLV') ||
    ascii(0, 'OggS') ||
    bytes(0, 0x00, 0x00, 0x01, 0xba) ||
    (head[0] === 0x47 && head[188] === 0x47) ||
    bytes(0, 0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11) ||
    bytes(0, 0x06, 0x0e, 0x2b, 0x34)
  );
}

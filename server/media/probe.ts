// What an uploaded file is, decided by ffprobe from its content (never its name), and whether it is a
// video we accept: a known video container with a picture track, complete, at most 30 minutes. A refusal
// carries the sentence the creator sees after 'Video upload failed: '.
import { messages } from '../../src/contract/messages';
import { VIDEO_MAX_SECONDS } from '../../src/contract/upload';
import { probeArgs, tailScanArgs } from './args';
import { ffprobe, MediaToolError } from './ffmpeg';

const m = messages.upload;

export interface MediaInfo {
  /** ffprobe's demuxer names, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  format: string;
  /** Display size: the rotation a phone stores in metadata is already applied. */
  width: number;
  height: number;
  /** Null when the container does not say (e.g. MediaRecorder WebM); the tail scan measures it then. */
  durationSeconds: number | null;
  fps: number;
  hasAudio: boolean;
}

/** A file we refuse, with the reason in the creator's words. */
export class MediaRejection extends Error {}

/**
 * Demuxers of video containers. Anything else that ffprobe opens (images, GIFs, audio, subtitles, raw
 * streams) is not an upload we publish.
 */
const VIDEO_CONTAINERS = new Set([
  'mov',
  'mp4',
  'm4v',
  '3gp',
  '3g2',
  'mj2',
  'matroska',
  'webm',
  'avi',
  'mpegts',
  'mpeg',
  'flv',
  'ogg',
  'asf',
  'mxf',
]);

/** Bounds that keep the ladder sane: a 4:1 strip or an 8K frame is not a short video. */
const MIN_SIDE = 16;
const MAX_SIDE = 7680;
const MAX_ASPECT = 4;

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}
interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

const rate = (value: string | undefined): number => {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
};

const seconds = (value: string | undefined): number | null => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** Reads ffprobe's JSON into what the pipeline needs, or refuses the file. Pure, so tests feed it JSON. */
export function readProbe(json: ProbeJson): MediaInfo {
  const format = json.format?.format_name ?? '';
  if (!format.split(',').some((name) => VIDEO_CONTAINERS.has(name))) throw new MediaRejection(m.notVideo);
  const streams = json.streams ?? [];
  // Cover art in an audio file is a "video" stream with the attached_pic disposition: not a video.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video?.width || !video.height) throw new MediaRejection(m.notVideo);
  const rotation = Number(
    video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0,
  );
  const quarterTurn = Math.abs(rotation) % 180 === 90;
  const width = quarterTurn ? video.height : video.width;
  const height = quarterTurn ? video.width : video.height;
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  if (short < MIN_SIDE || long > MAX_SIDE || long / short > MAX_ASPECT) throw new MediaRejection(m.badShape);
  return {
    format,
    width,
    height,
    durationSeconds: seconds(video.duration) ?? seconds(json.format?.duration),
    fps: rate(video.avg_frame_rate) || rate(video.r_frame_rate),
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
  };
}

/** ffprobe's own words for a file that starts like a video but stops too early. */
const TRUNCATED = /moov atom not found|partial file|truncat|end of file/i;

export async function probeMedia(file: string): Promise<MediaInfo> {
  let stdout: string;
  try {
    ({ stdout } = await ffprobe(probeArgs(file), { timeoutMs: 60_000 }));
  } catch (err) {
    if (!(err instanceof MediaToolError)) throw err;
    // The npm ffprobe build crashes on some containers (MPEG-TS): that says nothing about the file.
    if (err.signal) throw new MediaRejection(m.unsupported);
    throw new MediaRejection(TRUNCATED.test(err.stderr) ? m.damaged : m.notVideo);
  }
  return readProbe(JSON.parse(stdout) as ProbeJson);
}

/**
 * The checks of an upload, cheapest first: container and tracks (ffprobe reads the header), the length the
 * container declares, then the packets of the last seconds, which must all be there. A file whose
 * container does not declare a length (MediaRecorder WebM) is measured by reading all its packets.
 */
export async function inspectUpload(file: string): Promise<MediaInfo> {
  const info = await probeMedia(file);
  if (info.durationSeconds !== null && info.durationSeconds > VIDEO_MAX_SECONDS)
    throw new MediaRejection(m.tooLong);
  const from = info.durationSeconds === null ? 0 : Math.max(0, info.durationSeconds - 3);
  let scan: { stdout: string; stderr: string };
  try {
    scan = await ffprobe(tailScanArgs(file, from), { timeoutMs: 180_000 });
  } catch (err) {
    if (!(err instanceof MediaToolError)) throw err;
    throw new MediaRejection(err.signal ? m.unsupported : m.damaged);
  }
  const times = scan.stdout
    .split('\n')
    .map((line) => Number.parseFloat(line))
    .filter((n) => Number.isFinite(n));
  if (times.length === 0) throw new MediaRejection(m.damaged);
  // A reduce, not Math.max(...times): a header that understates the length leaves many packets to read,
  // more than a call takes arguments.
  const last = times.reduce((a, b) => Math.max(a, b));
  // The packets decide the limit, not the header: one that understates the length must not let a longer
  // video through.
  if (last > VIDEO_MAX_SECONDS) throw new MediaRejection(m.tooLong);
  if (info.durationSeconds === null) return { ...info, durationSeconds: last };
  // The last frame starts at most a frame (and a little container slack) before the declared end.
  const slack = Math.max(1.5, 2 / (info.fps || 1));
  if (TRUNCATED.test(scan.stderr) || last < info.durationSeconds - slack) throw new MediaRejection(m.damaged);
  return { ...info, durationSeconds: Math.max(info.durationSeconds, last) };
}

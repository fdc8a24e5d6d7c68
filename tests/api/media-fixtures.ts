// Generated media for upload tests: real files made by the same ffmpeg the server runs, small and fast
// unless a test is about size or length.
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ffmpeg, ffprobe } from '../../server/media/ffmpeg';

export interface ClipOptions {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  /** A tone track; false makes a silent clip (no audio stream at all). */
  audio?: boolean;
  /** Index (moov) before the data, as phones and editors write it. */
  faststart?: boolean;
  /** Rotation metadata (degrees), as phones store portrait video recorded on a landscape sensor. */
  rotate?: number;
  /** Constant quality: higher is smaller. */
  crf?: number;
}

/** An H.264 (+ AAC) MP4 of a moving test pattern. */
export async function makeClip(dir: string, name: string, o: ClipOptions): Promise<string> {
  const file = path.join(dir, name);
  const fps = o.fps ?? 30;
  const args = [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${o.width}x${o.height}:rate=${fps}`,
    ...(o.audio === false ? [] : ['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=44100']),
    '-t',
    String(o.seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    String(o.crf ?? 28),
    '-pix_fmt',
    'yuv420p',
    ...(o.audio === false ? [] : ['-c:a', 'aac', '-b:a', '64k']),
    ...(o.faststart ? ['-movflags', '+faststart'] : []),
    o.rotate ? `${file}.unrotated.mp4` : file,
  ];
  await ffmpeg(args, { timeoutMs: 120_000 });
  if (o.rotate) {
    // ffmpeg drops rotation metadata when it encodes; a stream copy keeps it, as a phone's file has it.
    const rotated = ['-v', 'error', '-y', '-i', `${file}.unrotated.mp4`, '-c', 'copy'];
    await ffmpeg([...rotated, '-metadata:s:v:0', `rotate=${o.rotate}`, file], { timeoutMs: 60_000 });
    await fs.rm(`${file}.unrotated.mp4`);
  }
  return file;
}

/**
 * A 40-minute video made cheaply: a 16x16 black frame once a second, one keyframe a minute. Everything
 * about it is valid except its length.
 */
export async function makeLongClip(dir: string, minutes: number, ext = 'mp4'): Promise<string> {
  const file = path.join(dir, `long-${minutes}min.${ext}`);
  await ffmpeg(
    [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=16x16:r=1',
      '-t',
      String(minutes * 60),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '60',
      file,
    ],
    { timeoutMs: 120_000 },
  );
  return file;
}

/**
 * A Matroska file whose header claims `seconds`, whatever its packets say: the Duration element of the
 * segment info (ID 0x4489, an 8-byte float in milliseconds at ffmpeg's default timecode scale) rewritten.
 */
export async function understateDuration(file: string, seconds: number, name: string): Promise<string> {
  const bytes = await fs.readFile(file);
  const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88]));
  if (at < 0) throw new Error(`no Matroska Duration element in ${file}`);
  bytes.writeDoubleBE(seconds * 1000, at + 3);
  const out = path.join(path.dirname(file), name);
  await fs.writeFile(out, bytes);
  return out;
}

/** The first half of a file: what a dropped connection or a full disk leaves of a video. */
export async function truncate(file: string, name: string): Promise<string> {
  const bytes = await fs.readFile(file);
  const out = path.join(path.dirname(file), name);
  await fs.writeFile(out, bytes.subarray(0, Math.floor(bytes.length / 2)));
  return out;
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  duration?: string;
}

/**
 * ffprobe of a published HLS playlist. The npm ffprobe build crashes on MPEG-TS, so ffmpeg first copies
 * the stream out of the playlist into an MP4 (reading every segment the playlist names); a stream that
 * copies end to end and probes cleanly is a valid one.
 */
export async function probeHls(playlist: string, workDir: string) {
  const mp4 = path.join(workDir, `probe-${Math.random().toString(36).slice(2)}.mp4`);
  await ffmpeg(['-v', 'error', '-y', '-i', playlist, '-map', '0', '-c', 'copy', mp4], { timeoutMs: 60_000 });
  try {
    return await probeFile(mp4);
  } finally {
    await fs.rm(mp4, { force: true });
  }
}

export async function probeFile(file: string) {
  const { stdout } = await ffprobe(
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,width,height:format=duration',
      '-of',
      'json',
      file,
    ],
    { timeoutMs: 60_000 },
  );
  const json = JSON.parse(stdout) as { streams: ProbedStream[]; format: { duration: string } };
  return { streams: json.streams, duration: Number(json.format.duration) };
}

/** Niceness of this process's children named ffmpeg (/proc/{pid}/stat: ppid is field 4, nice field 19). */
function childNiceness(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (name.startsWith('ffmpeg') && Number(fields[1]) === process.pid) found.push(Number(fields[16]));
    } catch {
      // exited while we read
    }
  }
  return found;
}

/** The CPU niceness levels the ffmpeg processes that `work` starts were seen at (sampled every 20 ms). */
export async function ffmpegNicenessWhile(work: () => Promise<unknown>): Promise<number[]> {
  const seen = new Set<number>();
  const watch = setInterval(() => {
    for (const level of childNiceness()) seen.add(level);
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(watch);
  }
  return [...seen].sort((a, b) => a - b);
}

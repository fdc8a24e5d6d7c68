// The one place that starts ffmpeg/ffprobe processes. Argument lists come from the pure builders in
// args.ts; this wrapper only resolves the binary, runs it and turns a failure into a readable error.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);

function packagedBinary(pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string {
  const { path } = require(pkg) as { path: string };
  // npm 11 skips the package's `chmod u+x` postinstall unless allowed; make sure it can run anyway.
  try {
    fs.accessSync(path, fs.constants.X_OK);
  } catch {
    fs.chmodSync(path, 0o755);
  }
  return path;
}

let resolved: { ffmpeg?: string; ffprobe?: string } = {};

/** FFMPEG_PATH / FFPROBE_PATH win (a system build), else the static binaries shipped through npm. */
export function configureBinaries(opts: {
  ffmpegPath?: string | undefined;
  ffprobePath?: string | undefined;
  mediaNiceness?: number | undefined;
}) {
  resolved = { ffmpeg: opts.ffmpegPath, ffprobe: opts.ffprobePath };
  niceness = Math.min(19, Math.max(0, opts.mediaNiceness ?? 0));
}

export const ffmpegPath = () => {
  resolved.ffmpeg ??= process.env.FFMPEG_PATH || packagedBinary('@ffmpeg-installer/ffmpeg');
  return resolved.ffmpeg;
};
export const ffprobePath = () => {
  resolved.ffprobe ??= process.env.FFPROBE_PATH || packagedBinary('@ffprobe-installer/ffprobe');
  return resolved.ffprobe;
};

export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    /** Set when the tool died of a signal: a crash or our timeout, not an answer about the input. */
    readonly signal: NodeJS.Signals | null = null,
  ) {
    super(message);
  }
}

/**
 * Media tools still running. A server that exits (a shutdown, a crash) takes them along: an orphaned ffmpeg
 * would go on transcoding a video whose job is handed to another worker after the restart.
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The server runs media tools at a lower CPU priority (config MEDIA_NICENESS, 10 by default): a transcode
 * takes what the API leaves, so a crowd's requests are answered first and the transcode finishes a little
 * later. Not the lowest (19): on a machine shared with other busy programs that would stall transcodes
 * outright. 0 (unchanged) until configureBinaries sets it, as in the API tests.
 */
let niceness = 0;

/**
 * Work that may wait, such as a video's higher renditions once its lowest one plays: the lowest priority, so
 * the next upload's first rendition (at `niceness`) takes the CPU first. 0 when priorities are off.
 */
const backgroundNiceness = () => (niceness === 0 ? 0 : 19);

export interface RunOptions {
  timeoutMs?: number;
  /** Runs at the lowest CPU priority (see backgroundNiceness). */
  background?: boolean;
}

function lowerPriority(child: ChildProcess, background: boolean) {
  const level = background ? backgroundNiceness() : niceness;
  if (child.pid === undefined || level === 0) return;
  try {
    os.setPriority(child.pid, level);
  } catch {
    // Already gone, or a platform without priorities: the tool runs as it is.
  }
}

/** Runs a binary to completion; rejects with the last lines of stderr on a non-zero exit. */
export function run(bin: string, args: readonly string[], opts: RunOptions = {}) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    lowerPriority(child, opts.background ?? false);
    running.add(child);
    child.on('exit', () => running.delete(child));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    // Keep only the tail: ffmpeg can print megabytes of progress on long inputs.
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-16_384);
    });
    const timer = opts.timeoutMs
      ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs).unref()
      : undefined;
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new MediaToolError(`${bin} could not start: ${err.message}`, stderr));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else {
        const tail = stderr.trim().split('\n').slice(-3).join(' | ');
        reject(new MediaToolError(`${bin} exited with ${code ?? signal}: ${tail}`, stderr, signal));
      }
    });
  });
}

export const ffmpeg = (args: readonly string[], opts?: RunOptions) => run(ffmpegPath(), args, opts);
export const ffprobe = (args: readonly string[], opts?: RunOptions) => run(ffprobePath(), args, opts);

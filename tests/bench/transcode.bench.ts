// The upload pipeline on a 60 s 1080x1920 source (about a phone's bitrate): tus upload over loopback to the
// real app, then the real jobs (preprocess, then the lowest rendition alone with the MP4 fallback, then 540p
// to 1080p on the ladder queue), timed from the start of the final PATCH (the last byte, an upper bound) by the
// row changes: "first playable" is the approval (the master playlist lists 360p), "full ladder" the end of
// the heartbeat an approved row keeps while renditions follow (server/media/pipeline/). TRANSCODE_RUNS
// uploads (3 by default) one after another, each only once the previous ladder is complete; then two uploads
// back to back, the second sent as the first becomes playable (a creator posting two clips), where the
// second's first rendition must not wait for the first's ladder. The load average is printed because this
// 2-core machine is shared and a transcode is almost pure CPU.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { issueAccessToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';
import * as t from '../../server/db/schema';
import { configureBinaries, ffmpeg } from '../../server/media/ffmpeg';
import { startMediaWorkers } from '../../server/media/pipeline';
import { createTestContext, insertUser, type TestContext } from '../api/helpers';

const SECONDS = 60;

export async function transcodeBench(): Promise<Record<string, string>> {
  const ctx = await createTestContext({ jobs: true });
  // The priorities the server runs its media tools at (the test context leaves them unchanged).
  configureBinaries({ mediaNiceness: loadConfig().mediaNiceness });
  const jobs = ctx.jobs;
  if (!jobs) throw new Error('jobs expected');
  const stopSweep = await startMediaWorkers({
    db: ctx.database.db,
    database: ctx.database,
    storage: ctx.storage,
    jobs,
    staleSeconds: 60,
  });
  try {
    const source = path.join(ctx.config.dataDir, 'source.mp4');
    await ffmpeg(
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1080x1920:rate=30',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:sample_rate=44100',
        '-t',
        String(SECONDS),
        '-c:v',
        'libx264',
        '-preset',
        'superfast',
        '-crf',
        '23',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        source,
      ],
      { timeoutMs: 600_000 },
    );
    const size = (await fs.stat(source)).size;

    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const creator = await insertUser(ctx);
    const auth = { authorization: `Bearer ${await issueAccessToken(ctx.database.db, creator.id, false)}` };

    const runs = Math.max(1, Number(process.env.TRANSCODE_RUNS ?? 3));
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) results.push(await uploadOnce(ctx, port, auth, source));
    // Medians of single pairs would say little: one pair per run, as many as the single runs.
    const pairs: { first: Run; second: Run }[] = [];
    for (let i = 0; i < runs; i++) {
      let second: Promise<Run> | undefined;
      const first = await uploadOnce(ctx, port, auth, source, () => {
        second = uploadOnce(ctx, port, auth, source);
      });
      if (!second) throw new Error('the first upload never became playable');
      pairs.push({ first, second: await second });
    }
    const eachPair = (pick: (p: { first: Run; second: Run }) => number) =>
      `${median(pairs.map(pick)).toFixed(1)} s median (runs: ${pairs.map((p) => pick(p).toFixed(1)).join(', ')})`;
    const mb = size / 1024 / 1024;
    const each = (pick: (r: Run) => number, digits = 1) =>
      `${median(results.map(pick)).toFixed(digits)} s median (runs: ${results.map((r) => pick(r).toFixed(digits)).join(', ')})`;
    const upload = median(results.map((r) => r.uploadSeconds));
    return {
      [`source: ${SECONDS} s 1080x1920 30 fps H.264 + AAC`]: `${mb.toFixed(1)} MiB (${((size * 8) / SECONDS / 1e6).toFixed(1)} Mbit/s)`,
      'tus upload over loopback (8 MiB chunks, to the final PATCH)': `${each((r) => r.uploadSeconds, 2)}, ${(mb / upload).toFixed(0)} MiB/s`,
      'last byte -> first playable (approved, 360p in master.m3u8), goal <= 15 s': each((r) => r.playable),
      'last byte -> full ladder (360p to 1080p in master.m3u8 + MP4)': each((r) => r.full),
      '  of which: last byte -> final PATCH answered (last chunk, checks, first frame, original stored)':
        each((r) => r.answered),
      '  of which: answered -> processing stage started (preprocess: probe, thumbnail, tile; two job hand-overs)':
        each((r) => r.processingStart - r.answered),
      '  of which: processing started -> approved (360p alone + publication; the MP4 follows)': each(
        (r) => r.playable - r.processingStart,
      ),
      '  of which: approved -> full ladder (MP4, then 540p + 720p + 1080p in one run at nice 19)': each(
        (r) => r.full - r.playable,
      ),
      'two uploads back to back, the second sent as the first plays: second last byte -> first playable, goal <= 15 s':
        eachPair((p) => p.second.playable),
      '  the first one, last byte -> full ladder (its 540p to 1080p yield to the second 360p)': eachPair(
        (p) => p.first.full,
      ),
      'realtime factor of the whole processing stage': `${(SECONDS / median(results.map((r) => r.full - r.processingStart))).toFixed(2)}x (seconds of video per second)`,
      'load average (1 min) before each run / after the last (other work on this machine)': `${results.map((r) => r.load.toFixed(2)).join(', ')} / ${(os.loadavg()[0] ?? 0).toFixed(2)}`,
    };
  } finally {
    stopSweep();
    configureBinaries({});
    await ctx.close();
  }
}

interface Run {
  load: number;
  uploadSeconds: number;
  /** Seconds from the last byte sent. */
  answered: number;
  processingStart: number;
  playable: number;
  full: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function uploadOnce(
  ctx: TestContext,
  port: number,
  auth: Record<string, string>,
  source: string,
  /** Called once, as soon as the video is approved (playable). */
  onPlayable?: () => void,
): Promise<Run> {
  const load = os.loadavg()[0] ?? 0;
  const uploadStart = performance.now();
  let lastByte = 0;
  const videoId = await new Promise<number>((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(source), {
      endpoint: `http://127.0.0.1:${port}/v1/uploads`,
      headers: auth,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0],
      // "Last byte" is taken as the start of the final PATCH: tus-js-client reports progress on Node only as
      // the answer arrives, after the server's checks. So every figure from it is an upper bound, by the time
      // one 8 MiB chunk takes on loopback.
      onBeforeRequest: (req) => {
        if (req.getMethod() === 'PATCH') lastByte = performance.now();
      },
      onError: reject,
      onSuccess: ({ lastResponse }) => resolve(Number(lastResponse.getHeader('Video-Id'))),
    });
    upload.start();
  });
  const answeredAt = performance.now();
  const seen: Record<string, number> = {};
  for (;;) {
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, videoId));
    if (!row || row.status === 'error') throw new Error(`transcode failed: ${row?.statusReason}`);
    if (row.status === 'approved' && seen.approved === undefined) onPlayable?.();
    seen[row.status] ??= performance.now();
    if (row.status === 'approved' && row.mediaHeartbeatAt === null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const full = performance.now();
  const since = (at: number | undefined) => ((at ?? full) - lastByte) / 1000;
  return {
    load,
    uploadSeconds: (lastByte - uploadStart) / 1000,
    answered: since(answeredAt),
    processingStart: since(seen.processing ?? seen.approved),
    playable: since(seen.approved),
    full: since(full),
  };
}

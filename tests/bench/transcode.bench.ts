// The upload pipeline on a 60 s 1080x1920 source (about a phone's bitrate): tus upload throughput over
// loopback to the real app, then the real jobs (preprocess, then the HLS ladder 360p to 1080p with its MP4
// fallback) timed by the status changes they make. The realtime factor is seconds of video per second of
// wall time of the processing stage.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { ffmpeg } from '../../server/media/ffmpeg';
import { startMediaWorkers } from '../../server/media/pipeline';
import { createTestContext, insertUser } from '../api/helpers';

const SECONDS = 60;

export async function transcodeBench(): Promise<Record<string, string>> {
  const ctx = await createTestContext({ jobs: true });
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

    const load = os.loadavg()[0] ?? 0;
    const uploadStart = performance.now();
    const videoId = await new Promise<number>((resolve, reject) => {
      const upload = new tus.Upload(createReadStream(source), {
        endpoint: `http://127.0.0.1:${port}/v1/uploads`,
        headers: auth,
        chunkSize: 8 * 1024 * 1024,
        retryDelays: [0],
        onError: reject,
        onSuccess: ({ lastResponse }) => resolve(Number(lastResponse.getHeader('Video-Id'))),
      });
      upload.start();
    });
    // The final PATCH includes the checks and the first frame, as a client experiences it.
    const uploadSeconds = (performance.now() - uploadStart) / 1000;

    const seen: Record<string, number> = {};
    for (;;) {
      const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, videoId));
      if (!row || row.status === 'error') throw new Error(`transcode failed: ${row?.statusReason}`);
      seen[row.status] ??= performance.now();
      if (row.status === 'approved') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const processingStart = seen.processing ?? seen.approved ?? 0;
    const processing = ((seen.approved ?? 0) - processingStart) / 1000;
    const total = ((seen.approved ?? 0) - uploadStart) / 1000;
    const mb = size / 1024 / 1024;
    return {
      [`source: ${SECONDS} s 1080x1920 30 fps H.264 + AAC`]: `${mb.toFixed(1)} MiB (${((size * 8) / SECONDS / 1e6).toFixed(1)} Mbit/s)`,
      'tus upload over loopback (8 MiB chunks, incl. checks + first frame)': `${uploadSeconds.toFixed(2)} s, ${(mb / uploadSeconds).toFixed(0)} MiB/s`,
      'transcode (processing stage: 360p, 540p, 720p, 1080p HLS + MP4 fallback)': `${processing.toFixed(1)} s`,
      'transcode realtime factor': `${(SECONDS / processing).toFixed(2)}x (seconds of video per second)`,
      'upload start to approved': `${total.toFixed(1)} s`,
      'load average at start (other work on this machine)': load.toFixed(2),
    };
  } finally {
    stopSweep();
    await ctx.close();
  }
}

// `npm test` seeds the browser tests' demo (32 clips through ffmpeg, about 3 CPU-minutes) while its earlier
// phases run (tests/run-all.mjs), at the lowest CPU priority: it takes the time they leave idle, and the e2e
// setup then starts from this folder (E2E_REUSE_DATA_DIR) instead of waiting for the encodes. SIGTERM stops
// it half-way as a production server stops; the demo's seeding resumes where it stopped on the next start.
import os from 'node:os';
import { E2E_DEMO_VIDEOS, ServerExited, startServer } from './server';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: preseed.ts <data dir>');
// Before anything is spawned: the server and its media tools inherit it.
os.setPriority(19);
const stopping = new AbortController();
process.on('SIGTERM', () => stopping.abort());
try {
  const server = await startServer({
    timeoutMs: 3_600_000,
    signal: stopping.signal,
    // The server would otherwise set its ffmpeg back to the normal priority (tests/e2e/server.ts).
    env: { DEMO_VIDEOS: E2E_DEMO_VIDEOS, DATA_DIR: dataDir, MEDIA_NICENESS: '19' },
  });
  await server.stop();
} catch (error) {
  // Stopped before the demo was whole, and shut down cleanly: the folder is good to start from. Anything else
  // fails this process, and `npm test` then lets the e2e setup seed a folder of its own.
  if (!(stopping.signal.aborted && error instanceof ServerExited && error.code === 0)) throw error;
}

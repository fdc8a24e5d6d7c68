// The demo every e2e server starts from. global-setup.ts seeds it at the start of a run, unless the run is
// handed a folder already seeded (E2E_REUSE_DATA_DIR): `npm test` seeds one this way, at the lowest CPU
// priority while the API suites run (tests/run-all.mjs), since the demo's ffmpeg runs are most of the setup.
//
//   tsx tests/e2e/demo-seed.ts <folder>
import { startServer } from './server';

/** The e2e demo: 32 clips, as the feed acceptance swipes 30 videos up and back. */
export const DEMO_ENV = { DEMO_VIDEOS: process.env.E2E_DEMO_VIDEOS ?? '32' };

if (process.argv[1] === import.meta.filename) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: tsx tests/e2e/demo-seed.ts <folder>');
  const server = await startServer({
    timeoutMs: 900_000,
    // ffmpeg at the lowest priority, not the e2e servers' 0: beside the API suites it must take only the CPU
    // they leave idle.
    env: { ...DEMO_ENV, DATA_DIR: dataDir, MEDIA_NICENESS: '19' },
  });
  await server.stop();
}

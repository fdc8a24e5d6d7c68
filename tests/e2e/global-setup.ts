import { startServer } from './server';

/** One real server for the whole run; tests reach it through E2E_BASE_URL (inherited by the workers). */
export default async function globalSetup() {
  const server = await startServer({
    timeoutMs: 480_000,
    env: {
      // 32 clips: the feed acceptance swipes 30 videos up and back.
      DEMO_VIDEOS: process.env.E2E_DEMO_VIDEOS ?? '32',
    },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
  };
}

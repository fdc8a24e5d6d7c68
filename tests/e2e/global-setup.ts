import { startServer } from './server';

/** One real server for the whole run; tests reach it through E2E_BASE_URL (inherited by the workers). */
export default async function globalSetup() {
  const server = await startServer({ env: { DEMO_VIDEOS: process.env.E2E_DEMO_VIDEOS ?? '12' } });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
  };
}

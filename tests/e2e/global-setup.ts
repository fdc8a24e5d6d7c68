import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { quietAds } from './ads';
import { confirmAgeOnce } from './age-gate';
import { startServer } from './server';

/**
 * One real server for the whole run; tests reach it through E2E_BASE_URL (inherited by the workers), and
 * start as a visitor who has confirmed the 18+ gate once (E2E_STORAGE_STATE, see playwright.config.ts).
 */
export default async function globalSetup() {
  // E2E_REUSE_DATA_DIR (a developer's convenience, never CI): seed that folder once and start from it on
  // later runs, so a single spec runs in seconds instead of waiting for the demo videos again.
  const reuse = process.env.E2E_REUSE_DATA_DIR;
  // The ads specs swap what this file holds; the others see the sidebar's tiles only (ads.ts, quietAds).
  const adsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-e2e-ads-'));
  const adsFile = path.join(adsDir, 'ads.json');
  await fs.writeFile(adsFile, await quietAds());
  process.env.E2E_ADS_FILE = adsFile;
  const server = await startServer({
    timeoutMs: 480_000,
    env: {
      ...(reuse ? { DATA_DIR: reuse } : {}),
      ADS_FILE: adsFile,
      // 32 clips: the feed acceptance swipes 30 videos up and back.
      DEMO_VIDEOS: process.env.E2E_DEMO_VIDEOS ?? '32',
      // Every test signs in from the same address; the limit itself is the API tests' business.
      AUTH_RATE_LIMIT: '1000',
      // Every test is a new guest from 127.0.0.1: far more guest ids than one real address shows.
      GUESTS_PER_ADDRESS: '100000',
      GUEST_ACTIONS_PER_ADDRESS: '100000',
    },
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  const stateFile = path.join(server.dataDir, 'e2e-age-confirmed.json');
  await fs.writeFile(stateFile, JSON.stringify(await confirmAgeOnce(server.url)));
  process.env.E2E_STORAGE_STATE = stateFile;
  return async () => {
    await server.stop();
    await fs.rm(adsDir, { recursive: true, force: true });
  };
}

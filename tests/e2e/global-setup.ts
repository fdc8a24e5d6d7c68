import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pgliteLockFile } from '../../server/db/client';
import { quietAds } from './ads';
import { confirmAgeOnce } from './age-gate';
import { startServer } from './server';
import { E2E_WORKERS, SLOT_VARS, slotVar } from './slots';

/**
 * One real server per worker for the whole run; tests reach theirs through E2E_BASE_URL (inherited by the
 * workers, per slot: slots.ts), and start as a visitor who has confirmed the 18+ gate once
 * (E2E_STORAGE_STATE, see playwright.config.ts).
 */
export default async function globalSetup() {
  // E2E_REUSE_DATA_DIR (a developer's convenience, never CI): seed that folder once and start from it on
  // later runs, so a single spec runs in seconds instead of waiting for the demo videos again.
  const reuse = process.env.E2E_REUSE_DATA_DIR;
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-e2e-slots-'));
  const start = async (slot: number, dataDir: string | undefined) => {
    // The ads specs swap what this file holds; the others see the sidebar's tiles only (ads.ts, quietAds).
    const adsFile = path.join(scratch, `ads-${slot}.json`);
    await fs.writeFile(adsFile, await quietAds());
    const server = await startServer({
      timeoutMs: 480_000,
      env: {
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
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
    return { server, adsFile };
  };

  // With more than one slot the first server's data is copied, so it must outlive that server's stop.
  const firstDir = reuse ?? (E2E_WORKERS > 1 ? path.join(scratch, 'data-0') : undefined);
  const slots = [await start(0, firstDir)];
  try {
    if (E2E_WORKERS > 1 && firstDir) {
      // The demo is seeded once (its ffmpeg runs are most of the setup); the other slots start from a copy,
      // taken with the first server stopped so that its PGlite files are whole.
      await slots[0]?.server.stop();
      const copies = [firstDir];
      for (let slot = 1; slot < E2E_WORKERS; slot++) {
        const copy = path.join(scratch, `data-${slot}`);
        // Not the operator's control socket (server/admin): each server makes its own.
        await fs.cp(firstDir, copy, {
          recursive: true,
          filter: async (src) => !(await fs.lstat(src)).isSocket(),
        });
        await fs.rm(pgliteLockFile(copy), { force: true });
        copies.push(copy);
      }
      slots.length = 0;
      slots.push(...(await Promise.all(copies.map((dir, slot) => start(slot, dir)))));
    }
    await Promise.all(
      slots.map(async ({ server, adsFile }, slot) => {
        const stateFile = path.join(server.dataDir, 'e2e-age-confirmed.json');
        await fs.writeFile(stateFile, JSON.stringify(await confirmAgeOnce(server.url)));
        const values = {
          E2E_BASE_URL: server.url,
          E2E_DATA_DIR: server.dataDir,
          E2E_ADS_FILE: adsFile,
          E2E_STORAGE_STATE: stateFile,
        };
        for (const name of SLOT_VARS) {
          process.env[slotVar(name, slot)] = values[name];
          // The plain names are the first slot's: the runner's own process, and a run with one worker.
          if (slot === 0) process.env[name] = values[name];
        }
      }),
    );
  } catch (error) {
    await Promise.all(slots.map(({ server }) => server.stop()));
    throw error;
  }
  return async () => {
    await Promise.all(slots.map(({ server }) => server.stop()));
    await fs.rm(scratch, { recursive: true, force: true });
  };
}

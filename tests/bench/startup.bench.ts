// First start (migrations + demo seeding + 24 generated videos) and a second start on the same data.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../e2e/server';

export async function startupBench(): Promise<Record<string, string>> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-bench-'));
  try {
    let t0 = performance.now();
    const cold = await startServer({ env: { DATA_DIR: dataDir, DEMO_VIDEOS: '24' }, timeoutMs: 300_000 });
    const coldMs = performance.now() - t0;
    const videos = (await (await fetch(`${cold.url}/v1/videos?per_page=50`)).json()) as { data: unknown[] };
    await cold.stop();

    t0 = performance.now();
    const warm = await startServer({ env: { DATA_DIR: dataDir } });
    const warmMs = performance.now() - t0;
    await warm.stop();
    return {
      'first start, 24 demo videos (target < 90 s)': `${(coldMs / 1000).toFixed(1)} s (${videos.data.length} videos listed)`,
      'second start, same DATA_DIR (target < 5 s)': `${(warmMs / 1000).toFixed(1)} s`,
    };
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// First start (migrations + demo seeding + 24 generated videos), then a node restarted on the same data: the
// time from spawning it to its first 200 on the feed, for the compiled server `npm start` runs, for the same
// server through tsx (how it ran before), and for a bare node:http server (what node itself costs).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../../server/bin/build-server.mjs';
import { freePort, startServer } from '../e2e/server';

const root = path.resolve(import.meta.dirname, '../..');
const RUNS = 5;

const BARE = `require('node:http').createServer((q, r) => r.end('{"data":[]}')).listen(Number(process.env.PORT), '127.0.0.1');`;

/** Spawns `args` and polls the feed every 5 ms: milliseconds until it answers 200. */
async function firstAnswer(args: string[], dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      const res = await fetch(`http://127.0.0.1:${port}/v1/videos?per_page=10`).catch(() => undefined);
      if (res?.status === 200) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const ms = (values: number[]) =>
  `${median(values).toFixed(0)} ms median (${values.map((v) => v.toFixed(0)).join(', ')})`;

export async function startupBench(): Promise<Record<string, string>> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-bench-'));
  try {
    const t0 = performance.now();
    const cold = await startServer({ env: { DATA_DIR: dataDir, DEMO_VIDEOS: '24' }, timeoutMs: 300_000 });
    const coldMs = performance.now() - t0;
    const videos = (await (await fetch(`${cold.url}/v1/videos?per_page=50`)).json()) as { data: unknown[] };
    await cold.stop();

    await buildServer();
    const compiled: number[] = [];
    const tsx: number[] = [];
    const bare: number[] = [];
    // Interleaved, so that whatever else the machine does weighs on all three alike.
    for (let i = 0; i < RUNS; i++) {
      compiled.push(await firstAnswer([path.join(root, 'build/server/main.mjs')], dataDir));
      tsx.push(await firstAnswer(['--import', 'tsx', 'server/main.ts'], dataDir));
      bare.push(await firstAnswer(['-e', BARE], dataDir));
    }
    return {
      'first start, 24 demo videos (target < 90 s)': `${(coldMs / 1000).toFixed(1)} s (${videos.data.length} videos listed)`,
      'restarted node, spawn to first 200 on the feed, compiled (npm start; target < 1 s)': ms(compiled),
      'the same through tsx (before issue 32)': ms(tsx),
      'baseline: bare node:http server': ms(bare),
    };
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// Where the server's time goes under load: starts the server with --cpu-prof on a seeded DATA_DIR, runs
// each scenario of api-load.ts, stops it and prints the self time per module and function.
// `DATA_DIR=/tmp/seeded npx tsx tests/bench/profile.ts [seconds] [scenario name part]`
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../e2e/server';
import { load, scenarios } from './api-load';
import { summarise } from './profile-summary';

const seconds = Number(process.argv[2] ?? 8);
const only = process.argv[3] ?? '';
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must name a seeded data dir (the demo, 24 videos ready)');

const allNames = [
  'home feed (guest without id)',
  'home feed (guest with id)',
  'discover',
  'view post',
  'like post',
];
for (const name of allNames.filter((n) => n.includes(only))) {
  const port = await freePort();
  const profDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortcams-prof-'));
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--import', 'tsx', 'server/main.ts'],
    {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve) =>
    child.stdout?.on('data', (d) => /ready in/.test(String(d)) && resolve()),
  );
  const base = `http://127.0.0.1:${port}`;
  const scenario = (await scenarios(base)).find((s) => s.name === name);
  if (!scenario) throw new Error(name);
  const r = await load(base, scenario, { seconds });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  console.log(
    `\n### ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (file) {
    const keep = `/tmp/shortcams-${name.replace(/\W+/g, '-')}.cpuprofile`;
    fs.copyFileSync(path.join(profDir, file), keep);
    // The load and the shutdown after it, not the start-up before.
    console.log(summarise(JSON.parse(fs.readFileSync(keep, 'utf8')), 12, (seconds + 1) * 1e6));
  }
  fs.rmSync(profDir, { recursive: true, force: true });
}

// The API under a crowd: home feed, discover, view and like posts at 50 connections, each interleaved run
// by run with a bare node:http server answering the same bytes (so the machine's load of the moment weighs
// on both), several runs with their spread, each figure beside the goal of issue 17.
// `BENCH_DATA_DIR=dir` reuses a demo already seeded there (the first start seeds it; 24 videos).
// `BENCH_ONLY=post` runs only the scenarios whose name contains it (the transcode one: `BENCH_ONLY=transcode`).
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { loadConfig } from '../../server/config';
import { configureBinaries, ffmpegPath } from '../../server/media/ffmpeg';
import { startServer } from '../e2e/server';
import { type LoadResult, load, type Scenario, scenarios } from './api-load';
import { startBareServer } from './bare-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const load1 = () => os.loadavg()[0]?.toFixed(2) ?? '?';

/**
 * Goals of issue 17: req/s at least, p99 under (ms). The home feed's is 10 times what the issue measured
 * before on this machine: 200 req/s on PGlite, 420 on PostgreSQL.
 */
const feedBefore = process.env.DATABASE_URL ? 420 : 200;
const GOALS: Record<string, { rps: number; p99?: number; note: string }> = {
  'home feed (guest without id)': {
    rps: 10 * feedBefore,
    p99: 100,
    note: `>= 10x the ${feedBefore} req/s of before, p99 < 100 ms`,
  },
  'home feed (guest with id)': {
    rps: 10 * feedBefore,
    p99: 100,
    note: `>= 10x the ${feedBefore} req/s of before (measured without id), p99 < 100 ms`,
  },
  discover: { rps: 5000, note: '>= 5,000 req/s' },
  // Issue 34: reads that miss the page-1 cache (77 and 112 req/s, p99 over 6 s, on PGlite before).
  'home feed page 2': { rps: 1500, p99: 100, note: '>= 1,500 req/s, p99 < 100 ms, no timeout' },
  'video start (shared link)': { rps: 1500, p99: 100, note: '>= 1,500 req/s, p99 < 100 ms, no timeout' },
  'view post': { rps: 1500, note: '>= 1,500 req/s, nothing lost or counted twice' },
  'like post': { rps: 1500, note: '>= 1,500 req/s, nothing lost or counted twice' },
};

/**
 * Home-feed latency while a 1080x1920 x264 encode runs beside the server: at the normal priority (as the
 * server ran ffmpeg before), at 10 (MEDIA_NICENESS by default) and at 19, against none at all.
 */
async function duringTranscode(base: string, scenario: Scenario) {
  const { mediaNiceness } = loadConfig();
  configureBinaries({});
  const encode = (nice: number) => {
    const child = spawn(
      ffmpegPath(),
      [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1080x1920:rate=30',
        '-t',
        '60',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-f',
        'null',
        '-',
      ],
      { stdio: 'ignore' },
    );
    if (child.pid) os.setPriority(child.pid, nice);
    return () => child.kill('SIGKILL');
  };
  const measure = async (label: string, nice: number | undefined) => {
    const stop = nice === undefined ? () => {} : encode(nice);
    await new Promise((r) => setTimeout(r, 500));
    const r = await load(base, scenario, { seconds: SECONDS, connections: 20 }).finally(stop);
    return `${label}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (load avg ${load1()})`;
  };
  // Warmed up first (JIT, the first queries), then each case twice, alternating, against the noise.
  await load(base, scenario, { seconds: 2, connections: 20 });
  const lines: string[] = [];
  // 0 as the server ran ffmpeg before, the configured MEDIA_NICENESS, and the lowest priority there is.
  const levels = [...new Set([0, mediaNiceness, 10, 19])];
  for (let round = 1; round <= 2; round++) {
    lines.push(await measure(`no transcode #${round}`, undefined));
    for (const nice of levels)
      lines.push(
        await measure(
          `ffmpeg at nice ${nice}${nice === mediaNiceness ? ' (MEDIA_NICENESS)' : nice === 0 ? ' (before)' : ''} #${round}`,
          nice,
        ),
      );
  }
  return lines.join('; ');
}

/** One answer of the API, body undecoded, with the Content-Encoding it came in. */
function rawAnswer(base: string, sample: Scenario['sample']) {
  return new Promise<{ body: Buffer; encoding: string | undefined }>((resolve, reject) => {
    const request = http.request(
      `${base}${sample.path}`,
      { method: sample.method, headers: sample.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const encoding = response.headers['content-encoding'];
          resolve({
            body: Buffer.concat(chunks),
            encoding: typeof encoding === 'string' ? encoding : undefined,
          });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(sample.body);
  });
}

export async function serverBench(): Promise<Record<string, string>> {
  const dataDir = process.env.BENCH_DATA_DIR;
  const server = await startServer({
    env: { DEMO_VIDEOS: '24', ...(dataDir ? { DATA_DIR: dataDir } : {}) },
    timeoutMs: 600_000,
  });
  const out: Record<string, string> = {
    database: process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (embedded)',
    method: `autocannon, 50 connections, ${RUNS} runs of ${SECONDS} s each, API and bare server alternating`,
  };
  try {
    const only = process.env.BENCH_ONLY ?? '';
    const every = await scenarios(server.url);
    const all = every.filter((s) => s.name.includes(only));
    const guestFeed = every.find((s) => s.name === 'home feed (guest with id)');
    if (guestFeed && 'transcode'.includes(only))
      out['home feed (guest with id), 20 connections, during a transcode'] = await duringTranscode(
        server.url,
        guestFeed,
      );
    for (const scenario of only === 'transcode' ? [] : all) {
      const { sample } = scenario;
      // The bytes as sent (fetch would decode a compressed answer): the bare server sends the same.
      const { body, encoding } = await rawAnswer(server.url, sample);
      const bare = await startBareServer(body, encoding ? { 'content-encoding': encoding } : {});
      const api: LoadResult[] = [];
      const base: LoadResult[] = [];
      const loads: string[] = [];
      try {
        for (let run = 0; run < RUNS; run++) {
          loads.push(load1());
          api.push(await load(server.url, scenario, { seconds: SECONDS }));
          base.push(await load(bare.url, { ...scenario, requests: scenario.requests }, { seconds: SECONDS }));
        }
      } finally {
        await bare.stop();
      }
      const rps = api.map((r) => r.rps);
      const p99 = api.map((r) => r.p99);
      const bareRps = base.map((r) => r.rps);
      const failures = api.reduce((n, r) => n + r.errors + r.non2xx, 0);
      const goal = GOALS[scenario.name];
      const met =
        goal &&
        median(rps) >= goal.rps &&
        (goal.p99 === undefined || median(p99) < goal.p99) &&
        !api.some((r) => r.errors > 0);
      out[`${scenario.name} (${body.length} B${encoding ? ` ${encoding}` : ''})`] =
        `${median(rps).toFixed(0)} req/s (runs ${rps.map((x) => x.toFixed(0)).join(', ')}), ` +
        `p50 ${median(api.map((r) => r.p50))} ms, p99 ${median(p99)} ms (runs ${p99.join(', ')})` +
        `${failures ? `, ${failures} errors/non-2xx` : ''}; bare ${median(bareRps).toFixed(0)} req/s ` +
        `(${bareRps.map((x) => x.toFixed(0)).join(', ')}) = ${((median(rps) / median(bareRps)) * 100).toFixed(1)} % of bare; ` +
        `load avg ${loads.join(', ')}; goal ${goal?.note ?? '-'}: ${met ? 'met' : 'NOT met'}`;
    }
  } finally {
    await server.stop();
  }
  return out;
}

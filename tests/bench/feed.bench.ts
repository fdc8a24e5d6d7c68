// Home-feed throughput at 50 connections against the real server, beside a bare node:http server that
// answers the same bytes: the ratio says what the framework, database and ranking cost per request.
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { startServer } from '../e2e/server';

const CONNECTIONS = 50;
const DURATION_S = 10;

/**
 * The bare server, run by `node -e`: it gets the body over IPC and answers with its port. It runs in a
 * process of its own, as the API server does; in this one it would share the event loop with autocannon,
 * and the ratio would compare two setups instead of two servers.
 */
const BARE_SERVER = `
const http = require('node:http');
process.once('message', (base64) => {
  const body = Buffer.from(base64, 'base64');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
});
`;

async function startBareServer(body: Buffer) {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    child.send(body.toString('base64'));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export async function feedBench(): Promise<Record<string, string>> {
  const server = await startServer({ env: { DEMO_VIDEOS: '24' }, timeoutMs: 300_000 });
  try {
    const feedUrl = `${server.url}/v1/videos?gender=m,t`;
    const body = Buffer.from(await (await fetch(feedUrl)).arrayBuffer());
    const api = await load(feedUrl);

    const bare = await startBareServer(body);
    const baseline = await load(bare.url).finally(bare.stop);

    const fmt = (r: { rps: number; p99: number; errors: number }) =>
      `${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms${r.errors ? `, ${r.errors} errors` : ''}`;
    return {
      [`home feed page (${body.length} bytes), ${CONNECTIONS} connections, ${DURATION_S} s`]: fmt(api),
      'bare node:http, same bytes': fmt(baseline),
      'ratio (API / bare)': `${((api.rps / baseline.rps) * 100).toFixed(1)} % of bare throughput`,
    };
  } finally {
    await server.stop();
  }
}

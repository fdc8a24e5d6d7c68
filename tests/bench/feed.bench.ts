// Home-feed throughput at 50 connections against the real server, beside a bare node:http server that
// answers the same bytes: the ratio says what the framework, database and ranking cost per request.
import autocannon from 'autocannon';
import { startServer } from '../e2e/server';
import { startBareServer } from './bare-server';

const CONNECTIONS = 50;
const DURATION_S = 10;

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
    const baseline = await load(`${bare.url}/`).finally(bare.stop);

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

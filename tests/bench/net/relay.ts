// The latency of `npm run bench -- network`: a TCP relay that holds each chunk for a one-way delay plus
// jitter, in both directions, never reordering bytes within a direction (a chunk leaves no earlier than the
// one before it, as on a real path where a late packet holds back the stream behind it).
//
// Where it sits: INSIDE the bench's network namespace, listening on the namespace's own 127.0.0.1, and
// connecting out to the server across the shaped veth pair (link.ts):
//
//   Chromium ─ 127.0.0.1:PORT (namespace loopback) ─ relay: delay + jitter ─ veth: rate, loss ─ server
//
// - The page's origin is then http://127.0.0.1:PORT, which browsers count as a secure context: the service
//   worker registers and takes control as it does on a phone over https, without
//   --unsafely-treat-insecure-origin-as-secure (which covers a few APIs only and is itself a difference).
// - The delay is added before the upload and after the download crosses the rate limit, so a full bucket's
//   queue and the round trip add up as on a real path.
// - The relay runs in a process of its own (spawned into the namespace with `ip netns exec`), so its timers
//   never wait on the bench's Playwright traffic.
//
// What it cannot copy from a real long-delay path: the TCP connection that crosses the lossy link is
// relay <-> server, whose own round trip is under a millisecond, so a lost packet is repaired within a few
// ms (or after Linux's 200 ms minimum retransmission timeout), not after 300 ms; and Chromium's connections
// to the relay never fail, they only wait. A new connection's first bytes are held for one and a half round
// trips, as a real three-way handshake would hold them (the relay's own connect to the server, lossy but
// without delay, happens at once beside it).
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RelayOptions {
  /** Port on the namespace's 127.0.0.1. */
  port: number;
  targetHost: string;
  targetPort: number;
  /** Round trip added, ms: half of it each way. */
  rttMs: number;
  /** Each chunk's one-way delay varies uniformly by ± half this, ms (so the round trip by ± this). */
  jitterMs: number;
}

/** Stop reading a side when this much is waiting to be written to the other one. */
const HIGH_WATER = 1 << 20;

interface Held {
  at: number;
  chunk: Buffer | null;
}

/** Copies src to dst, each chunk `delay()` later but never before the chunk ahead of it; null: the end. */
function delayedPipe(src: net.Socket, dst: net.Socket, delay: () => number, notBefore: number) {
  const held: Held[] = [];
  let last = notBefore;
  let heldBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const resumeIfRoom = () => {
    if (src.isPaused() && !src.destroyed && heldBytes + dst.writableLength < HIGH_WATER / 2) src.resume();
  };
  const flush = () => {
    timer = undefined;
    const now = performance.now();
    while (held.length > 0 && (held[0]?.at ?? 0) <= now + 0.5) {
      const { chunk } = held.shift() as Held;
      if (dst.destroyed) return;
      if (chunk === null) {
        dst.end();
        return;
      }
      heldBytes -= chunk.length;
      dst.write(chunk);
    }
    const next = held[0];
    if (next) timer = setTimeout(flush, next.at - now);
    resumeIfRoom();
  };
  const hold = (chunk: Buffer | null) => {
    const now = performance.now();
    last = Math.max(now + delay(), last);
    held.push({ at: last, chunk });
    if (chunk) heldBytes += chunk.length;
    timer ??= setTimeout(flush, last - now);
  };
  src.on('data', (chunk: Buffer) => {
    hold(chunk);
    if (heldBytes + dst.writableLength > HIGH_WATER) src.pause();
  });
  src.on('end', () => hold(null));
  dst.on('drain', resumeIfRoom);
  return () => clearTimeout(timer);
}

const stats = { connections: 0, upstreamErrors: 0, bytesDown: 0, bytesUp: 0 };

function startRelay(opts: RelayOptions): Promise<net.Server> {
  const oneWay = () => Math.max(0, opts.rttMs / 2 + (Math.random() - 0.5) * opts.jitterMs);
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    stats.connections++;
    const accepted = performance.now();
    const upstream = net.connect({
      host: opts.targetHost,
      port: opts.targetPort,
      allowHalfOpen: true,
      noDelay: true,
    });
    const stopUp = delayedPipe(client, upstream, oneWay, accepted + 1.5 * opts.rttMs);
    const stopDown = delayedPipe(upstream, client, oneWay, 0);
    upstream.on('data', (d: Buffer) => {
      stats.bytesDown += d.length;
    });
    client.on('data', (d: Buffer) => {
      stats.bytesUp += d.length;
    });
    const close = () => {
      stopUp();
      stopDown();
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', () => {
      stats.upstreamErrors++;
      close();
    });
    // A reset drops what is held, as it would on the wire. A clean close travels as a delayed end instead:
    // each side then closes once both of its directions have ended.
    client.on('error', close);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve(server));
  });
}

const RELAY_FILE = fileURLToPath(import.meta.url);

export interface RunningRelay {
  /** Stops it and answers its counters (a JSON line). */
  stop(): Promise<string>;
  /** At once, for a process that is exiting. */
  kill(): void;
}

/**
 * Starts the relay inside namespace `ns` (`ip netns exec` execs node in place: the child's pid is the
 * relay's own). stop() answers its counters.
 */
export async function spawnRelay(ns: string, opts: RelayOptions): Promise<RunningRelay> {
  const child = spawn(
    'ip',
    ['netns', 'exec', ns, process.execPath, '--import', 'tsx', RELAY_FILE, JSON.stringify(opts)],
    { cwd: path.resolve(path.dirname(RELAY_FILE), '../../..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay not listening after 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', () => {
      if (output.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`relay exited with ${code}:\n${output}`));
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    kill() {
      if (running()) child.kill('SIGKILL');
    },
    async stop() {
      if (!running()) return '';
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
      if (running()) child.kill('SIGKILL');
      return output.split('\n').find((line) => line.startsWith('{')) ?? '';
    },
  };
}

// Run as a process of its own: `node --import tsx relay.ts '<RelayOptions as JSON>'`.
if (process.argv[1] && path.resolve(process.argv[1]) === RELAY_FILE) {
  const opts = JSON.parse(process.argv[2] ?? '{}') as RelayOptions;
  const server = await startRelay(opts);
  process.stdout.write(`listening on 127.0.0.1:${opts.port}\n`);
  process.once('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify(stats)}\n`);
    server.close();
    process.exit(0);
  });
}

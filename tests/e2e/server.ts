// Starts the real server (built PWA + API) on a free port with a fresh data directory, and waits until
// the demo content is ready. Used by the Playwright global setup and the benchmarks.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuilt } from '../../server/bin/build-server.mjs';

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Below Linux's ephemeral range (32768 and up by default), from which outgoing connections take ports. */
const PORTS = { from: 20_000, to: 32_000 };

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/**
 * A port for a server to listen on a few seconds from now. Not one the kernel picks (port 0): those come
 * from the ephemeral range, where any outgoing connection of a busy test run (to PostgreSQL, between the
 * suites' servers) may take it as its source port meanwhile, and the server then fails to listen.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORTS.from + Math.floor(Math.random() * (PORTS.to - PORTS.from));
    if (await bindable(port)) return port;
  }
}

export async function startServer(
  opts: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const root = path.resolve(import.meta.dirname, '../..');
  const dataDir = opts.env?.DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-e2e-')));
  const port = opts.env?.PORT ?? String(await freePort());
  const url = `http://127.0.0.1:${port}`;
  // The compiled server, as `npm start` runs it (built here if its sources are newer).
  const child = spawn(process.execPath, [await ensureServerBuilt()], {
    cwd: root,
    env: {
      ...process.env,
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      // Transcodes at the normal priority: the browser and the test runner share the machine with the
      // server here, and a niced ffmpeg waits behind them (demo seeding, upload tests) instead of behind a
      // crowd's requests. tests/api/media-priority.test.ts checks the server's own setting.
      MEDIA_NICENESS: '0',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (d) => {
    output += d;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready after ${opts.timeoutMs ?? 180_000} ms:\n${output}`)),
      opts.timeoutMs ?? 180_000,
    );
    child.stdout?.on('data', (d) => {
      output += d;
      if (/ready in/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!opts.env?.DATA_DIR) await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

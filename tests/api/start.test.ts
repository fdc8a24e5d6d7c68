// `npm start` under a supervisor that signals npm alone (docker stop, systemd, a CI runner): the server
// must stop with it, not be left running with its port held.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/server';

const root = path.resolve(import.meta.dirname, '../..');

/** Every live process whose parent chain reaches `pid` (from /proc). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (2nd field) may hold spaces: the parent id is the 2nd field after its ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited while we read
    }
  }
  const found: number[] = [];
  for (const child of parents.keys()) {
    for (let p = parents.get(child); p !== undefined && p > 1; p = parents.get(p)) {
      if (p === pid) {
        found.push(child);
        break;
      }
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

let started: { npm: ChildProcess; all: number[]; dir: string } | undefined;
afterEach(() => {
  // A failed assertion must not leave a server behind either.
  for (const pid of started?.all ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
  if (started) fs.rmSync(started.dir, { recursive: true, force: true });
  started = undefined;
});

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server when npm alone gets %s',
    async (signal) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortcams-start-'));
      const port = await freePort();
      const npm = spawn('npm', ['start'], {
        cwd: root,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dir,
          DATABASE_URL: 'memory://',
          SEED_DEMO: '0',
          // A PWA "built elsewhere" (an empty folder): nothing to build, the API starts at once.
          DIST_DIR: dir,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started = { npm, all: [], dir };
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const onData = (d: Buffer) => {
          output += d;
          if (/ready in/.test(output)) resolve();
        };
        npm.stdout?.on('data', onData);
        npm.stderr?.on('data', onData);
        // 'close', not 'exit': by then the last of its output has been read too.
        npm.once('close', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
      });
      expect(await portOpen(port)).toBe(true);
      const tree = descendants(npm.pid as number);
      started.all = [npm.pid as number, ...tree];
      // npm, the node that runs start.mjs and the server (and its esbuild helper) at least.
      expect(tree.length).toBeGreaterThanOrEqual(2);
      // The server runs compiled (server/bin/build-server.mjs), not through tsx: a restart answers sooner.
      const commands = tree.map((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        } catch {
          return '';
        }
      });
      expect(commands.some((c) => c.includes(path.join('build', 'server', 'main.mjs')))).toBe(true);
      expect(commands.filter((c) => c.includes('tsx'))).toEqual([]);

      const exited = new Promise((resolve) => npm.once('exit', resolve));
      process.kill(npm.pid as number, signal);
      await exited;
      // The server may still be closing its database when npm has gone: give it the shutdown's own time.
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline && tree.some(alive)) await new Promise((r) => setTimeout(r, 100));
      expect(tree.filter(alive)).toEqual([]);
      expect(await portOpen(port)).toBe(false);
    },
    60_000,
  );
});

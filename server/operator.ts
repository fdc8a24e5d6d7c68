// The operator socket: how `npm run admin` reaches a running server. PGlite's files can be open in one
// process only, so while the server runs, operator commands travel to it over a Unix socket in DATA_DIR and it
// runs them on its own database handle. The socket file is the operator's alone (mode 0600: only the account
// that runs the server can connect), it is never reachable over the network, and it goes with the server.
//
// Protocol: one JSON line in (`{command}`), one JSON line out (`{ok: true, lines}` or `{ok: false, error}`).
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export const operatorSocketPath = (dataDir: string) => path.join(dataDir, 'operator.sock');

export type OperatorAnswer = { ok: true; lines: string[] } | { ok: false; error: string };

/** A page's HTML travels inside the command; a larger request is refused, not buffered without end. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;
/** The longest path a Unix socket can have on Linux (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

export interface OperatorSocket {
  path: string;
  close(): Promise<void>;
}

/**
 * Listens on `socketPath` and answers each command with `run`. The caller must already hold the data
 * directory's lock (server/db/lock.ts): a socket file found there is a crashed server's and is replaced.
 * Undefined (with a warning) where the path is too long for a Unix socket.
 */
export async function startOperatorSocket(
  socketPath: string,
  run: (command: unknown) => Promise<OperatorAnswer>,
  warn: (message: string) => void = console.warn,
): Promise<OperatorSocket | undefined> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    warn(
      `operator socket: ${socketPath} is too long for a Unix socket; operator commands wait until the ` +
        'server stops (use a shorter DATA_DIR)',
    );
    return undefined;
  }
  await fs.rm(socketPath, { force: true });
  /** Connections that have not sent a whole command yet: cut on close, while running ones finish. */
  const idle = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    idle.add(socket);
    socket.on('close', () => idle.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    let answered = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (answered) return;
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) {
        answered = true;
        socket.end(`${JSON.stringify({ ok: false, error: 'request too large' })}\n`);
        return;
      }
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      answered = true;
      idle.delete(socket);
      let request: { command?: unknown };
      try {
        request = JSON.parse(buffered.slice(0, end)) as { command?: unknown };
      } catch {
        socket.end(`${JSON.stringify({ ok: false, error: 'unreadable request' })}\n`);
        return;
      }
      run(request?.command).then(
        (answer) => socket.end(`${JSON.stringify(answer)}\n`),
        (err: unknown) =>
          socket.end(`${JSON.stringify({ ok: false, error: `server error: ${(err as Error).message}` })}\n`),
      );
    });
  });
  // Created 0600 from the start (umask), not chmod-ed after a moment in which anyone could connect. The bind
  // happens inside listen(), synchronously for a path, so the umask is back before any other file is made.
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(previous);
  }
  await fs.chmod(socketPath, 0o600);
  return {
    path: socketPath,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A command under way finishes first (its answer is written); idle connections are cut.
      for (const socket of idle) socket.destroy();
      await closed;
      await fs.rm(socketPath, { force: true });
    },
  };
}

/**
 * Sends one command to the server on `socketPath`; undefined when no server listens there (no socket file,
 * or one left by a crashed server).
 */
export async function sendOperatorCommand(
  socketPath: string,
  command: unknown,
  { timeoutMs = 120_000 }: { timeoutMs?: number } = {},
): Promise<OperatorAnswer | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`no answer from the server on ${socketPath} within ${timeoutMs / 1000} s`));
    });
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ command })}\n`);
    });
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) resolve(undefined);
      else reject(err);
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(answer) as OperatorAnswer);
      } catch {
        reject(new Error(`unreadable answer from the server on ${socketPath}`));
      }
    });
  });
}

// Slow clients on a listening server (issue 32): a socket silent while the server waits on the client is cut
// after CLIENT_IDLE_TIMEOUT_MS (headers never finished, a body never sent, a kept-alive connection left
// idle), a slow server is never cut, and one address connected directly holds only so many sockets.
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/client';
import { LocalStorage } from '../../server/media/storage';

const IDLE_MS = 400;
let app: FastifyInstance;
let database: Database;
let dataDir: string;
let port = 0;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-slow-'));
  const config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: 'memory://',
    distDir: path.join(dataDir, 'no-dist'),
    logLevel: 'silent',
    clientIdleTimeoutMs: IDLE_MS,
    keepAliveTimeoutMs: IDLE_MS,
    maxConnectionsPerAddress: 4,
    // The test connects from loopback: here loopback is a client, not a proxy of ours.
    trustProxy: false,
  };
  database = await openDatabase(config);
  await database.migrate();
  app = await buildApp({ config, database, storage: new LocalStorage(dataDir) }, { logger: false });
  // A request the server takes longer to answer than the client may stay silent.
  app.get('/slow-answer', async () => {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app.close();
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A raw connection: what it was sent, what came back, and whether the server closed it. */
function connect() {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (d) => {
    received += d.toString();
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.on('error', () => {});
  return {
    socket,
    send: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    received: () => received,
    closed: () => closed,
    ready: new Promise<void>((resolve) => socket.once('connect', () => resolve())),
  };
}

const until = async (what: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!what() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return what();
};

describe('slow clients', () => {
  it('are cut when the headers never end', async () => {
    const c = connect();
    await c.ready;
    await c.send('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(await until(c.closed, IDLE_MS * 10)).toBe(true);
  });

  it('are cut when the body announced never comes', async () => {
    const c = connect();
    await c.ready;
    await c.send(
      'POST /v1/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"em',
    );
    expect(await until(c.closed, IDLE_MS * 10)).toBe(true);
    expect(c.received()).toBe('');
  });

  it('are cut when a kept-alive connection sits idle past KEEP_ALIVE_TIMEOUT_MS, after its answer', async () => {
    const c = connect();
    await c.ready;
    await c.send('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await until(() => c.received().includes('"status":"ok"'), 5000)).toBe(true);
    expect(await until(c.closed, IDLE_MS * 10)).toBe(true);
  });

  it('keep a connection whose bytes keep coming, and never cut a server that takes its time', async () => {
    const c = connect();
    await c.ready;
    const body = '{"email":"slow@example.test","message":"typed slowly"}';
    await c.send(
      `POST /v1/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    for (const part of body.match(/.{1,6}/g) ?? []) {
      await new Promise((r) => setTimeout(r, IDLE_MS / 3));
      await c.send(part);
    }
    expect(await until(() => /^HTTP\/1\.1 20\d/.test(c.received()), 5000)).toBe(true);
    expect(c.closed()).toBe(false);

    const slow = connect();
    await slow.ready;
    await slow.send('GET /slow-answer HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await until(() => slow.received().includes('"ok":true'), IDLE_MS * 10)).toBe(true);
    c.socket.destroy();
    slow.socket.destroy();
  });

  it('hold only so many sockets per address', async () => {
    // Sockets of the earlier tests may still be closing: start from a quiet server.
    await new Promise((r) => setTimeout(r, IDLE_MS * 2));
    // Four sockets, each waiting on a slow answer (the server's turn: none is cut for silence).
    const held = [connect(), connect(), connect(), connect()];
    for (const c of held) {
      await c.ready;
      await c.send('GET /slow-answer HTTP/1.1\r\nHost: x\r\n\r\n');
    }
    const fifth = connect();
    expect(await until(fifth.closed, IDLE_MS * 2)).toBe(true);
    expect(held.some((c) => c.closed())).toBe(false);
    for (const c of held)
      expect(await until(() => c.received().includes('"ok":true'), IDLE_MS * 10)).toBe(true);
    for (const c of held) c.socket.destroy();
  });
});

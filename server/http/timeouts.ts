// Slow clients (issue 32): a connection that sends its headers and then nothing (or a byte a minute) used to
// stay open for good, so one client could hold every file descriptor. A socket may now stay silent for
// CLIENT_IDLE_TIMEOUT_MS while the server waits on the client (for headers, for the body, between requests
// on a kept-alive connection), never while the server itself works on a request whose body is in (a tus
// upload's last PATCH probes the file before it answers). And one address directly connected may hold at most
// MAX_CONNECTIONS_PER_ADDRESS sockets; a trusted proxy, which carries every client, is not capped.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { limitKey } from './address';
import { trustFn } from './trust';

/** What a socket waits for: the client (timed) or the server (not timed). */
const waitsOnServer = Symbol('waitsOnServer');
type TimedSocket = Socket & { [waitsOnServer]?: boolean };

const hasBody = (headers: Record<string, string | string[] | undefined>) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

export function installClientTimeouts(
  app: FastifyInstance,
  config: Pick<Config, 'clientIdleTimeoutMs' | 'maxConnectionsPerAddress' | 'trustProxy' | 'ipv6LimitPrefix'>,
) {
  const idle = config.clientIdleTimeoutMs;
  const open = new Map<string, number>();
  const trusted = trustFn(config.trustProxy);

  if (idle > 0) {
    // Node arms each socket with server.timeout (again at every request of a kept-alive connection) and,
    // given a listener here, leaves the decision to it instead of destroying the socket itself.
    app.server.timeout = idle;
    app.server.on('timeout', (socket: TimedSocket) => {
      if (!socket[waitsOnServer]) socket.destroy();
    });
  }
  app.server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (!peer || config.maxConnectionsPerAddress <= 0 || trusted(peer, 0)) return;
    const key = limitKey(peer, config.ipv6LimitPrefix);
    const count = (open.get(key) ?? 0) + 1;
    if (count > config.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });

  if (idle <= 0) return;
  // The client's turn ends when its request is in: at once for a request without a body, at the body's end
  // otherwise (routes that stream the body read it within their handler). Its turn comes back with the answer.
  app.addHook('onRequest', async (request) => {
    const socket = request.raw.socket as TimedSocket | null;
    if (!socket) return;
    if (!hasBody(request.headers) || request.raw.complete) socket[waitsOnServer] = true;
    else request.raw.once('end', () => (socket[waitsOnServer] = true));
  });
  app.addHook('onResponse', async (request) => {
    const socket = request.raw.socket as TimedSocket | null;
    if (socket) socket[waitsOnServer] = false;
  });
}

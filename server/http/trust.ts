// Which peers are proxies of ours. Fastify believes X-Forwarded-For only from them (its `trustProxy`); the
// geo headers a proxy or CDN sets are believed on the same terms, so a client that reaches the server
// directly can name neither its address nor its country.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

export type TrustFn = (address: string, hop: number) => boolean;

const compiled = new Map<boolean | string, TrustFn>();

/** The TRUST_PROXY setting as a function of the peer's address (compiled once per setting). */
export function trustFn(setting: boolean | string): TrustFn {
  let fn = compiled.get(setting);
  if (!fn) {
    fn =
      typeof setting === 'boolean'
        ? () => setting
        : proxyAddr.compile(
            setting
              .split(',')
              .map((item) => item.trim())
              .filter(Boolean),
          );
    compiled.set(setting, fn);
  }
  return fn;
}

/** Whether the connection's own peer (not anything it forwards) is a trusted proxy. */
export function fromTrustedProxy(raw: IncomingMessage, setting: boolean | string): boolean {
  const peer = raw.socket?.remoteAddress;
  return peer !== undefined && trustFn(setting)(peer, 0);
}

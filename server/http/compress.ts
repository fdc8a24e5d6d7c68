// JSON answers go out compressed to every client that accepts it (every browser does): the home feed's first
// page is 7 KB and discover's 26 KB as JSON text, about a tenth of that compressed, and on a Slow 4G phone each
// 10 KB is some 50 ms before the first picture (issue 17; Lighthouse flagged /v1/discover). Static files have
// their own precompressed twins (static.ts); media is already compressed.
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

export type Encoding = 'br' | 'gzip';

/** Below this a body gains less than its compression headers and the work cost. */
const MIN_BYTES = 1024;

/**
 * The encoding to answer in, for a request's Accept-Encoding: brotli (smaller), else gzip, else none. A
 * `q=0` refuses one; `*` stands for any not named.
 */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(token.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (encoding: Encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/**
 * Per request, the fastest settings: brotli at quality 1 (about 20 µs for the feed's 7 KB first page on this
 * 2-core machine, 1.7 KB out) and gzip at level 3. Quality 5 saved 0.3 KB more for 90-130 µs, and under a
 * crowd that cost more than half the home feed's throughput (9,100 -> 3,800 req/s on PostgreSQL). A body
 * built once and sent many times (discover) takes brotli 6: 0.1 ms for discover's 26 KB, 1.4 KB out, where
 * quality 11 saved another 0.1 KB for 9 ms of a blocked event loop on every build.
 */
function compress(body: Buffer, encoding: Encoding, once: boolean): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body, { level: once ? 9 : 3 });
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: once ? 6 : 1,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** A body and its compressed forms, made once: for an answer built once and sent to many (discover). */
export type Precompressed = Record<Encoding | 'identity', Buffer>;

export function precompress(text: string): Precompressed {
  const identity = Buffer.from(text);
  return { identity, br: compress(identity, 'br', true), gzip: compress(identity, 'gzip', true) };
}

/** Adds Accept-Encoding to the reply's Vary, keeping what a route put there. */
export function varyOnEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const names = typeof vary === 'string' ? vary.split(',').map((v) => v.trim().toLowerCase()) : [];
  if (!names.includes('accept-encoding')) {
    reply.header('Vary', typeof vary === 'string' && vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  }
}

/**
 * Sends `body` in the encoding the request accepts, with Vary. The route has set its own headers; an ETag
 * stays the same for every encoding: it names the JSON, and a 304 is right whichever form the client holds.
 */
export function sendPrecompressed(reply: FastifyReply, body: Precompressed) {
  varyOnEncoding(reply);
  const encoding = acceptedEncoding(reply.request.headers['accept-encoding']);
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.send(body[encoding ?? 'identity']);
}

/** Compresses every JSON answer of 1 KB or more that a route has not compressed itself. */
export function installCompression(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    // Streams (static files, media) and empty answers (204, 304) are left as they are.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !/^application\/(?:[\w.+-]+\+)?json\b/.test(type)) return payload;
    varyOnEncoding(reply);
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < MIN_BYTES) return payload;
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    reply.header('Content-Encoding', encoding);
    const compressed = compress(body, encoding, false);
    reply.header('Content-Length', compressed.length);
    return compressed;
  });
}

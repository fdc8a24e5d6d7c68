import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../src/contract/messages';

/** Hashed build output never changes under the same name; everything else must be revalidated. */
function distCacheControl(filePath: string): string {
  // A precompressed twin (sw.js.br) is cached exactly like the file it stands for.
  const name = path.basename(filePath).replace(/\.(?:br|gz)$/, '');
  if (filePath.includes(`${path.sep}assets${path.sep}`)) return 'public, max-age=31536000, immutable';
  if (
    name.endsWith('.html') ||
    name === 'sw.js' ||
    name.endsWith('.webmanifest') ||
    name.startsWith('registerSW')
  )
    return 'no-cache';
  return 'public, max-age=86400';
}

/**
 * Only a path that names a file may reach the file system. A folder (with its trailing slash, or `.`, in any
 * encoding) would otherwise answer 403 where a missing one answers 404: enough to probe for folder names.
 */
function namesFile(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const last = decoded.split(/[/\\]/).at(-1);
  return last !== undefined && last !== '' && last !== '.' && last !== '..';
}

/**
 * Paths that never fall back to index.html. `/assets/` holds the build's hashed files: a chunk missing after
 * a deploy must fail loudly (404) so the client reloads, not parse the shell as JavaScript.
 */
const NO_FALLBACK_PREFIXES = ['/v1/', '/v1', '/media/', '/healthz', '/assets/'];
const withoutFallback = (url: string) =>
  NO_FALLBACK_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));

/**
 * Media (HLS playlists, segments, images) with HTTP range support, and the built PWA with an SPA fallback:
 * any GET that is not an API, media or /assets/ path and matches no file gets index.html, and the client
 * router shows its own not-found screen.
 */
export async function installStatic(app: FastifyInstance, opts: { mediaRoot: string; distDir: string }) {
  fs.mkdirSync(opts.mediaRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: opts.mediaRoot,
    prefix: '/media/',
    decorateReply: false,
    // No listings, no index files: a folder answers the same 404 as a name that does not exist.
    index: false,
    list: false,
    allowedPath: namesFile,
    // Media paths contain the video id and are replaced whole on re-transcode; a day is safe.
    cacheControl: false,
    setHeaders(res, filePath) {
      const isPlaylist = filePath.endsWith('.m3u8');
      res.setHeader('Cache-Control', isPlaylist ? 'public, max-age=60' : 'public, max-age=86400');
      if (isPlaylist) res.setHeader('Content-Type', 'application/vnd.apple.mpegurl');
      else if (filePath.endsWith('.ts')) res.setHeader('Content-Type', 'video/mp2t');
    },
  });

  const indexHtml = path.join(opts.distDir, 'index.html');
  const hasDist = fs.existsSync(indexHtml);
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      prefix: '/',
      // "/" is the shell itself; served through setHeaders like any .html, so it is never cached stale.
      index: ['index.html'],
      // The build writes .br and .gz beside each text file (vite.config.ts): sent by Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        res.setHeader('Cache-Control', distCacheControl(filePath));
        res.setHeader('Vary', 'Accept-Encoding');
        if (/sw\.js(?:\.br|\.gz)?$/.test(filePath)) res.setHeader('Service-Worker-Allowed', '/');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (hasDist && (request.method === 'GET' || request.method === 'HEAD') && !withoutFallback(url)) {
      return reply
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding')
        .type('text/html')
        .sendFile('index.html', opts.distDir);
    }
    return reply.status(404).send({ message: messages.server.notFound });
  });
}

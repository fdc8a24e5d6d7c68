import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { messages } from '../../src/contract/messages';

/** Hashed build output never changes under the same name; everything else must be revalidated. */
function distCacheControl(filePath: string): string {
  // index.html.br is index.html: the precompressed twin gets the headers of the file it stands for.
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

const API_PREFIXES = ['/v1/', '/v1', '/media/', '/healthz'];
const isApiPath = (url: string) =>
  API_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));

/**
 * Media (HLS playlists, segments, images) with HTTP range support, and the built PWA with an SPA fallback:
 * any GET that is not an API or media path and matches no file gets index.html, and the client router
 * shows its own not-found screen.
 */
export async function installStatic(app: FastifyInstance, opts: { mediaRoot: string; distDir: string }) {
  fs.mkdirSync(opts.mediaRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: opts.mediaRoot,
    prefix: '/media/',
    decorateReply: false,
    index: false,
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
      // The build writes .br and .gz twins (vite.config.ts); they go out to clients that accept them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        res.setHeader('Cache-Control', distCacheControl(filePath));
        res.setHeader('Vary', 'Accept-Encoding');
        if (filePath.endsWith('sw.js')) res.setHeader('Service-Worker-Allowed', '/');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (hasDist && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url)) {
      return reply
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding')
        .type('text/html')
        .sendFile('index.html', opts.distDir);
    }
    return reply.status(404).send({ message: messages.server.notFound });
  });
}

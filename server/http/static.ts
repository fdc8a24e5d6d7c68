import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { messages } from '../../src/contract/messages';
import { contentTypeOf, LocalStorage, type MediaStorage } from '../media/storage';

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
const NO_FALLBACK_PREFIXES = ['/v1/', '/v1', '/media/', '/healthz', '/readyz', '/metrics', '/assets/'];
const withoutFallback = (url: string) =>
  NO_FALLBACK_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`));

/**
 * Cache-Control of a media file. A master playlist grows while a fresh upload's higher renditions finish
 * (server/media/pipeline/), so caches may keep it only for a few seconds: long enough for the player to
 * reuse the copy index.html asked for at boot, short enough that the next view sees the whole ladder (a
 * player reads the master once per view anyway). Media playlists and segments are complete before any master
 * names them; their paths contain the video's key and are replaced whole on re-transcode, so they keep
 * longer lives.
 */
export function mediaCacheControl(name: string): string {
  if (name.endsWith('/master.m3u8') || name === 'master.m3u8') return 'public, max-age=5';
  return name.endsWith('.m3u8') ? 'public, max-age=60' : 'public, max-age=86400';
}

function mediaHeaders(reply: FastifyReply, name: string) {
  reply.header('Cache-Control', mediaCacheControl(name));
  reply.header('Content-Type', contentTypeOf(name) ?? 'application/octet-stream');
}

/** `bytes=start-end` or `bytes=start-` (one range; players ask for no more); undefined otherwise. */
function rangeOf(header: string | undefined): { start: number; end?: number } | undefined {
  const match = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header ?? '');
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] ? Number(match[2]) : undefined;
  return end === undefined || end >= start ? { start, ...(end === undefined ? {} : { end }) } : undefined;
}

/**
 * /media from a remote storage (a bucket), for deployments without a CDN in front of it: the same paths,
 * headers, ranges and 404s as the local files get from @fastify/static.
 */
function serveRemoteMedia(app: FastifyInstance, storage: MediaStorage) {
  app.get<{ Params: { '*': string } }>('/media/*', async (request, reply) => {
    const relative = request.params['*'];
    if (!namesFile(`/${relative}`) || relative.split('/').some((part) => part === '..' || part === '')) {
      return reply.status(404).send({ message: messages.server.notFound });
    }
    const range = rangeOf(request.headers.range);
    const file = await storage.read(relative, range);
    if (!file) return reply.status(404).send({ message: messages.server.notFound });
    mediaHeaders(reply, relative);
    reply.header('Accept-Ranges', 'bytes');
    if (file.range) {
      reply
        .status(206)
        .header('Content-Range', `bytes ${file.range.start}-${file.range.end}/${file.size}`)
        .header('Content-Length', String(file.range.end - file.range.start + 1));
    } else {
      reply.header('Content-Length', String(file.size));
    }
    return reply.send(file.body);
  });
}

/**
 * Media (HLS playlists, segments, images) with HTTP range support, and the built PWA with an SPA fallback:
 * any GET that is not an API, media or /assets/ path and matches no file gets index.html, and the client
 * router shows its own not-found screen.
 */
export async function installStatic(
  app: FastifyInstance,
  opts: { storage: MediaStorage; distDir: string; adsFile?: string | undefined },
) {
  if (opts.storage instanceof LocalStorage) await serveLocalMedia(app, opts.storage.root);
  else serveRemoteMedia(app, opts.storage);
  if (opts.adsFile) serveAdsFile(app, opts.adsFile);
  await serveDist(app, opts.distDir);
}

/**
 * ADS_FILE as /ads.json: the operator's placements kept outside the build (a build rewrites dist), read on
 * each request and revalidated by every page load, so an edit shows at the next one without a restart. A
 * missing or unreadable file answers 404, which the app takes as no ads.
 */
function serveAdsFile(app: FastifyInstance, file: string) {
  app.get('/ads.json', async (_request, reply) => {
    const body = await fs.promises.readFile(file).catch(() => undefined);
    if (!body) return reply.status(404).send({ message: messages.server.notFound });
    return reply.header('Cache-Control', 'no-cache').type('application/json').send(body);
  });
}

async function serveLocalMedia(app: FastifyInstance, mediaRoot: string) {
  fs.mkdirSync(mediaRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaRoot,
    prefix: '/media/',
    decorateReply: false,
    // No listings, no index files: a folder answers the same 404 as a name that does not exist.
    index: false,
    list: false,
    allowedPath: namesFile,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader('Cache-Control', mediaCacheControl(filePath.split(path.sep).join('/')));
      // What a bucket would answer; anything else keeps @fastify/send's type from the extension.
      const type = contentTypeOf(filePath);
      if (type) res.setHeader('Content-Type', type);
    },
  });
}

async function serveDist(app: FastifyInstance, distDir: string) {
  const opts = { distDir };
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

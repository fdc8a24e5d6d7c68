// Security headers on every response (pages, API, media, errors). The Content-Security-Policy is the one
// the PWA runs under without a violation (an e2e checks it): its own scripts, plus the shell's one inline
// boot script by its hash;
// images and media from this origin, the flag service and the configured media/CDN and ad origins.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Where the geo-blocking screen's flags come from (spec §2), fetched by the page and the service worker. */
export const FLAG_ORIGIN = 'https://flagcdn.com';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The inline <style> blocks of the built shell (its splash paints before any CSS file arrives), allowed by
 * hash: a style the build did not write stays refused.
 */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1] ?? ''));
}

/**
 * The classic inline <script> blocks of the built shell (index.html starts the home feed's first page before
 * any module loads), allowed by hash like its style: no other inline script runs.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1] ?? ''));
}

function shellHashes(distDir: string): { styles: string[]; scripts: string[] } {
  try {
    const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
    return { styles: inlineStyleHashes(html), scripts: inlineScriptHashes(html) };
  } catch {
    return { styles: [], scripts: [] };
  }
}

const originOf = (url: string | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

export function contentSecurityPolicy(
  config: Config,
  styleHashes: string[],
  scriptHashes: string[] = [],
): string {
  const media = [originOf(config.mediaPublicUrl), ...config.adOrigins].filter(
    (o): o is string => o !== undefined,
  );
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...scriptHashes],
    'style-src': ["'self'", ...styleHashes],
    // data: and blob: are what the page makes itself (cropped previews, a signature, hls.js's MediaSource).
    'img-src': ["'self'", 'data:', 'blob:', FLAG_ORIGIN, ...media],
    'media-src': ["'self'", 'blob:', ...media],
    // hls.js fetches playlists and segments; the service worker fetches flags to cache them.
    'connect-src': ["'self'", FLAG_ORIGIN, ...media],
    'font-src': ["'self'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

/** Features the app never uses, switched off for it and anything it might embed. */
const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), midi=(), ' +
  'magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()';

export function securityHeaders(config: Config, extraStyleHashes: string[] = []): Record<string, string> {
  const shell = shellHashes(config.distDir);
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(
      config,
      [...shell.styles, ...extraStyleHashes],
      shell.scripts,
    ),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // For browsers older than frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  // Only over https: a browser that saw it over http would ignore it, and local http setups must keep working.
  if (config.publicUrl.startsWith('https://')) {
    headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  }
  return headers;
}

/** Set before any handler runs, so 404s, errors, media and tus answers carry them too. */
export function installSecurityHeaders(app: FastifyInstance, config: Config, extraStyleHashes: string[]) {
  const headers = securityHeaders(config, extraStyleHashes);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}

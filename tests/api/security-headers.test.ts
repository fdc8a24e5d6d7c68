// Security headers on every kind of answer, the policy's sources from the configuration, and the geo
// headers believed only from trusted proxies.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { inlineScriptHashes, inlineStyleHashes } from '../../server/http/security';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let dist: string;
const SHELL_STYLE = 'html{background:#000}';
const SHELL_SCRIPT = 'window.bootFeed = 1';

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-dist-'));
  await fs.writeFile(
    path.join(dist, 'index.html'),
    `<!doctype html><html><head><style>${SHELL_STYLE}</style><script>${SHELL_SCRIPT}</script></head><body><div id="root"></div></body></html>`,
  );
  ctx = await createTestContext({
    config: {
      distDir: dist,
      mediaPublicUrl: 'https://cdn.example.test/media',
      adOrigins: ['https://ads.example.test'],
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const directives = (csp: string) =>
  Object.fromEntries(
    csp.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  ) as Record<string, string[]>;

describe('security headers', () => {
  it('are on pages, API answers, errors, 404s, media and tus', async () => {
    const requests = [
      { method: 'GET', url: '/' },
      { method: 'GET', url: '/some/client/route' },
      { method: 'GET', url: '/v1/videos' },
      { method: 'GET', url: '/v1/videos?page=x' },
      { method: 'GET', url: '/v1/nothing-here' },
      { method: 'GET', url: '/media/videos/none/master.m3u8' },
      { method: 'OPTIONS', url: '/v1/uploads' },
      { method: 'POST', url: '/v1/login', payload: { email: 'a@b.test', password: 'wrong-password' } },
    ] as const;
    for (const req of requests) {
      const res = await ctx.app.inject(req);
      const where = `${req.method} ${req.url} (${res.statusCode})`;
      expect(res.headers['content-security-policy'], where).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], where).toBe('nosniff');
      expect(res.headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], where).toBe('DENY');
      expect(res.headers['permissions-policy'], where).toContain('camera=()');
      // Plain http here: HSTS would be ignored by browsers and break nothing, but it is not ours to send.
      expect(res.headers['strict-transport-security'], where).toBeUndefined();
    }
  });

  it('allow no inline script but the shell boot script by its hash, and images and media only from self, flags, the CDN and the ad origins', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/' });
    const csp = directives(String(res.headers['content-security-policy']));
    expect(inlineScriptHashes(res.body)).toHaveLength(1);
    expect(csp['script-src']).toEqual(["'self'", ...inlineScriptHashes(res.body)]);
    expect(csp['script-src']?.join(' ')).not.toContain('unsafe-inline');
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    for (const name of ['img-src', 'media-src', 'connect-src']) {
      expect(csp[name], name).toContain('https://cdn.example.test');
      expect(csp[name], name).toContain('https://ads.example.test');
    }
    expect(csp['img-src']).toContain('https://flagcdn.com');
    // The shell's splash style by its hash, and nothing inline beyond what the build wrote.
    expect(csp['style-src']).toEqual(expect.arrayContaining(["'self'", ...inlineStyleHashes(res.body)]));
    expect(csp['style-src']?.join(' ')).not.toContain('unsafe-inline');
  });

  it('the API reference page runs under it: its script is a file, its style hashed', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/v1/docs' });
    expect(page.body).not.toMatch(/<script>/);
    const src = /<script src="([^"]+)"><\/script>/.exec(page.body)?.[1];
    expect(src).toBe('/v1/docs/viewer.js');
    const script = await ctx.app.inject({ method: 'GET', url: src ?? '' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    const csp = directives(String(page.headers['content-security-policy']));
    for (const hash of inlineStyleHashes(page.body)) expect(csp['style-src']).toContain(hash);
  });

  it('add HSTS when PUBLIC_URL is https', async () => {
    const https = await createTestContext({ config: { publicUrl: 'https://shortcams.example.test' } });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/v1/videos' });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{8}/);
    } finally {
      await https.close();
    }
  });
});

describe('geo headers', () => {
  it('count only from a trusted proxy, like X-Forwarded-For', async () => {
    const creator = await insertUser(ctx, { type: 'model' });
    await insertVideo(ctx, { userId: creator.id });
    await ctx.database.db.insert(t.geoBlocks).values({ userId: creator.id, countryCode: 'IT' });
    const seen = async (remoteAddress: string) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/v1/users/${creator.id}`,
        headers: { 'cf-ipcountry': 'IT' },
        remoteAddress,
      });
      return res.statusCode;
    };
    // Default TRUST_PROXY: loopback, a proxy on this machine.
    expect(await seen('127.0.0.1')).toBe(404);
    // A client reaching the server directly names its own country: not believed, the profile shows.
    expect(await seen('203.0.113.9')).toBe(200);

    const untrusting = await createTestContext({ config: { trustProxy: false } });
    try {
      const other = await insertUser(untrusting, { type: 'model' });
      await untrusting.database.db.insert(t.geoBlocks).values({ userId: other.id, countryCode: 'IT' });
      const res = await untrusting.app.inject({
        method: 'GET',
        url: `/v1/users/${other.id}`,
        headers: { 'cf-ipcountry': 'IT' },
        remoteAddress: '127.0.0.1',
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await untrusting.close();
    }
  });
});

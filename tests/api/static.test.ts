// The built PWA as the server hands it out: the shell for any app URL, but never for a missing hashed file.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let dist: string;

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-dist-'));
  await fs.mkdir(path.join(dist, 'assets'));
  await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>ShortCams</title>');
  await fs.writeFile(path.join(dist, 'assets', 'index-AbC123.js'), 'export {};');
  ctx = await createTestContext({ config: { distDir: dist } });
});
afterAll(async () => {
  await ctx.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

describe('static PWA files', () => {
  it('serves a hashed asset as immutable, and the shell for app routes', async () => {
    const asset = await get('/assets/index-AbC123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const route = await get('/some-creator');
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toMatch(/^text\/html/);
  });

  it.each(['/assets/index-Old999.js', '/assets/style-Old999.css', '/assets/'])(
    'answers 404 JSON for a missing %s, never the shell (a stale chunk after a deploy must fail)',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'Not found.' });
    },
  );
});

// ADS_FILE: the operator's ad placements served as /ads.json from a file outside the build, read anew on each
// request (issue 33: the e2e suite swaps it between specs, an operator edits it on a running server).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-ads-'));
  file = path.join(dir, 'ads.json');
  ctx = await createTestContext({ config: { adsFile: file } });
});
afterAll(async () => {
  await ctx.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const ads = () => ctx.app.inject({ method: 'GET', url: '/ads.json' });

describe('ADS_FILE', () => {
  it('is served as /ads.json, and an edit shows at the next request', async () => {
    const first = [{ name: 'a', slotId: 'a-1', type: 'pop', href: '/upload' }];
    await fs.writeFile(file, JSON.stringify(first));
    const res = await ads();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual(first);

    await fs.writeFile(file, '[]');
    expect((await ads()).json()).toEqual([]);
  });

  it('answers 404 while the file is missing: no ads, not an error', async () => {
    await fs.rm(file, { force: true });
    const res = await ads();
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });
});

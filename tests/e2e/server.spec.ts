// What the one-port server promises the browser and the service worker: cache headers, SPA fallback,
// JSON errors under /v1, ranges for media.
import { expect, test } from 'playwright/test';

test.describe('serving', () => {
  test('index.html and sw.js are revalidated, hashed assets are immutable', async ({ request }) => {
    const index = await request.get('/');
    expect(index.status()).toBe(200);
    expect(index.headers()['cache-control']).toBe('no-cache');
    const html = await index.text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const js = await request.get(asset as string);
    expect(js.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const sw = await request.get('/sw.js');
    expect(sw.status()).toBe(200);
    expect(sw.headers()['cache-control']).toBe('no-cache');
  });

  test('the build goes out precompressed to clients that accept it, with the same cache rules', async ({
    request,
  }) => {
    const html = await (await request.get('/', { headers: { 'accept-encoding': 'identity' } })).text();
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0] as string;
    expect(asset).toBeTruthy();
    const plain = await request.get(asset, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers()['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip']) {
      const res = await request.get(asset, { headers: { 'accept-encoding': encoding } });
      expect(res.headers()['content-encoding']).toBe(encoding);
      expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers().vary).toContain('Accept-Encoding');
      // The client sees the very same script.
      expect((await res.body()).equals(await plain.body())).toBe(true);
    }
    const shell = await request.get('/discover', { headers: { 'accept-encoding': 'br' } });
    expect(shell.headers()['content-encoding']).toBe('br');
    expect(shell.headers()['cache-control']).toBe('no-cache');
  });

  test('any app path gets the shell; API paths get JSON 404', async ({ request }) => {
    const deep = await request.get('/account/settings/geo-blocking');
    expect(deep.status()).toBe(200);
    expect(deep.headers()['content-type']).toContain('text/html');
    const api = await request.get('/v1/not-a-thing');
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({ message: 'Not found.' });
  });

  test('media answers range requests', async ({ request }) => {
    const feed = await (await request.get('/v1/videos')).json();
    const thumb = feed.data[0].thumbnailUrl as string;
    const res = await request.get(thumb, { headers: { range: 'bytes=0-99' } });
    expect(res.status()).toBe(206);
    expect((await res.body()).length).toBe(100);
  });
});

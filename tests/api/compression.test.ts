// JSON answers are compressed for clients that accept it (issue 17: the feed's and discover's answers were
// sent as plain text, 7 and 26 KB, to phones on slow networks); the decoded body is the same answer.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedEncoding } from '../../server/http/compress';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  const creator = await insertUser(ctx, { gender: 'm', isLive: true });
  // Enough videos that the feed's and discover's answers are well over the 1 KB below which nothing is
  // compressed.
  for (let i = 0; i < 12; i++)
    await insertVideo(ctx, { userId: creator.id, title: `Video ${i}`, likeCount: i + 1, viewCount: i + 1 });
});
afterAll(() => ctx.close());

const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...headers },
  });

const decode = (encoding: string | undefined, raw: Buffer) =>
  encoding === 'br'
    ? zlib.brotliDecompressSync(raw).toString()
    : encoding === 'gzip'
      ? zlib.gunzipSync(raw).toString()
      : raw.toString();

// The feed's next link carries the time of its snapshot, which differs from one request to the next.
const withoutLinks = (answer: Record<string, unknown>) => ({ ...answer, links: undefined });

describe('JSON answers', () => {
  for (const url of ['/v1/videos?gender=m', '/v1/discover?gender=m']) {
    it(`${url}: brotli or gzip as accepted, the same answer decoded, much smaller`, async () => {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(2000);

      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip;q=0.8', 'gzip'],
        ['*', 'br'],
        ['identity', undefined],
        ['br;q=0, gzip;q=0', undefined],
      ] as const) {
        const res = await get(url, accept);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(encoding);
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        expect(withoutLinks(JSON.parse(decode(encoding, res.rawPayload)))).toEqual(
          withoutLinks(plain.json()),
        );
        if (encoding) {
          expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
          expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        }
      }
    });
  }

  it("discover's ETag names the answer in every encoding, and a 304 holds for a compressed copy", async () => {
    const br = await get('/v1/discover?gender=m', 'br');
    const plain = await get('/v1/discover?gender=m');
    expect(br.headers.etag).toBe(plain.headers.etag);
    const again = await get('/v1/discover?gender=m', 'gzip', { 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(String(again.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('a small answer (an error, a probe) is sent as it is', async () => {
    const bad = await get('/v1/videos?gender=x', 'br');
    expect(bad.statusCode).toBe(422);
    expect(bad.headers['content-encoding']).toBeUndefined();
    expect(bad.json().message).toBeTruthy();
  });
});

describe('acceptedEncoding', () => {
  it('prefers brotli, honours q=0 and *, and ignores what it cannot read', () => {
    expect(acceptedEncoding(undefined)).toBeUndefined();
    expect(acceptedEncoding('')).toBeUndefined();
    expect(acceptedEncoding('deflate')).toBeUndefined();
    expect(acceptedEncoding('gzip, br')).toBe('br');
    expect(acceptedEncoding('BR')).toBe('br');
    expect(acceptedEncoding('br;q=0,gzip')).toBe('gzip');
    expect(acceptedEncoding('*;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('br;q=abc, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding(['gzip', 'br'])).toBe('br');
  });
});

// Sends thousands of malformed requests at every route the app registers (collected with the onRoute
// hook, so routes merged from other branches are covered without editing this file) and checks the
// contract of failure: never a 5xx, and every 4xx is JSON with a string `message`.
// Reproduce a failure with FUZZ_SEED=<seed printed in the failure> npx vitest run tests/api/fuzz.test.ts
import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from './form';
import {
  createTestContext,
  errorContractBreach,
  insertUser,
  insertVideo,
  NO_RATE_LIMITS,
  type TestContext,
} from './helpers';
import { bearer } from './social-helpers';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const REQUESTS_PER_ROUND = 2200;

/** mulberry32: tiny, fast and good enough to pick among cases reproducibly. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

let ctx: TestContext;
const routes: { method: string; url: string }[] = [];
const goodHeaders: Record<string, string>[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    config: NO_RATE_LIMITS,
    onRoute(route: RouteOptions) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url });
    },
  });
  // Real tokens too, so malformed input reaches the code behind requireUser.
  const model = await insertUser(ctx, { type: 'model' });
  const user = await insertUser(ctx, { type: 'user' });
  await insertVideo(ctx, { userId: model.id });
  goodHeaders.push(await bearer(ctx, model.id), await bearer(ctx, user.id));
});
afterAll(() => ctx.close());

const FIELDS = [
  'model_id',
  'action',
  'key',
  'country_code',
  'region_code',
  'from',
  'to',
  'event_id',
  'link_id',
  'profile_id',
  'guest_id',
  'user_id',
  'is_live',
  'link_location',
  'video_id',
  'type',
  'email',
  'password',
  'password_confirmation',
  'username',
  'name',
  'gender',
  'rating',
  'reason',
  'message',
  'links',
  'page',
  'query',
  'is_final',
  'tags',
  'title',
  'color',
  'description',
  'phone_number',
  'remember_me',
  '__proto__',
  'constructor',
];

const ODD_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e309',
  'NaN',
  'null',
  'true',
  '99999999999999999999',
  '2147483648',
  'x'.repeat(70_000),
  '\u0000',
  'a\u0000b',
  '%00',
  '../../etc/passwd',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '😀'.repeat(50),
  '\ud800',
  'US-',
  'follow',
  'unfollow',
  'add',
  'US',
  'CA',
  'm',
  't,m',
  '2025-02-30',
  '1970-01-01',
  '9999-12-31',
  'Bearer',
  '{"a":1}',
  '[]',
  // Well-formed values now and then, so the malformed parts reach the code behind the first checks.
  'b5c1d2e3-0000-4000-8000-000000000001',
  '1',
  '3',
];

const ODD_PATH = [
  '0',
  '-1',
  '1',
  '2147483648',
  '99999999999999999999',
  'a'.repeat(300),
  '%00',
  '%zz',
  '%',
  '..%2F..%2F',
  '%F0%9F%98%80',
  'slug-ok',
  "O'Brien",
  '%20',
  'null',
  '[object Object]',
  '1.5',
  'ü',
];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function oddValue(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (r < 0.3) return pick(rand, ODD_STRINGS);
  if (r < 0.45)
    return pick(rand, [0, -1, 1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER]);
  if (r < 0.55) return pick(rand, [true, false, null]);
  if (r < 0.7 && depth < 3)
    return Array.from({ length: Math.floor(rand() * 4) }, () => oddValue(rand, depth + 1));
  if (r < 0.85 && depth < 3) return oddObject(rand, depth + 1);
  return Math.floor(rand() * 10);
}

function oddObject(rand: () => number, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = Math.floor(rand() * 5);
  for (let i = 0; i < n; i++) out[pick(rand, FIELDS)] = oddValue(rand, depth);
  return out;
}

function fillPath(rand: () => number, url: string): string {
  return url
    .replace(/:[A-Za-z_]+/g, () => pick(rand, ODD_PATH))
    .replace(/\*/g, () => pick(rand, ['', 'a/b', '..%2F', 'x.m3u8', '%00']));
}

/** A lone surrogate cannot be URI-encoded; send the raw bytes it would have been instead. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function oddQuery(rand: () => number): string {
  if (rand() < 0.4) return '';
  const parts: string[] = [];
  const n = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) {
    const k = pick(rand, [...FIELDS, 'per_page', 'page[]', 'gender[x]']);
    const val = String(pick(rand, ODD_STRINGS)).slice(0, 500);
    parts.push(`${encodeURIComponent(k)}=${rand() < 0.9 ? encode(val) : val}`);
  }
  return `?${parts.join('&')}`;
}

function oddHeaders(rand: () => number): Record<string, string> {
  const h: Record<string, string> = {};
  const r = rand();
  if (r < 0.25) Object.assign(h, pick(rand, goodHeaders));
  else if (r < 0.5) {
    h.authorization = pick(rand, [
      'Bearer ',
      'Bearer x',
      `Bearer ${'A'.repeat(43)}`,
      `Bearer ${Math.floor(rand() * 1e16)
        .toString(36)
        .repeat(4)}`,
      'Basic dXNlcjpwYXNz',
      'Bearer a b c',
      `Bearer ${'z'.repeat(5000)}`,
    ]);
  }
  if (rand() < 0.2)
    h['idempotency-key'] = pick(rand, ['', 'short', 'valid-key-0000001', 'x'.repeat(300), 'ünï-cödé-key']);
  if (rand() < 0.2) h['cf-ipcountry'] = pick(rand, ['US', 'xx', '', 'USA', '12', 'T1']);
  if (rand() < 0.2) h['cf-region-code'] = pick(rand, ['US-CA', 'CA', '', '-', 'ZZZZ']);
  return h;
}

type Body = Pick<InjectOptions, 'payload' | 'headers'>;

const GUEST = 'b5c1d2e3-0000-4000-8000-000000000001';
/** Valid bodies of known routes: one field at a time is then broken, to get past the first check. */
const TEMPLATES: Record<string, Record<string, unknown>> = {
  '/v1/follow-model': { model_id: 1, action: 'follow' },
  '/v1/event': { event_id: 1, guest_id: GUEST },
  '/v1/link-click': { link_id: 1, guest_id: GUEST, is_live: 0, link_location: 'profile' },
  '/v1/profile-view': { profile_id: 1, guest_id: GUEST },
  '/v1/profile/join-studio': { key: 'some-key' },
  '/v1/profile/add-geo-blocked-country': { country_code: 'US', region_code: 'CA' },
  '/v1/profile/delete-geo-blocked-country': { country_code: 'US', region_code: 'CA' },
  '/v1/profile/stats': { from: '2026-01-01', to: '2026-01-02' },
};

/** Shapes that once turned into 500s (stack overflow, PostgreSQL refusing NUL): sent to every route. */
const HOSTILE: Body[] = [
  {
    payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    headers: { 'content-type': 'application/json' },
  },
  {
    payload: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`,
    headers: { 'content-type': 'application/json' },
  },
  { payload: { key: 'a\u0000b', link_location: '\u0000', country_code: 'U\u0000' } },
  { payload: { '\u0000': 1 } },
  { payload: '{"__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } },
];

function mutated(rand: () => number, url: string): Body | undefined {
  const template = TEMPLATES[url];
  if (!template) return undefined;
  const keys = Object.keys(template);
  const body: Record<string, unknown> = { ...template };
  const victim = pick(rand, keys);
  if (rand() < 0.2) delete body[victim];
  else body[victim] = oddValue(rand);
  return { payload: body as InjectOptions['payload'] };
}

function oddBody(rand: () => number): Body {
  const r = rand();
  if (r < 0.35) return { payload: oddObject(rand) as InjectOptions['payload'] };
  if (r < 0.45)
    return { payload: JSON.stringify(oddValue(rand)), headers: { 'content-type': 'application/json' } };
  if (r < 0.55) {
    const bad = pick(rand, ['{"a":', '{', '[1,2', 'nul', '{"model_id": 1,}', '\u0000', '']);
    return { payload: bad, headers: { 'content-type': 'application/json' } };
  }
  if (r < 0.65) {
    const type = pick(rand, [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'application/json; charset=utf-16',
      'image/png',
      'garbage',
    ]);
    return { payload: 'model_id=1&action=follow', headers: { 'content-type': type } };
  }
  if (r < 0.7)
    return { payload: `{"x":"${'a'.repeat(1_200_000)}"}`, headers: { 'content-type': 'application/json' } };
  if (r < 0.78) return { payload: { [pick(rand, FIELDS)]: 'y'.repeat(100_000) } };
  return {};
}

describe('fuzz: malformed requests against every registered route', () => {
  it('collects the routes of every module', () => {
    const urls = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const expected of [
      'GET /v1/users/:id',
      'POST /v1/follow-model',
      'POST /v1/event',
      'POST /v1/profile/stats',
    ]) {
      expect(urls).toContain(expected);
    }
  });

  it('answers hostile bodies on every route with a 4xx message (or success where the body is ignored)', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const [n, body] of HOSTILE.entries()) {
        const rand = prng(n);
        const url = fillPath(rand, route.url);
        const res = await ctx.app.inject({
          method: route.method as InjectOptions['method'],
          url,
          headers: { ...goodHeaders[0], ...(body.headers as Record<string, string> | undefined) },
          payload: body.payload,
        });
        const ok = res.statusCode < 400 || (res.statusCode < 500 && typeof res.json().message === 'string');
        if (!ok)
          failures.push(`${route.method} ${url} hostile#${n} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it(`sends ${REQUESTS_PER_ROUND} malformed requests: no 5xx, every 4xx a JSON message (seed ${SEED})`, async () => {
    const rand = prng(SEED);
    const failures: string[] = [];
    let sent = 0;
    const statuses: Record<number, number> = {};
    for (let i = 0; i < REQUESTS_PER_ROUND; i++) {
      const route = routes[i % routes.length] ?? { method: 'GET', url: '/' };
      const url = `${fillPath(rand, route.url)}${oddQuery(rand)}`;
      const body =
        route.method === 'GET' && rand() < 0.7
          ? {}
          : ((rand() < 0.4 ? mutated(rand, route.url) : undefined) ?? oddBody(rand));
      const headers = { ...oddHeaders(rand), ...(body.headers as Record<string, string> | undefined) };
      const options: InjectOptions = { method: route.method as InjectOptions['method'], url, headers };
      if (body.payload !== undefined) options.payload = body.payload;
      let res: Awaited<ReturnType<typeof ctx.app.inject>>;
      try {
        res = await ctx.app.inject(options);
      } catch (error) {
        failures.push(`#${i} ${route.method} ${url.slice(0, 120)} threw ${String(error)}`);
        continue;
      }
      sent++;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const describeReq = () =>
        `#${i} ${route.method} ${url.slice(0, 120)} ${JSON.stringify(options.payload ?? null).slice(0, 160)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
      const breach = errorContractBreach(res);
      if (breach) failures.push(`${breach}: ${describeReq()}`);
      else if (res.statusCode >= 400 && /\bat \S+ \(|node_modules|\.ts:\d+/.test(res.body)) {
        failures.push(`stack trace leaked: ${describeReq()}`);
      }
    }
    if (process.env.FUZZ_VERBOSE) console.log(JSON.stringify({ sent, routes: routes.length, statuses }));
    expect(sent).toBeGreaterThanOrEqual(2000);
    // The limits are lifted here, so a 429 would mean a route answered without doing its work.
    expect(statuses[429] ?? 0).toBe(0);
    expect(failures, `seed ${SEED}: ${failures.length} failures`).toEqual([]);
  }, 600_000);

  it('answers a 17 MB multipart file on every route that takes a body: no 5xx, every 4xx a JSON message', async () => {
    const big = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(17 * 1024 * 1024)]);
    const failures: string[] = [];
    for (const route of routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method))) {
      const url = fillPath(prng(SEED), route.url);
      for (const field of ['profile_photo', 'front_picture_id', 'video']) {
        const { payload, headers } = multipartBody({
          [field]: { filename: 'big.jpg', contentType: 'image/jpeg', data: big },
        });
        const res = await ctx.app.inject({
          method: route.method as InjectOptions['method'],
          url,
          payload,
          headers: { ...goodHeaders[0], ...headers },
        });
        const breach = errorContractBreach(res);
        if (breach)
          failures.push(`${breach}: ${route.method} ${url} ${field} → ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

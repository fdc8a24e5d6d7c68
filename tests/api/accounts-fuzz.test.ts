// 2,400 malformed requests across the account routes: wrong types, missing fields, huge strings, bad
// JSON, wrong content types, broken multipart. None may answer 5xx; every 4xx must be a JSON {message}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import { createTestContext, insertUser, type TestContext } from './helpers';

let ctx: TestContext;
let token = '';

beforeAll(async () => {
  ctx = await createTestContext({ config: { authRateLimit: 100_000, contactRateLimit: 100_000 } });
  token = await issueAccessToken(
    ctx.database.db,
    (await insertUser(ctx, { verificationStatus: 'none' })).id,
    false,
  );
});
afterAll(() => ctx.close());

// Deterministic, so a failure is reproducible.
let seed = 20261122;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

const values: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  ' ',
  'a',
  'x'.repeat(300),
  'y'.repeat(70_000),
  '💥\u0000\u202e',
  '../../etc/passwd',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  'a@b.cd',
  'not an email',
  '2000-02-30',
  '#ff00zz',
  [],
  [1, 2],
  {},
  { $ne: null },
  [{ action: 'add' }],
  [{ action: 'delete', id: 'x' }],
  [{ url: 'x'.repeat(5000), action: 'add' }],
];
const fields = [
  'username',
  'type',
  'name',
  'email',
  'password',
  'password_confirmation',
  'gender',
  'country',
  'phone_number',
  'terms',
  'remember_me',
  'token',
  'message',
  'links',
  'description',
  'color',
  'user_id',
  'date_of_birth',
];
const routes = [
  '/v1/check-username',
  '/v1/register',
  '/v1/resend-email',
  '/v1/login',
  '/v1/login/token',
  '/v1/forgot-password',
  '/v1/logout',
  '/v1/contact',
  '/v1/profile',
  '/v1/profile/verification',
];

function randomRequest() {
  const url = pick(routes);
  const headers: Record<string, string> = rand() < 0.6 ? { authorization: `Bearer ${token}` } : {};
  const kind = rand();
  if (kind < 0.55) {
    const body: Record<string, unknown> = {};
    const count = Math.floor(rand() * 6);
    for (let i = 0; i < count; i++) body[pick(fields)] = pick(values);
    return {
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    };
  }
  if (kind < 0.7) {
    const payload = pick(['{', '{"email":', 'null', '[]', '"str"', '{"a":1}}', '\u0000', '']);
    return { url, headers: { ...headers, 'content-type': 'application/json' }, payload };
  }
  if (kind < 0.8) {
    const type = pick(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'image/png']);
    return { url, headers: { ...headers, 'content-type': type }, payload: 'email=a@b.cd&password=x' };
  }
  // Multipart: garbage, a truncated form, a wrong boundary, or an oversized field.
  const boundary = 'fuzzboundary';
  const payload = pick([
    'garbage',
    `--${boundary}\r\nContent-Disposition: form-data; name="legal_name"\r\n\r\nJane`,
    `--other\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--other--\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="address"\r\n\r\n${'z'.repeat(20_000)}\r\n--${boundary}--\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="signature"; filename="s.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n--${boundary}--\r\n`,
  ]);
  return {
    url,
    headers: {
      ...headers,
      'content-type': pick([`multipart/form-data; boundary=${boundary}`, 'multipart/form-data']),
    },
    payload,
  };
}

describe('fuzzing the account routes', () => {
  it('answers 2,400 malformed requests without a 5xx, every 4xx as JSON {message}', async () => {
    const failures: string[] = [];
    for (let i = 0; i < 2400; i++) {
      const req = randomRequest();
      const res = await ctx.app.inject({ method: 'POST', ...req });
      const body = (() => {
        try {
          return res.json() as { message?: unknown };
        } catch {
          return undefined;
        }
      })();
      if (res.statusCode >= 500 || (res.statusCode >= 400 && typeof body?.message !== 'string')) {
        failures.push(
          `${res.statusCode} ${req.url} ${req.headers['content-type']} ${String(req.payload).slice(0, 120)} → ${res.body.slice(0, 200)}`,
        );
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  }, 240_000);
});

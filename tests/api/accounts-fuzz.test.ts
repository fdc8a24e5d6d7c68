// 2,400 malformed requests across the account routes: wrong types, missing fields, huge strings, bad
// JSON, wrong content types, broken multipart, oversized files. None may answer 5xx; every 4xx must be a
// JSON {message}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import { messages } from '../../src/contract';
import { multipartBody, type Part } from './form';
import {
  createTestContext,
  errorContractBreach,
  insertUser,
  NO_RATE_LIMITS,
  type TestContext,
} from './helpers';

let ctx: TestContext;
let token = '';

beforeAll(async () => {
  ctx = await createTestContext({ config: NO_RATE_LIMITS });
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
      const breach = errorContractBreach(res);
      if (breach) {
        failures.push(
          `${breach}: ${res.statusCode} ${req.url} ${req.headers['content-type']} ${String(req.payload).slice(0, 120)} → ${res.body.slice(0, 200)}`,
        );
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  }, 240_000);

  it('refuses 17 MB images on every image field with a JSON 422 naming the field, never a 5xx', async () => {
    const big = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(17 * 1024 * 1024)]);
    const file: Part = { filename: 'big.png', contentType: 'image/png', data: big };
    const form = { legal_name: 'Jane', gender: 't', country: 'DE', date_of_birth: '1990-01-01', age: '30' };
    const cases: [string, string, Record<string, Part>][] = [
      ['/v1/profile', 'profile_photo', { profile_photo: file }],
      ['/v1/profile', 'profile_cover', { profile_cover: file }],
      ['/v1/profile/verification', 'front_picture_id', { ...form, front_picture_id: file }],
      ['/v1/profile/verification', 'signature', { ...form, signature: file }],
    ];
    // The fuzzing above may have logged the first token out.
    const owner = await insertUser(ctx, { verificationStatus: 'none' });
    const bearer = `Bearer ${await issueAccessToken(ctx.database.db, owner.id, false)}`;
    const failures: string[] = [];
    for (const [url, field, parts] of cases) {
      const { payload, headers } = multipartBody(parts);
      for (const authorization of [bearer, undefined]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url,
          payload,
          headers: authorization ? { ...headers, authorization } : headers,
        });
        const breach = errorContractBreach(res);
        if (breach) failures.push(`${breach}: ${url} ${field} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        else if (authorization)
          expect(res.json(), `${url} ${field}`).toEqual({
            message: messages.profile.imageTooLarge,
            errors: { [field]: [messages.profile.imageTooLarge] },
          });
        else expect(res.statusCode).toBe(401);
      }
      // Cut off inside the oversized file.
      const cut = await ctx.app.inject({
        method: 'POST',
        url,
        payload: payload.subarray(0, payload.length - 1000),
        headers: { ...headers, authorization: bearer },
      });
      const breach = errorContractBreach(cut);
      if (breach)
        failures.push(`${breach}: ${url} ${field} cut → ${cut.statusCode} ${cut.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

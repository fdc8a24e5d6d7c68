// The classes of bad input that once answered 500, generated for every route the app registers (collected
// with the onRoute hook) and every field its reference entry declares (config.doc: path, query and body
// schemas), so the next route or field added is covered without anyone remembering: numbers out of the
// integer range, forged cursors, lone UTF-16 surrogates and deep JSON. Each request starts from a body
// that fits the route's schema and breaks one field, so the bad value reaches the code behind the checks.
// Never a 5xx; every 4xx a JSON message; text that cannot be stored and forged cursors are always refused.
import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { jsonSchema, type Operation } from '../../server/http/doc';
import {
  createTestContext,
  errorContractBreach,
  insertUser,
  insertVideo,
  NO_RATE_LIMITS,
  type TestContext,
} from './helpers';
import { bearer } from './social-helpers';

interface Route {
  method: string;
  url: string;
  doc: Operation | undefined;
}

let ctx: TestContext;
const routes: Route[] = [];
let auths: Record<string, string>[] = [];
let videoId = 1;

beforeAll(async () => {
  ctx = await createTestContext({
    config: NO_RATE_LIMITS,
    onRoute(route: RouteOptions) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const doc = (route.config as { doc?: Operation } | undefined)?.doc;
      for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, doc });
    },
  });
  const model = await insertUser(ctx, { type: 'model' });
  const channel = await insertUser(ctx, { type: 'channel' });
  const user = await insertUser(ctx, { type: 'user' });
  videoId = (await insertVideo(ctx, { userId: model.id })).id;
  const [tag] = await ctx.database.db.insert(t.tags).values({ name: 'neon', slug: 'neon' }).returning();
  await ctx.database.db.insert(t.videoTags).values({ videoId, tagId: tag?.id ?? 0 });
  const [site] = await ctx.database.db
    .insert(t.webcamSites)
    .values({ name: 'Site', slug: 'site' })
    .returning();
  await ctx.database.db.insert(t.creatorWebcamSites).values({ userId: model.id, siteId: site?.id ?? 0 });
  // Guests, a creator, a channel and a plain user: each reaches different code behind the login checks.
  auths = [{}, await bearer(ctx, model.id), await bearer(ctx, channel.id), await bearer(ctx, user.id)];
});
afterAll(() => ctx.close());

const GUEST = 'b5c1d2e3-0000-4000-8000-000000000001';
const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');

/** Values that no id, count or time of this API can be. */
const OUT_OF_RANGE: unknown[] = [
  2147483648,
  -2147483649,
  1e308,
  -1e308,
  9007199254740994,
  0.5,
  '2147483648',
  '99999999999999999999',
  '1e308',
  '-0',
];
const SURROGATES = ['\ud800', 'a\udc00b', '\udbff\udbff', `${'x'.repeat(20)}\ud83d`, '\udfff😀'];
/** Cursors of every kind the lists make (chrono, ranked, tags), each with one part impossible. */
const FORGED_CURSORS = [
  b64({ p: 8.64e15, i: 1 }),
  b64({ p: Date.UTC(10000, 0, 1), i: 1 }),
  b64({ p: -8.64e15, i: 1 }),
  b64({ p: 1, i: 2147483648 }),
  b64({ p: 1e308, i: 1e308 }),
  b64({ at: 8.64e15, seen: '' }),
  b64({ at: Date.UTC(10000, 0, 1), seen: '1' }),
  b64({ at: 1, seen: 'zzzzzzzzzzzzzzzzzz' }),
  b64({ n: '\ud800', i: 1 }),
  b64({ n: 'a', i: 99999999999 }),
  Buffer.from('{"p":1,"i":1,"n":"\\ud800"}').toString('base64url'),
];

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}
const DEEP = [nested(40, 1), nested(2000, 'x')];

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  format?: string;
};

/** A value that fits `schema` well enough to pass its type check, so that the field broken next is reached. */
function fitting(name: string, schema: JsonSchema | undefined): unknown {
  if (!schema) return 1;
  if (name === 'guest_id') return GUEST;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (branch) return fitting(name, branch);
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return name.endsWith('id') || name === 'id' ? videoId : 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [fitting(name, schema.items)];
  if (type === 'object')
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fitting(k, s)]));
  if (schema.format === 'email' || name.includes('email')) return 'someone@example.test';
  if (name === 'url') return 'example.com';
  return 'text';
}

function properties(schema: unknown): Record<string, JsonSchema> {
  if (!schema) return {};
  const json = jsonSchema(schema as Parameters<typeof jsonSchema>[0]) as JsonSchema;
  // A variant (links: add | delete) documents its branches; each branch's fields count.
  const branches = json.anyOf ?? json.oneOf ?? [json];
  return Object.assign({}, ...branches.map((b) => b.properties ?? {}));
}

/** Path parameters filled with names that exist, so the request gets past the 404. */
const GOOD_PATH: Record<string, () => string> = {
  id: () => String(videoId),
  tag: () => 'neon',
  category: () => 'most-liked-this-week',
  site: () => 'site',
  slug: () => 'faq',
};
const fillPath = (url: string, override?: [string, string]) =>
  url
    .replace(/:([A-Za-z_]+)/g, (_, name: string) =>
      override?.[0] === name ? override[1] : (GOOD_PATH[name]?.() ?? '1'),
    )
    .replace(/\*/g, 'x');

interface Case {
  label: string;
  options: InjectOptions;
  /** The answer must be a 4xx: the input can never be right. */
  refused: boolean;
  /** …and exactly this status. */
  status?: number;
}

/** Every class of bad input for one route: each field of each part, one at a time. */
function casesOf(route: Route): Case[] {
  const method = route.method as InjectOptions['method'];
  const cases: Case[] = [];
  const pathParams = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
  const query = properties(route.doc?.query);
  const body = properties(route.doc?.body);
  // Routes without a JSON body in their reference still parse one if sent: the generic fields go too.
  const bodyFields = Object.keys(body).length ? body : { video_id: {}, id: {}, message: {}, guest_id: {} };
  const template = Object.fromEntries(Object.entries(bodyFields).map(([k, s]) => [k, fitting(k, s)]));
  const withBody = method !== 'GET' && method !== 'DELETE' && method !== 'OPTIONS';
  const jsonBody = withBody && !route.doc?.rawBody;
  const send = (url: string, payload?: unknown): InjectOptions => ({
    method,
    url,
    ...(payload !== undefined && withBody ? { payload: payload as InjectOptions['payload'] } : {}),
  });
  const base = fillPath(route.url);

  for (const name of pathParams) {
    for (const value of OUT_OF_RANGE) {
      const url = fillPath(route.url, [name, encodeURIComponent(String(value))]);
      cases.push({ label: `path ${name}=${value}`, options: send(url, template), refused: false });
    }
  }
  for (const name of new Set([...Object.keys(query), 'page', 'per_page', 'tags'])) {
    for (const value of OUT_OF_RANGE) {
      cases.push({
        label: `query ${name}=${value}`,
        options: send(`${base}?${name}=${encodeURIComponent(String(value))}`, template),
        refused: false,
      });
    }
    for (const value of SURROGATES) {
      // A lone surrogate has no UTF-8 form: on the wire it arrives as the bytes a careless encoder writes.
      const raw = Buffer.from(value, 'utf16le').toString('hex');
      cases.push({
        label: `query ${name} surrogate ${raw}`,
        options: send(
          `${base}?${name}=%ED%A0%80${encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))}`,
        ),
        refused: false,
      });
    }
  }
  if (method === 'GET') {
    for (const cursor of FORGED_CURSORS) {
      cases.push({
        label: `cursor ${cursor}`,
        options: send(`${base}?cursor=${cursor}`),
        // A list documents its cursor; every cursor it hands out is one it can read back.
        refused: 'cursor' in query,
        ...('cursor' in query ? { status: 422 } : {}),
      });
    }
  }
  if (withBody) {
    for (const name of Object.keys(bodyFields)) {
      const broken = (value: unknown) => ({ ...template, [name]: value });
      for (const value of OUT_OF_RANGE) {
        cases.push({ label: `body ${name}=${value}`, options: send(base, broken(value)), refused: false });
      }
      for (const value of SURROGATES) {
        cases.push({
          label: `body ${name}=${JSON.stringify(value)}`,
          options: send(base, broken(value)),
          refused: jsonBody,
        });
        cases.push({
          label: `body ${name}=[${JSON.stringify(value)}]`,
          options: send(base, broken([{ name: value }])),
          refused: jsonBody,
        });
      }
      for (const [n, value] of DEEP.entries()) {
        cases.push({
          label: `body ${name} deep#${n}`,
          options: send(base, broken(value)),
          refused: jsonBody,
        });
      }
    }
  }
  return cases;
}

describe('classes of bad input on every route and every documented field', () => {
  it('collects documented routes of every module', () => {
    const documented = routes.filter((r) => r.url.startsWith('/v1') && r.doc);
    expect(documented.length).toBeGreaterThan(50);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain('POST /v1/contact');
  });

  it('answers each one with a 4xx message (or success where the value is ignored), never a 5xx', async () => {
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let sent = 0;
    for (const route of routes) {
      for (const [n, c] of casesOf(route).entries()) {
        const headers = auths[(sent + n) % auths.length] ?? {};
        const res = await ctx.app.inject({ ...c.options, headers: { ...headers, ...c.options.headers } });
        sent++;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const where = `${route.method} ${route.url} ${c.label} → ${res.statusCode} ${res.body.slice(0, 120)}`;
        const breach = errorContractBreach(res);
        if (breach) failures.push(`${breach}: ${where}`);
        else if (c.refused && res.statusCode < 400) failures.push(`accepted: ${where}`);
        else if (c.status && res.statusCode !== c.status) failures.push(`not ${c.status}: ${where}`);
      }
    }
    console.log(`[fuzz classes] ${sent} requests over ${routes.length} routes: ${JSON.stringify(statuses)}`);
    expect(sent).toBeGreaterThan(3000);
    expect(statuses[500] ?? 0).toBe(0);
    expect(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
  }, 900_000);
});

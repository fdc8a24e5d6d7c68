// The served API document as other tools read it: Redocly's recommended lint (with the exceptions and
// reasons of redocly.yaml), a client generator (openapi-typescript) whose types must type-check real calls
// and refuse a wrong one, and the answers the document promises checked against what the server does.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig, lintFromString, loadConfig, type NormalizedProblem } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, insertUser, NO_RATE_LIMITS, type TestContext } from './helpers';
import { bearer } from './social-helpers';

const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Op {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}

let ctx: TestContext;
let source: string;
let doc: { paths: Record<string, Record<string, Op>> };
let user: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestContext({
    // The document names the server it is served from (PUBLIC_URL); a deployment's is no localhost, the
    // default that Redocly's no-server-example.com rightly warns about.
    config: { ...NO_RATE_LIMITS, publicUrl: 'https://shortcams.test' },
  });
  user = await bearer(ctx, (await insertUser(ctx, { type: 'model' })).id);
  const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs/openapi.json' });
  expect(res.statusCode).toBe(200);
  source = res.body;
  doc = JSON.parse(source);
});
afterAll(() => ctx.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path: p, op })),
  );

const problemText = (p: NormalizedProblem) =>
  `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;

describe('the served OpenAPI document', () => {
  it("passes Redocly's recommended lint: no error, no warning beyond redocly.yaml's reasoned exceptions", async () => {
    const config = await loadConfig({ configPath: REDOCLY_CONFIG });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(problems.map(problemText)).toEqual([]);
  });

  it('has only the one ambiguous path pair redocly.yaml explains', async () => {
    const config = await createConfig({ rules: { 'no-ambiguous-paths': 'error' } });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(problems.filter((p) => p.ruleId === 'no-ambiguous-paths').map((p) => p.message)).toEqual([
      'Paths should resolve unambiguously. Found two ambiguous paths: `/v1/videos/start/{id}` and `/v1/videos/{id}/delete`.',
    ]);
  });

  it('names every operation once, with the names clients were generated with', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.length).toBeGreaterThan(50);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    const idOf = (method: string, p: string) => doc.paths[p]?.[method]?.operationId;
    expect(idOf('post', '/v1/login')).toBe('postLogin');
    expect(idOf('get', '/v1/videos')).toBe('getVideoFeed');
    expect(idOf('get', '/v1/users/{id}/videos')).toBe('getUsersByIdVideos');
    expect(idOf('post', '/v1/video-rating/rate')).toBe('postVideoRatingRate');
    expect(idOf('get', '/v1/videos/{id}/delete')).toBe('deleteVideo');
  });

  it('states security on every call, and the calls that ask for a bearer answer 401 without one', async () => {
    for (const { method, path: p, op } of operations()) {
      const required = JSON.stringify(op.security) === JSON.stringify([{ bearer: [] }]);
      const res = await ctx.app.inject({
        method: method.toUpperCase() as 'GET',
        url: p.replace(/\{\w+\}/g, '1'),
      });
      if (required) expect(res.statusCode, `${method} ${p}`).toBe(401);
      else expect(op.security, `${method} ${p}`).toBeDefined();
    }
  });

  it('documents the answers of the checks every request meets, with and without a bearer', async () => {
    const json = { 'content-type': 'application/json' };
    const attempts = (method: string) => [
      { query: '?x=%00' },
      ...(['post', 'put', 'patch'].includes(method)
        ? [
            { headers: json, payload: '{' },
            { headers: json, payload: JSON.stringify({ a: 'x'.repeat(1024 * 1024) }) },
            { headers: json, payload: `${'['.repeat(40)}${']'.repeat(40)}` },
            { headers: json, payload: '{"x":"\\ud800"}' },
          ]
        : []),
    ];
    for (const { method, path: p, op } of operations()) {
      // Without a bearer many calls stop at their 401; with one, the request reaches what lies behind it.
      for (const auth of [{}, user]) {
        for (const { query = '', headers = {}, payload } of attempts(method)) {
          const res = await ctx.app.inject({
            method: method.toUpperCase() as 'GET',
            url: `${p.replace(/\{\w+\}/g, '1')}${query}`,
            headers: { ...auth, ...headers },
            ...(payload === undefined ? {} : { payload }),
          });
          expect(
            Object.keys(op.responses),
            `${method} ${p}${query} ${payload?.slice(0, 20) ?? ''}`,
          ).toContain(String(res.statusCode));
        }
      }
    }
  });

  it('generates TypeScript types that accept real calls and refuse a wrong one', async () => {
    const dts = astToString(await openapiTS(JSON.parse(source)));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-openapi-'));
    try {
      await fs.writeFile(path.join(dir, 'api.d.ts'), dts);
      const head = `import type { components, operations, paths } from './api';
type JsonBody<T> = NonNullable<T> extends { content: { 'application/json': infer B } } ? B : never;
type LikeBody = JsonBody<paths['/v1/video-like']['post']['requestBody']>;
`;
      await fs.writeFile(
        path.join(dir, 'calls.ts'),
        `${head}
const login: JsonBody<operations['postLogin']['requestBody']> = { email: 'a@b.test', password: 'secret', remember_me: true };
declare const answer: paths['/v1/login']['post']['responses'][200]['content']['application/json'];
export const token: string | undefined = 'access_token' in answer ? answer.access_token : undefined;
const refused: components['schemas']['Error'] = { message: 'Validation failed.', errors: { email: ['Required.'] } };
declare const unauthorized: paths['/v1/profile']['get']['responses'][401]['content']['application/json'];
export const why: string = unauthorized.message;
const like: LikeBody = { video_id: 1, type: 'add', guest_id: 'guest-0001' };
const profile: paths['/v1/users/{id}']['get']['parameters']['path'] = { id: '1' };
const feed: NonNullable<operations['getVideoFeed']['parameters']['query']> = { gender: 'm', page: '2' };
export const all = [login, refused, like, profile, feed];
`,
      );
      await fs.writeFile(
        path.join(dir, 'wrong.ts'),
        `${head}
export const toggle: LikeBody = { video_id: 1, type: 'toggle' };
`,
      );
      const program = ts.createProgram({
        rootNames: [path.join(dir, 'calls.ts'), path.join(dir, 'wrong.ts')],
        options: {
          strict: true,
          noEmit: true,
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          lib: ['lib.es2022.d.ts'],
          types: [],
        },
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ({
        file: path.basename(d.file?.fileName ?? ''),
        text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      }));
      expect(diagnostics.filter((d) => d.file !== 'wrong.ts')).toEqual([]);
      expect(diagnostics).toEqual([{ file: 'wrong.ts', text: expect.stringContaining('"toggle"') }]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

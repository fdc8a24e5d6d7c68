import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('health and error shapes', () => {
  it('answers /healthz (liveness: the process answers; /readyz checks its dependencies)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown API path with a JSON message, not HTML', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });

  it('answers malformed JSON with a 400 message and no stack trace', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/nope',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers 422 with per-field errors for an invalid query', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/videos?gender=x&page=0' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['gender', 'page']);
    expect(body.message).toBe(body.errors.gender[0]);
  });
});

// A Redis that is down (restarting, unreachable) must never answer 500, nor lift a limit: logins are refused
// for the moment (503, try again shortly), since counting guesses per node would multiply them by the nodes;
// every other limit counts in the node's own memory until Redis answers again.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/password';
import { messages } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let videoId = 0;
const PASSWORD = 'right-password';

/** A port that refuses connections: what a stopped Redis looks like to the API. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  ctx = await createTestContext({
    config: {
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      loginFailureLimit: 3,
      guestsPerAddress: 2,
      checkUsernameRateLimit: 3,
    },
  });
  const creator = await insertUser(ctx);
  videoId = (await insertVideo(ctx, { userId: creator.id })).id;
});
afterAll(() => ctx.close());

const login = (email: string, password: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { email, password },
    remoteAddress: '203.0.113.7',
  });

describe('with Redis down', () => {
  it('logins answer 503 with Retry-After, so no guess is counted by one node alone (before: 401, 401, …)', async () => {
    const user = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    for (const password of ['wrong-guess', PASSWORD]) {
      const res = await login(user.email, password);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().message).toBe(messages.auth.busy);
    }
  });

  it('per-address limits still count, in the node (before: skipped while Redis was down)', async () => {
    const check = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/v1/check-username',
        payload: { username: 'outage_name' },
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < 3; i++) expect((await check()).statusCode).toBe(200);
    expect((await check()).statusCode).toBe(429);
  });

  it('guest likes are taken, and one address still cannot mint guest ids without end', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/video-like',
        payload: { video_id: videoId, type: 'add', guest_id: `outage-guest-${i}` },
        remoteAddress: '203.0.113.8',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});

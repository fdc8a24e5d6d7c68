// A Redis that is down (restarting, unreachable) must not take logins or likes down with it, nor lift the
// limits: each node counts in its own memory until Redis answers again.
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
  it('logins still answer, and failed guesses are still limited per account', async () => {
    const user = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    const wrong = await login(user.email, 'wrong-guess');
    expect(wrong.statusCode).toBe(401);
    for (let i = 0; i < 2; i++) expect((await login(user.email, 'wrong-guess')).statusCode).toBe(401);
    const paused = await login(user.email, PASSWORD);
    expect(paused.statusCode).toBe(429);
    expect(paused.json().message).toBe(messages.auth.tooManyAttempts);

    const other = await insertUser(ctx, { passwordHash: await hashPassword(PASSWORD) });
    expect((await login(other.email, PASSWORD)).statusCode).toBe(200);
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

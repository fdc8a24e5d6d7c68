// Logins under a distributed flood (issue 32, finding 6: every login took 16 s, scrypt saturating the CPU):
// password checks wait in a bounded queue and past it are refused at once, and made-up addresses cost no hash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashQueue } from '../../server/auth/hash-queue';
import { hashPassword } from '../../server/auth/password';
import { messages } from '../../src/contract';
import { createTestContext, insertUser, NO_RATE_LIMITS, type TestContext } from './helpers';
import { until } from './until';

// One check at a time, two waiting: the test holds the one slot itself where it needs a full queue.
const queue = new HashQueue(1, 2);
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ config: NO_RATE_LIMITS, loginQueue: queue });
});
afterAll(() => ctx.close());

let n = 0;
const login = (email: string, password: string, device?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { email, password, ...(device ? { guest_id: device } : {}) },
    remoteAddress: `198.18.${Math.floor(++n / 250)}.${n % 250}`,
  });

describe('a flood of logins', () => {
  it('past the queue answers 503 with Retry-After at once instead of waiting behind it', async () => {
    const user = await insertUser(ctx, { passwordHash: await hashPassword('the password 1') });
    // Each login looks its account up before it queues, and on a busy database those lookups end spread out:
    // a real check could finish before the last one queued. Holding the slot makes the queue full for all.
    let release = () => {};
    const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const answered: number[] = [];
    const answers = Array.from({ length: 12 }, () =>
      login(user.email, 'a wrong guess').then((a) => {
        answered.push(a.statusCode);
        return a;
      }),
    );
    // Ten are turned away while the slot is still held: nobody waits behind a queue that is full.
    await until('ten answers', async () => (answered.length >= 10 ? true : undefined), 30_000);
    expect(answered).toEqual(Array(10).fill(503));
    expect(queue.queued).toBe(2);
    release();
    await held;
    const all = await Promise.all(answers);
    // The two that waited get their check.
    expect(all.filter((a) => a.statusCode === 401)).toHaveLength(2);
    const busy = all.filter((a) => a.statusCode === 503);
    expect(busy[0]?.headers['retry-after']).toBe('2');
    expect(busy[0]?.json().message).toBe(messages.auth.busy);
  });

  it('spends no hash on emails nobody has: a flood of them never fills the queue', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(`made-up-${i}@example.test`, 'a wrong guess')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(401));
  });

  it('lets a device the account knows in ahead of the flood', async () => {
    const user = await insertUser(ctx, { passwordHash: await hashPassword('the password 2') });
    expect((await login(user.email, 'the password 2', 'owners-laptop-01')).statusCode).toBe(200);
    const flood = Array.from({ length: 8 }, () => login(user.email, 'a wrong guess'));
    const owner = login(user.email, 'the password 2', 'owners-laptop-01');
    expect((await owner).statusCode).toBe(200);
    await Promise.all(flood);
  });
});

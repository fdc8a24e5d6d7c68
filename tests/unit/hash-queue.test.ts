// The queue password hashes wait in under a flood (server/auth/hash-queue.ts).
import { describe, expect, it } from 'vitest';
import { HashQueue, QueueFull } from '../../server/auth/hash-queue';

/** A job the test finishes by hand, and the order jobs started in. */
function jobs() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finish.set(name, () => resolve(name));
    });
  return { started, job, done: (name: string) => finish.get(name)?.() };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('hash queue', () => {
  it('runs as many at once as allowed, queues up to its depth and refuses the rest at once', async () => {
    const queue = new HashQueue(2, 2);
    const { started, job, done } = jobs();
    const results = ['a', 'b', 'c', 'd'].map((n) => queue.run(job(n)));
    await tick();
    expect(started).toEqual(['a', 'b']);
    expect(queue.queued).toBe(2);
    await expect(queue.run(job('e'))).rejects.toBeInstanceOf(QueueFull);
    done('a');
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    done('b');
    done('c');
    await tick();
    done('d');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(queue.queued).toBe(0);
  });

  it('lets a known device in ahead of the queue, even when it is full', async () => {
    const queue = new HashQueue(1, 1);
    const { started, job, done } = jobs();
    void queue.run(job('running'));
    void queue.run(job('stranger'));
    await tick();
    const known = queue.run(job('known'), { priority: true });
    done('running');
    await tick();
    expect(started).toEqual(['running', 'known']);
    done('known');
    expect(await known).toBe('known');
  });
});

// Requests on one upload that reach tus out of their arrival order (server/uploads/arrivals.ts).
import { describe, expect, it } from 'vitest';
import { arrivalOrder } from '../../server/uploads/arrivals';

describe('upload arrival order', () => {
  it('lets requests through that reach tus in the order they arrived', () => {
    const order = arrivalOrder();
    const patch = order.arrive('a');
    const head = order.arrive('a');
    expect(order.reach(patch)).toBe(true);
    expect(order.reach(head)).toBe(true);
  });

  it('stops a request that a later one on the same upload overtook', () => {
    const order = arrivalOrder();
    const patch = order.arrive('a');
    const head = order.arrive('a');
    expect(order.reach(head)).toBe(true);
    expect(order.reach(patch)).toBe(false);
    // Whatever comes next, after the HEAD, is the client carrying on.
    const next = order.arrive('a');
    expect(order.reach(next)).toBe(true);
  });

  it('keeps each upload to its own order', () => {
    const order = arrivalOrder();
    const first = order.arrive('a');
    const other = order.arrive('b');
    expect(order.reach(other)).toBe(true);
    expect(order.reach(first)).toBe(true);
  });

  it('forgets an upload once its last request has left, and still orders one that arrives after', () => {
    const order = arrivalOrder();
    const patch = order.arrive('a');
    const head = order.arrive('a');
    order.reach(head);
    order.leave(head);
    expect(order.tracked).toBe(1);
    // The overtaken PATCH is still in its checks: it is stopped even though the HEAD has left.
    expect(order.reach(patch)).toBe(false);
    order.leave(patch);
    expect(order.tracked).toBe(0);
    expect(order.reach(order.arrive('a'))).toBe(true);
  });
});

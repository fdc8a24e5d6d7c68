// Issue 35: what counts as the network coming back, and the /healthz probe that runs only while a failed
// screen waits for it. Fake timers; the probe's fetch is scripted.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Reconnect = typeof import('../../src/api/reconnect');

let reconnect: Reconnect;
let probes: string[];
/** How the next probes of /healthz end. */
let healthz: 'down' | 'up' = 'down';

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  reconnect = await import('../../src/api/reconnect');
  probes = [];
  healthz = 'down';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      probes.push(String(url));
      if (healthz === 'down') throw new TypeError('Failed to fetch');
      return new Response('{"status":"ok"}', { status: 200 });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Runs the timers of `ms` and the promises they settle. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('whenBackOnline', () => {
  it("calls the waiter on the window's online event, each return once, until it unsubscribes", async () => {
    const waiter = vi.fn();
    const stop = reconnect.whenBackOnline(waiter);
    window.dispatchEvent(new Event('online'));
    await pass(5);
    expect(waiter).toHaveBeenCalledTimes(1);
    // The same return told twice at once reaches the waiter once.
    window.dispatchEvent(new Event('online'));
    await pass(5);
    expect(waiter).toHaveBeenCalledTimes(1);
    await pass(1000);
    expect(waiter).toHaveBeenCalledTimes(2);
    // A later return, a second call: the waiter repeats.
    await pass(5000);
    window.dispatchEvent(new Event('online'));
    await pass(5);
    expect(waiter).toHaveBeenCalledTimes(3);

    stop();
    await pass(5000);
    window.dispatchEvent(new Event('online'));
    await pass(2000);
    expect(waiter).toHaveBeenCalledTimes(3);
  });

  it('takes an answered request after unanswered ones as the network back, not one answer among others', async () => {
    const waiter = vi.fn();
    const stop = reconnect.whenBackOnline(waiter);
    reconnect.noteRequestOutcome(true);
    await pass(100);
    expect(waiter).not.toHaveBeenCalled();
    reconnect.noteRequestOutcome(false);
    reconnect.noteRequestOutcome(false);
    await pass(100);
    expect(waiter).not.toHaveBeenCalled();
    reconnect.noteRequestOutcome(true);
    await pass(5);
    expect(waiter).toHaveBeenCalledTimes(1);
    // Back is back: the next answers say nothing new.
    reconnect.noteRequestOutcome(true);
    await pass(3000);
    expect(waiter).toHaveBeenCalledTimes(1);
    stop();
  });

  it('calls the waiter when the app comes back to the foreground, not when it goes', async () => {
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    const waiter = vi.fn();
    const stop = reconnect.whenBackOnline(waiter);
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await pass(100);
    expect(waiter).not.toHaveBeenCalled();
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await pass(5);
    expect(waiter).toHaveBeenCalledTimes(1);
    stop();
  });

  it('probes /healthz about every 1.5 s only while a waiter waits on an unreachable server', async () => {
    // Nothing failed, nothing waits: no probe.
    await pass(10_000);
    expect(probes).toEqual([]);
    // A request failed but no screen waits: still none.
    reconnect.noteRequestOutcome(false);
    await pass(10_000);
    expect(probes).toEqual([]);

    const waiter = vi.fn();
    const stop = reconnect.whenBackOnline(waiter);
    await pass(1499);
    expect(probes).toEqual([]);
    await pass(1);
    expect(probes).toEqual(['/healthz']);
    await pass(1500 * 3);
    expect(probes).toHaveLength(4);
    expect(waiter).not.toHaveBeenCalled();

    // The server answers again: the waiter is called, and the probes stop though it still waits.
    healthz = 'up';
    await pass(1500);
    expect(probes).toHaveLength(5);
    await pass(5);
    expect(waiter).toHaveBeenCalledTimes(1);
    await pass(10_000);
    expect(probes).toHaveLength(5);

    // Its retry goes unanswered again: probing again, until it unsubscribes.
    healthz = 'down';
    reconnect.noteRequestOutcome(false);
    await pass(1500 * 2);
    expect(probes).toHaveLength(7);
    stop();
    await pass(10_000);
    expect(probes).toHaveLength(7);
    expect(waiter).toHaveBeenCalledTimes(1);
  });

  it('does not probe while the browser is offline or the app hidden: their own events will say', async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const waiter = vi.fn();
    const stop = reconnect.whenBackOnline(waiter);
    await pass(10_000);
    expect(probes).toEqual([]);
    onLine.mockReturnValue(true);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    await pass(10_000);
    expect(probes).toEqual([]);
    visibility.mockReturnValue('visible');
    await pass(1500);
    expect(probes).toEqual(['/healthz']);
    stop();
  });

  it('keeps the other waiters when one unsubscribes, and one failing waiter does not stop the rest', async () => {
    const first = vi.fn(() => {
      throw new Error('screen gone wrong');
    });
    const second = vi.fn();
    const stopFirst = reconnect.whenBackOnline(first);
    const stopSecond = reconnect.whenBackOnline(second);
    // The failing waiter's error is thrown again in a timer of its own, where the fake clock reports it.
    const uncaught = vi.fn();
    window.dispatchEvent(new Event('online'));
    await pass(5).catch(uncaught);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    await pass(5).catch(uncaught);
    expect(uncaught).toHaveBeenCalledWith(new Error('screen gone wrong'));
    stopFirst();
    stopFirst();
    await pass(2000).catch(uncaught);
    window.dispatchEvent(new Event('online'));
    await pass(5).catch(uncaught);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    stopSecond();
  });
});

describe('isRetryable', () => {
  it('retries what may pass (no answer, 408, 429, 5xx), not an answer that would be the same again', async () => {
    const { ApiError } = await import('../../src/api/http');
    for (const status of [0, 408, 429, 500, 502, 503, 504])
      expect(reconnect.isRetryable(new ApiError(status, 'x'))).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 422])
      expect(reconnect.isRetryable(new ApiError(status, 'x'))).toBe(false);
    expect(reconnect.isRetryable(new TypeError('Failed to fetch'))).toBe(true);
  });
});

// Issue 35: the feed's look at the link (src/api/link.ts). A tunnel must be recognised quickly once the video
// on screen runs dry, and not from one unanswered look alone while it plays. The look's fetch is scripted:
// "down" refuses at once, as a dead network does.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Link = typeof import('../../src/api/link');

let link: Link;
let verdict: () => 'up' | 'checking' | 'down';
let looks = 0;
let healthz: 'down' | 'up' = 'up';

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  link = await import('../../src/api/link');
  const { appStore } = await import('../../src/state/store');
  const { linkCheckAtom } = await import('../../src/state/network');
  verdict = () => appStore.get(linkCheckAtom);
  looks = 0;
  healthz = 'up';
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      looks += 1;
      if (healthz === 'down') throw new TypeError('Failed to fetch');
      return new Response('{"status":"ok"}', { status: 200 });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('probeLink', () => {
  it('counts the link down only after two unanswered looks in a row when nothing stalled', async () => {
    await link.probeLink();
    expect(verdict()).toBe('up');
    await pass(4_000);
    healthz = 'down';
    const first = link.probeLink();
    expect(verdict()).toBe('checking');
    expect(await first).toBe(false);
    // The first miss looks again by itself; that second miss is the verdict.
    await pass(10);
    expect(looks).toBe(3);
    expect(verdict()).toBe('down');
  });

  it('counts one unanswered look as down when the video on screen has run dry', async () => {
    await link.probeLink();
    healthz = 'down';
    // Within the freshness window a plain look reuses the last answer, a stall looks again.
    expect(await link.probeLink()).toBe(true);
    expect(looks).toBe(1);
    expect(await link.probeLink({ stalled: true })).toBe(false);
    await pass(10);
    expect(looks).toBe(2);
    expect(verdict()).toBe('down');
  });

  it('lifts "down" when the network answers again', async () => {
    healthz = 'down';
    await link.probeLink({ stalled: true });
    await pass(10);
    expect(verdict()).toBe('down');
    healthz = 'up';
    window.dispatchEvent(new Event('online'));
    await pass(10);
    expect(verdict()).toBe('up');
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';

// The network edge is the only stand-in here: a scripted server that records what reaches it. The outbox,
// idb-keyval and (fake) IndexedDB are the real code paths.
interface Received {
  path: string;
  key: string | null;
  body: Record<string, unknown>;
}
let received: Received[] = [];
let answer: () => Response | Promise<Response> = () => new Response('{}', { status: 201 });

beforeEach(async () => {
  received = [];
  answer = () => new Response('{}', { status: 201 });
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    // Like a real fetch, an aborted request rejects whatever the server is doing.
    const aborted = new Promise<never>((_, reject) =>
      init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
    );
    const response = await Promise.race([answer(), aborted]);
    received.push({
      path: String(input),
      key: new Headers(init.headers).get('Idempotency-Key'),
      body: JSON.parse(String(init.body ?? '{}')),
    });
    return response;
  });
  const { clear } = await import('idb-keyval');
  const { outboxDb } = await import('../../src/offline/kv');
  await clear(outboxDb());
});

const offline = () => {
  answer = () => Promise.reject(new TypeError('Failed to fetch'));
};
const online = () => {
  answer = () => new Response('{}', { status: 201 });
};

async function load() {
  // The page's sender (the API client) registers itself on import, as in the app.
  await import('../../src/offline/sync');
  return import('../../src/offline/outbox');
}

describe('outbox', () => {
  it('sends at once with a UUID Idempotency-Key and the guest id', async () => {
    const outbox = await load();
    await outbox.enqueue('video-view', { video_id: 7 });
    await outbox.flush();
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe('/v1/video-view');
    expect(received[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(received[0]?.body).toMatchObject({ video_id: 7, guest_id: expect.any(String) });
    expect(await outbox.pending()).toEqual([]);
  });

  it('keeps the same key across retries and loses nothing on a network error or a 5xx', async () => {
    const outbox = await load();
    offline();
    await outbox.enqueue('video-like', { video_id: 1, type: 'add' }, 'like:1');
    await outbox.flush();
    const [kept] = await outbox.pending();
    expect(kept?.attempts).toBeGreaterThanOrEqual(1);

    answer = () => new Response('{"message":"down"}', { status: 503 });
    await outbox.flush(() => Date.now() + 10 * 60_000);
    expect(await outbox.pending()).toHaveLength(1);

    online();
    await outbox.flush(() => Date.now() + 60 * 60_000);
    expect(await outbox.pending()).toEqual([]);
    const keys = new Set(received.map((r) => r.key));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBe(kept?.id);
  });

  it('sends in the order things happened, and drops what the server refuses for good', async () => {
    const outbox = await load();
    offline();
    await outbox.enqueue('video-view', { video_id: 1 });
    await outbox.enqueue('video-view', { video_id: 2 });
    await outbox.enqueue('event', { event_id: 7 });
    online();
    let calls = 0;
    answer = () => new Response('{"message":"Missing video id."}', { status: calls++ === 1 ? 422 : 201 });
    await outbox.flush(() => Date.now() + 60 * 60_000);
    expect(received.map((r) => r.body.video_id ?? r.body.event_id)).toEqual([1, 2, 7]);
    expect(await outbox.pending()).toEqual([]);
  });

  it('collapses a like and an unlike of one video that were never attempted into the last state', async () => {
    const outbox = await load();
    offline();
    // An earlier failure holds the queue, so the two likes behind it are never attempted.
    await outbox.enqueue('video-view', { video_id: 9 });
    await outbox.enqueue('video-like', { video_id: 5, type: 'add' }, 'like:5');
    await outbox.enqueue('video-like', { video_id: 5, type: 'remove' }, 'like:5');
    await outbox.enqueue('video-like', { video_id: 6, type: 'add' }, 'like:6');
    const queue = await outbox.pending();
    expect(queue.map((e) => [e.kind, e.body.video_id, e.body.type])).toEqual([
      ['video-view', 9, undefined],
      ['video-like', 5, 'remove'],
      ['video-like', 6, 'add'],
    ]);
    online();
    received = [];
    await outbox.flush(() => Date.now() + 60 * 60_000);
    expect(received.map((r) => `${r.path}:${r.body.video_id}:${r.body.type ?? ''}`)).toEqual([
      '/v1/video-view:9:',
      '/v1/video-like:5:remove',
      '/v1/video-like:6:add',
    ]);
  });

  it('sends an unlike tapped while its like is on the wire as its own entry, under a new key', async () => {
    const outbox = await load();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The server holds the like's answer until the viewer has changed their mind.
    let started = 0;
    answer = async () => {
      started++;
      await gate;
      return new Response('{}', { status: 201 });
    };
    void outbox.enqueue('video-like', { video_id: 5, type: 'add' }, 'like:5');
    await vi.waitFor(() => expect(started).toBe(1));
    await outbox.enqueue('video-like', { video_id: 5, type: 'remove' }, 'like:5');
    release();
    online();
    await vi.waitFor(async () => expect(await outbox.pending()).toEqual([]));
    expect(received.map((r) => r.body.type)).toEqual(['add', 'remove']);
    expect(received[0]?.key).not.toBe(received[1]?.key);
  });

  it('gives up a send that hangs and keeps the entry, under its key, for a later try', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const outbox = await load();
      const { OUTBOX_SEND_TIMEOUT_MS } = await import('../../src/offline/sync');
      let started = 0;
      answer = () => {
        started++;
        return new Promise<Response>(() => undefined);
      };
      await outbox.enqueue('video-view', { video_id: 61 });
      await vi.waitFor(() => expect(started).toBe(1));
      await vi.advanceTimersByTimeAsync(OUTBOX_SEND_TIMEOUT_MS + 10);
      await vi.waitFor(async () => expect((await outbox.pending())[0]?.attempts).toBe(1));
      const [kept] = await outbox.pending();
      online();
      await vi.advanceTimersByTimeAsync(5_000);
      await vi.waitFor(async () => expect(await outbox.pending()).toEqual([]));
      expect(received.at(-1)?.key).toBe(kept?.id);
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends a signed-in viewer's post again as the device's guest once the server says the session ended", async () => {
    const outbox = await load();
    const { authAtom, saveAuth, readAuth } = await import('../../src/state/auth');
    const { appStore } = await import('../../src/state/store');
    saveAuth({ accessToken: 'expired', userId: 4, userType: 'user' }, true);
    appStore.set(authAtom, readAuth());
    let calls = 0;
    answer = () =>
      calls++ === 0
        ? new Response('{"message":"Unauthenticated."}', { status: 401 })
        : new Response('{}', { status: 201 });
    await outbox.enqueue('video-like', { video_id: 62, type: 'add' }, 'like:62');
    await vi.waitFor(async () => expect(await outbox.pending()).toEqual([]));
    expect(received).toHaveLength(2);
    expect(received[1]?.key).toBe(received[0]?.key);
    expect(received[1]?.body).toMatchObject({ video_id: 62, guest_id: expect.any(String) });
    expect(readAuth()).toBeNull();
    expect(appStore.get(authAtom)).toBeNull();
  });

  it('survives a reload: a fresh module over the same IndexedDB still has the entries and keys', async () => {
    const first = await load();
    offline();
    await first.enqueue('profile-view', { profile_id: 3 });
    const [before] = await first.pending();
    vi.resetModules();
    const { resetKvCachesForTests } = await import('../../src/offline/kv');
    resetKvCachesForTests();
    const second = await load();
    const [after] = await second.pending();
    expect(after?.id).toBe(before?.id);
    online();
    await second.flush(() => Date.now() + 60 * 60_000);
    expect(received.at(-1)?.key).toBe(before?.id);
  });

  it('replays at once on a fresh chance (online, visible, sync) whatever back-off was pending', async () => {
    const outbox = await load();
    offline();
    await outbox.enqueue('video-view', { video_id: 21 });
    await outbox.flush();
    const [waiting] = await outbox.pending();
    expect(waiting?.notBefore).toBeGreaterThan(Date.now());
    online();
    await outbox.retryNow();
    expect(await outbox.pending()).toEqual([]);
    expect(received.at(-1)?.key).toBe(waiting?.id);
  });

  it("lets a sender hold what it cannot send (the service worker and a user's entry): order and attempts stay", async () => {
    const outbox = await load();
    offline();
    await outbox.enqueue('video-like', { video_id: 31, type: 'add', user_id: 4 }, 'like:31');
    await outbox.enqueue('video-view', { video_id: 32 });
    online();
    const before = (await outbox.pending()).map((e) => [e.body.video_id, e.attempts]);
    const later = () => Date.now() + 60 * 60_000;
    const sentByWorker: number[] = [];
    await outbox.flush(later, async (entry) => {
      if (entry.body.user_id !== undefined) return 'held';
      sentByWorker.push(entry.body.video_id as number);
      return 'sent';
    });
    // Held at the user's like: the guest view behind it waits too, so it cannot overtake, and nothing
    // counts as a failed attempt.
    expect(sentByWorker).toEqual([]);
    expect((await outbox.pending()).map((e) => [e.body.video_id, e.attempts])).toEqual(before);
    // The page, which holds the token, sends both in order.
    received = [];
    await outbox.flush(later);
    expect(received.map((r) => r.body.video_id)).toEqual([31, 32]);
    expect(await outbox.pending()).toEqual([]);
  });

  it('keeps the back-off when the service worker relays a Background Sync (no retry storm on 5xx)', async () => {
    const outbox = await load();
    const { onWorkerMessage } = await import('../../src/offline/sync');
    answer = () => new Response('{"message":"down"}', { status: 503 });
    await outbox.enqueue('video-view', { video_id: 41 });
    await outbox.flush();
    const tries = received.length;
    expect(tries).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 5; i++) await onWorkerMessage({ type: 'outbox-sync' });
    expect(received).toHaveLength(tries);
    expect(await onWorkerMessage({ type: 'something-else' })).toBeUndefined();
    online();
    await outbox.retryNow();
    expect(await outbox.pending()).toEqual([]);
  });

  it('asks for Background Sync when a send gets no answer at all, not when the server answers', async () => {
    const register = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve({ sync: { register } }) },
    });
    try {
      const { sendThroughApi } = await import('../../src/offline/sync');
      const entry = {
        id: 'k-1234567',
        kind: 'video-view' as const,
        body: { video_id: 1 },
        seq: 1,
        attempts: 0,
        notBefore: 0,
      };
      answer = () => new Response('{"message":"down"}', { status: 503 });
      await expect(sendThroughApi(entry)).rejects.toMatchObject({ status: 503 });
      await new Promise((r) => setTimeout(r, 0));
      expect(register).not.toHaveBeenCalled();
      offline();
      await expect(sendThroughApi(entry)).rejects.toMatchObject({ status: 0 });
      await vi.waitFor(() => expect(register).toHaveBeenCalledWith('outbox'));
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('retries on its own timer until the server takes it, with no other trigger', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const outbox = await load();
      answer = () => new Response('{"message":"down"}', { status: 503 });
      await outbox.enqueue('video-like', { video_id: 51, type: 'add' }, 'like:51');
      await vi.waitFor(async () => expect((await outbox.pending())[0]?.attempts).toBe(1));
      // A new tap while the first waits: nothing is due, and the wait is not forgotten.
      await outbox.enqueue('video-view', { video_id: 52 });
      const tries = received.length;
      await vi.advanceTimersByTimeAsync(1500);
      expect(received.length).toBeGreaterThan(tries);
      online();
      for (let i = 0; i < 12 && (await outbox.pending()).length > 0; i++)
        await vi.advanceTimersByTimeAsync(30_000);
      expect(await outbox.pending()).toEqual([]);
      expect(received.slice(-2).map((r) => r.body.video_id)).toEqual([51, 52]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('backs off exponentially up to five minutes, with jitter', async () => {
    const { backoffMs } = await load();
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => backoffMs(n, mid))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(30, mid)).toBe(300_000);
    expect(backoffMs(1, () => 0)).toBe(800);
    expect(backoffMs(1, () => 1)).toBe(1200);
  });
});

describe('device stores', () => {
  it('generates the guest id once and keeps it across reloads', async () => {
    const kv = await import('../../src/offline/kv');
    const id = await kv.getGuestId();
    vi.resetModules();
    const again = await import('../../src/offline/kv');
    again.resetKvCachesForTests();
    expect(await again.getGuestId()).toBe(id);
  });

  it('persists every preference key through the atoms', async () => {
    const { createStore } = await import('jotai');
    const prefs = await import('../../src/state/preferences');
    const store = createStore();
    const atoms = [
      [prefs.preferenceAutoscrollAtom, true],
      [prefs.preferenceSelectedTagsAtom, [{ id: 4, name: 'neon' }]],
      [prefs.preferencesCategoryAtom, 'm,t'],
      [prefs.likedVideosAtom, [3, 9]],
      [prefs.tutorialStepAtom, 2],
      [prefs.isMutedAtom, false],
      [prefs.currentVideoAtom, { id: 3, slug: 'clip' }],
    ] as const;
    for (const [a, value] of atoms) store.set(a as never, value as never);
    await new Promise((r) => setTimeout(r, 50));
    const { readKv } = await import('../../src/offline/kv');
    expect(await readKv('preferenceAutoscroll')).toBe(true);
    expect(await readKv('preferenceSelectedTags')).toEqual([{ id: 4, name: 'neon' }]);
    expect(await readKv('preferencesCategory')).toBe('m,t');
    expect(await readKv('likedVideos')).toEqual([3, 9]);
    expect(await readKv('tutorialStep')).toBe(2);
    expect(await readKv('isMuted')).toBe(false);
    expect(await readKv('currentVideo')).toEqual({ id: 3, slug: 'clip' });

    // A new page: a fresh store hydrates from IndexedDB once the atom is mounted.
    const fresh = createStore();
    const unsub = fresh.sub(prefs.preferencesCategoryAtom, () => undefined);
    await vi.waitFor(() => expect(fresh.get(prefs.preferencesCategoryAtom)).toBe('m,t'));
    unsub();
  });
});

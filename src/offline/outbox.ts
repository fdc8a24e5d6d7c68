// The outbox: likes, views, events, link clicks and profile views are written to IndexedDB first and sent
// from there, each with its own UUID as Idempotency-Key, so a flaky network never loses a tap and a retry
// never counts twice (the server answers a replayed key without counting it again).
import { del, entries, set } from 'idb-keyval';
import { ApiError, apiFetch } from '../api/http';
import { outboxDb } from './kv';

export type OutboxKind = 'video-like' | 'video-view' | 'event' | 'link-click' | 'profile-view';

export interface OutboxEntry {
  /** Sent as Idempotency-Key on every attempt: the server counts the first one that arrives, only. */
  id: string;
  kind: OutboxKind;
  body: Record<string, unknown>;
  /** Entries with the same key collapse to the last one while unsent (like then unlike of one video). */
  collapseKey?: string;
  /** Monotonic order of creation; sends keep it. */
  seq: number;
  attempts: number;
  /** Not before this time (ms since epoch): retry back-off. */
  notBefore: number;
}

/** Retry back-off: 1 s, 2 s, 4 s... up to 5 minutes, with jitter so a fleet of phones does not stampede. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(1000 * 2 ** Math.max(attempts - 1, 0), 5 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A server answer that will never change on a retry: drop the entry. 408 and 429 are worth retrying. */
const isFinal = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

let seqCounter = 0;
const listeners = new Set<() => void>();

export async function pending(): Promise<OutboxEntry[]> {
  const all = await entries<string, OutboxEntry>(outboxDb());
  return all.map(([, entry]) => entry).sort((a, b) => a.seq - b.seq);
}

/**
 * Queues a post. A like and an unlike of the same video collapse into the last state, but only while the
 * earlier one was never attempted: once attempted it may have reached the server under its key, so the new
 * state goes as a new entry after it.
 */
export async function enqueue(kind: OutboxKind, body: Record<string, unknown>, collapseKey?: string) {
  const queue = await pending();
  const seq = Math.max(Date.now() * 1000, (queue.at(-1)?.seq ?? 0) + 1, seqCounter + 1);
  seqCounter = seq;
  const twin = collapseKey ? queue.find((e) => e.collapseKey === collapseKey && e.attempts === 0) : undefined;
  const entry: OutboxEntry = twin
    ? { ...twin, body }
    : { id: crypto.randomUUID(), kind, body, collapseKey, seq, attempts: 0, notBefore: 0 };
  await set(entry.id, entry, outboxDb());
  notify();
  void flush();
  return entry.id;
}

let flushing: Promise<void> | null = null;

/**
 * Sends what is due, oldest first. Stops at the first failure that is worth retrying so that order is kept
 * (a like is never overtaken by its own unlike); a final 4xx is dropped and the next entry goes on.
 */
export function flush(now: () => number = Date.now): Promise<void> {
  // A call during a flush runs again after it: what was queued meanwhile must not wait for the next trigger.
  if (flushing) return flushing.then(() => flush(now));
  flushing = (async () => {
    try {
      for (const entry of await pending()) {
        if (entry.notBefore > now()) break;
        try {
          await apiFetch(`/v1/${entry.kind}`, {
            method: 'POST',
            body: entry.body,
            headers: { 'Idempotency-Key': entry.id },
          });
          await del(entry.id, outboxDb());
        } catch (error) {
          if (error instanceof ApiError && isFinal(error.status)) {
            await del(entry.id, outboxDb());
            continue;
          }
          const attempts = entry.attempts + 1;
          await set(entry.id, { ...entry, attempts, notBefore: now() + backoffMs(attempts) }, outboxDb());
          scheduleRetry(backoffMs(attempts));
          break;
        }
      }
    } finally {
      flushing = null;
      notify();
    }
  })();
  return flushing;
}

let retryTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleRetry(ms: number) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void flush(), ms + 50);
}

function notify() {
  for (const listener of listeners) listener();
}

/** Re-renders (e.g. a pending badge) whenever the queue may have changed. */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Replays the outbox whenever sending may work again: now (app start), when the browser says it is
 * online, when the app comes back to the foreground, and when the service worker relays a Background Sync.
 */
export function startOutbox() {
  const retryNow = () => {
    // A fresh chance: whatever back-off was pending, try at once.
    void pending().then(async (queue) => {
      for (const e of queue) if (e.notBefore > 0) await set(e.id, { ...e, notBefore: 0 }, outboxDb());
      await flush();
    });
  };
  retryNow();
  window.addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') retryNow();
  });
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'outbox-sync') retryNow();
  });
  // Background Sync (Chromium): the service worker wakes us when connectivity returns, even in background.
  void navigator.serviceWorker?.ready
    .then((registration) =>
      (
        registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }
      ).sync?.register('outbox'),
    )
    .catch(() => undefined);
}

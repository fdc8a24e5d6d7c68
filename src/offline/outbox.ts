// The outbox: likes, views, events, link clicks and profile views are written to IndexedDB first and sent
// from there, each with its own UUID as Idempotency-Key, so a flaky network never loses a tap and a retry
// never counts twice (the server answers a replayed key without counting it again).
//
// This module is the queue alone: it runs in the page and in the service worker, so it knows nothing of
// the DOM, of localStorage or of the API client. Whoever flushes says how an entry is sent (`OutboxSender`):
// the page through the API client (src/offline/sync.ts), the service worker with plain fetch (sw/sw.ts).
import { del, entries, set } from 'idb-keyval';
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

/**
 * Sends one entry: 'sent' once the server has it; throws an error with a numeric `status` when not (0: no
 * answer at all). 'held' means "not mine to send": the entry stays untouched and the flush stops there, so
 * order is kept (the service worker has no token for a logged-in user's entries).
 */
export type OutboxSender = (entry: OutboxEntry) => Promise<'sent' | 'held'>;

/** A failed send as the service worker reports it; the page's API client throws ApiError, also with status. */
export class SendError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`outbox send failed (${status || 'no answer'})`);
    this.status = status;
  }
}

/** Background Sync tag, and the message the service worker relays it with to an open page. */
export const OUTBOX_SYNC_TAG = 'outbox';
export const OUTBOX_SYNC_MESSAGE = 'outbox-sync';

/** Retry back-off: 1 s, 2 s, 4 s... up to 5 minutes, with jitter so a fleet of phones does not stampede. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(1000 * 2 ** Math.max(attempts - 1, 0), 5 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** A server answer that will never change on a retry: drop the entry. 408 and 429 are worth retrying. */
const isFinal = (status: unknown) =>
  typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;

let seqCounter = 0;
let defaultSender: OutboxSender | undefined;
const listeners = new Set<() => void>();

/** The sender `enqueue` and a bare `flush()` use; until one is set, entries wait in IndexedDB. */
export function setOutboxSender(sender: OutboxSender | undefined) {
  defaultSender = sender;
}

export async function pending(): Promise<OutboxEntry[]> {
  const all = await entries<string, OutboxEntry>(outboxDb());
  return all.map(([, entry]) => entry).sort((a, b) => a.seq - b.seq);
}

/**
 * Keys this context has handed to a sender: each may have reached the server, so no later state may collapse
 * into it (the server would answer the new body with the stored answer of the old one). Never pruned: a
 * stale list read elsewhere could still name a sent entry, and a session sends a few thousand at most.
 */
const onTheWire = new Set<string>();
let flushing: Promise<void> | null = null;

/**
 * Queues a post. A like and an unlike of the same video collapse into the last state, but only while the
 * earlier one is quietly waiting (never attempted, no flush under way): once a sender may have it, it may
 * reach the server under its key, so the new state goes as a new entry after it.
 */
export async function enqueue(kind: OutboxKind, body: Record<string, unknown>, collapseKey?: string) {
  const queue = await pending();
  const seq = Math.max(Date.now() * 1000, (queue.at(-1)?.seq ?? 0) + 1, seqCounter + 1);
  seqCounter = seq;
  // Never while a flush runs: it may have read the twin already and would send the old state under its key.
  const twin =
    collapseKey && !flushing
      ? queue.find((e) => e.collapseKey === collapseKey && e.attempts === 0 && !onTheWire.has(e.id))
      : undefined;
  const entry: OutboxEntry = twin
    ? { ...twin, body }
    : { id: crypto.randomUUID(), kind, body, collapseKey, seq, attempts: 0, notBefore: 0 };
  await set(entry.id, entry, outboxDb());
  notify();
  void flush();
  return entry.id;
}

/**
 * Sends what is due, oldest first. Stops at the first failure that is worth retrying so that order is kept
 * (a like is never overtaken by its own unlike); a final 4xx is dropped and the next entry goes on.
 */
export function flush(now: () => number = Date.now, send = defaultSender): Promise<void> {
  if (!send) return Promise.resolve();
  // A call during a flush runs again after it: what was queued meanwhile must not wait for the next trigger.
  if (flushing) return flushing.then(() => flush(now, send));
  flushing = (async () => {
    try {
      for (const entry of await pending()) {
        if (entry.notBefore > now()) {
          // Not due yet: come back when it is, whatever woke this flush (a new tap, a relayed sync).
          scheduleRetry(entry.notBefore - now(), send);
          break;
        }
        onTheWire.add(entry.id);
        try {
          if ((await send(entry)) === 'held') break;
          await del(entry.id, outboxDb());
        } catch (error) {
          if (isFinal((error as { status?: unknown } | null)?.status)) {
            await del(entry.id, outboxDb());
            continue;
          }
          const attempts = entry.attempts + 1;
          // One draw of the jittered delay for both: a timer earlier than notBefore would find nothing due.
          const wait = backoffMs(attempts);
          await set(entry.id, { ...entry, attempts, notBefore: now() + wait }, outboxDb());
          scheduleRetry(wait, send);
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
function scheduleRetry(ms: number, send: OutboxSender) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void flush(Date.now, send), ms + 50);
}

/** A fresh chance (back online, app in front, Background Sync): whatever back-off was pending, try now. */
export async function retryNow(send = defaultSender): Promise<void> {
  for (const e of await pending()) if (e.notBefore > 0) await set(e.id, { ...e, notBefore: 0 }, outboxDb());
  await flush(Date.now, send);
}

function notify() {
  for (const listener of listeners) listener();
}

/** Re-renders (e.g. a pending badge) whenever the queue may have changed. */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

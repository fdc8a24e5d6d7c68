// The page's side of the outbox: the counted interactions (src/api/tracking.ts) go in, entries go out through
// the API client (bearer for users, guest_id for guests), and the queue is replayed whenever sending may work
// again.
import { ApiError, apiFetch } from '../api/http';
import { setTrackingQueue } from '../api/tracking';
import { expireSession, readAuth } from '../state/auth';
import {
  enqueue,
  flush,
  OUTBOX_SYNC_MESSAGE,
  OUTBOX_SYNC_TAG,
  type OutboxSender,
  retryNow,
  setOutboxSender,
} from './outbox';

/**
 * Background Sync (Chromium): the service worker is woken when connectivity returns, even once the tab is
 * closed. Asked for only when a send got no answer at all: a server that answers (5xx) is the back-off
 * timer's business, and Chromium fires a registration at once while it believes it is online.
 */
function requestBackgroundSync() {
  void navigator.serviceWorker?.ready
    .then((registration) =>
      (
        registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }
      ).sync?.register(OUTBOX_SYNC_TAG),
    )
    .catch(() => undefined);
}

/** A send that hangs is given up after this long and retried later under the same key. */
export const OUTBOX_SEND_TIMEOUT_MS = 15_000;

export const sendThroughApi: OutboxSender = async (entry) => {
  try {
    await apiFetch(`/v1/${entry.kind}`, {
      method: 'POST',
      body: entry.body,
      headers: { 'Idempotency-Key': entry.id },
      timeoutMs: OUTBOX_SEND_TIMEOUT_MS,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) requestBackgroundSync();
    // The session ended while the post waited: it is still the device's tap, sent again as its guest.
    if (error instanceof ApiError && error.status === 401 && readAuth()) {
      expireSession();
      return sendThroughApi(entry);
    }
    throw error;
  }
  return 'sent';
};

// Set on import, so that anything queued from now on is sent at once when the network allows.
setOutboxSender(sendThroughApi);
setTrackingQueue(enqueue);

/**
 * The service worker relays a Background Sync to the open page, which holds the identity. The relay sends
 * what is due and keeps the back-off: the worker's sync may fire while the server is still refusing.
 */
export function onWorkerMessage(data: unknown): Promise<void> | undefined {
  if ((data as { type?: unknown } | null)?.type !== OUTBOX_SYNC_MESSAGE) return undefined;
  return flush();
}

/**
 * Replays the outbox whenever sending may work again: now (app start), when the browser says it is
 * online, and when the app comes back to the foreground: each a fresh chance that skips pending back-off.
 */
export function startOutbox() {
  const replay = () => void retryNow();
  replay();
  window.addEventListener('online', replay);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') replay();
  });
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    void onWorkerMessage(event.data);
  });
}

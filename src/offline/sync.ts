// The page's side of the outbox: entries go out through the API client (bearer for users, guest_id for
// guests), and the queue is replayed whenever sending may work again.
import { apiFetch } from '../api/http';
import {
  OUTBOX_SYNC_MESSAGE,
  OUTBOX_SYNC_TAG,
  type OutboxSender,
  onOutboxChange,
  pending,
  retryNow,
  setOutboxSender,
} from './outbox';

export const sendThroughApi: OutboxSender = async (entry) => {
  await apiFetch(`/v1/${entry.kind}`, {
    method: 'POST',
    body: entry.body,
    headers: { 'Idempotency-Key': entry.id },
  });
  return 'sent';
};

// Set on import, so that anything queued from now on is sent at once when the network allows.
setOutboxSender(sendThroughApi);

/**
 * Replays the outbox whenever sending may work again: now (app start), when the browser says it is
 * online, when the app comes back to the foreground, and when the service worker relays a Background Sync.
 */
export function startOutbox() {
  const replay = () => void retryNow();
  replay();
  window.addEventListener('online', replay);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') replay();
  });
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === OUTBOX_SYNC_MESSAGE) replay();
  });
  // Background Sync (Chromium): while something waits, the service worker is woken when connectivity
  // returns, even once the tab is closed. The browser keeps one registration per tag.
  const requestSync = () =>
    void pending()
      .then(async (queue) => {
        if (queue.length === 0 || !navigator.serviceWorker) return;
        const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
          sync?: { register(tag: string): Promise<void> };
        };
        await registration.sync?.register(OUTBOX_SYNC_TAG);
      })
      .catch(() => undefined);
  onOutboxChange(requestSync);
  requestSync();
}

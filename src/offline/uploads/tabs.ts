// The app open in several tabs, one queue between them (the records in IndexedDB): only the tab holding the
// sender's Web Lock sends, so two tabs never send the same bytes, and the next tab in line takes over when it
// closes; a copy onto the device holds a lock of its own, so a tab starting meanwhile can tell a copy under
// way from one a closed page left behind; a BroadcastChannel says when to read the records again and carries
// the sender's live progress. Without Web Locks (tests, a browser without them) every tab sends.

const LOCK = 'shortcams-upload-sender';
const CHANNEL = 'shortcams-uploads';
/** Held by the tab copying a file onto the device, for as long as the copy runs (one lock per upload). */
const COPY_LOCK = 'shortcams-upload-copy:';

/** What one tab tells the others. */
export type TabMessage = { type: 'changed' } | { type: 'progress'; id: string; sent: number; at: number };

export interface TabsOptions {
  /** Elect one sending tab with navigator.locks (default: where the browser has it). */
  locks?: boolean | undefined;
  /** Tell other tabs through a BroadcastChannel (default: where the browser has it). */
  broadcast?: boolean | undefined;
}

export class Tabs {
  private channel: BroadcastChannel | null = null;

  constructor(private readonly options: TabsOptions) {}

  get locks(): boolean {
    return this.options.locks ?? (typeof navigator !== 'undefined' && Boolean(navigator.locks));
  }

  /** Hears the other tabs (what they post, as sent: another version of the app may be open). */
  listen(onMessage: (data: unknown) => void) {
    const useChannel = this.options.broadcast ?? typeof BroadcastChannel === 'function';
    if (!useChannel) return;
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (event: MessageEvent) => onMessage(event.data);
  }

  /** Queues for the sender's lock (with `locks` only): `elected` runs once this tab is the one that sends. */
  electSender(elected: () => void) {
    // Held for the life of the tab: when it closes, the next tab in line takes over the sending.
    void navigator.locks.request(LOCK, () => {
      elected();
      return new Promise<never>(() => {});
    });
  }

  /** Resolves once this tab holds the copy lock of `id`, with the function that lets it go. */
  holdCopyLock(id: string): Promise<() => void> {
    if (!this.locks) return Promise.resolve(() => {});
    return new Promise((held) => {
      void navigator.locks.request(COPY_LOCK + id, () => new Promise<void>((release) => held(release)));
    });
  }

  /** Whether no tab is copying `id` onto the device (without locks: none can be, as far as this tab knows). */
  async copyAbandoned(id: string): Promise<boolean> {
    if (!this.locks) return true;
    return navigator.locks.request(COPY_LOCK + id, { ifAvailable: true }, (lock) => lock !== null);
  }

  post(message: TabMessage) {
    try {
      this.channel?.postMessage(message);
    } catch {
      // A closed channel (the page is going away): nothing to tell.
    }
  }

  close() {
    this.channel?.close();
  }
}

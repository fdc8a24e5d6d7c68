// The upload queue: the creator's videos go to the server one at a time, in the order they were chosen, from
// their copy on the device, and carry on by themselves after anything that stopped them: a lost network
// (`online`), the app in the background (back to the foreground), a reload, a closed browser (the app's next
// start), an ended session (the next sign-in). Details typed meanwhile wait in the record and go out once the
// video exists; then the video's status is followed until it is approved.
//
// Several tabs share one queue through IndexedDB: one of them sends, every tab shows the same list, and any
// tab may pause, cancel, add or type details (tabs.ts). A record changes only by an event of machine.ts; the
// details go out through details.ts, the video's status is followed by status.ts.
import { ApiError } from '../../api/http';
import { messages } from '../../contract';
import { applyEvent } from './apply';
import type { QueueDeps } from './deps';
import { DetailsSender } from './details';
import { askPersistence, openCopy, removeCopy, StorageFullError, saveCopy } from './files';
import { backoffMs } from './machine';
import {
  createRecord,
  type DetailsValues,
  deleteRecord,
  listRecords,
  readRecord,
  type UploadRecord,
} from './records';
import { SETTLED, StatusFollower } from './status';
import { Tabs } from './tabs';
import { refusalReason, startTransfer, type Transfer, type TransferEnd, terminate } from './transfer';

export interface UploadView extends UploadRecord {
  /**
   * Bytes the server confirmed (the record's offset; all of them once sent). What the card counts, so it
   * never goes back when the line drops: bytes handed to the network may not have arrived.
   */
  sent: number;
  /** While this upload is on the wire: bytes handed to the network past `sent`, not confirmed yet. */
  inFlight: number;
  /** Over the last few seconds; null until there is enough to tell. */
  bytesPerSecond: number | null;
  secondsLeft: number | null;
  /** The copy could not be made and this tab no longer has the file: it has to be chosen again. */
  needsFile: boolean;
}

/** Progress repaints at most this often: enough for a moving bar, cheap for a phone. */
const PROGRESS_EVERY_MS = 250;
/** Finished uploads leave the list by themselves after a few days. */
const KEEP_FINISHED_MS = 3 * 24 * 3600_000;
const SPEED_WINDOW_MS = 8000;

interface Live {
  sent: number;
  samples: [number, number][];
}

export class UploadQueue {
  private records: UploadRecord[] = [];
  private readonly live = new Map<string, Live>();
  private readonly listeners = new Set<() => void>();
  /** Files chosen in this tab, until their device copy exists (a failed copy can be tried again). */
  private readonly chosen = new Map<string, Blob>();
  /** The upload this tab is sending; `transfer` is null while it is being set up. */
  private active: { id: string; transfer: Transfer | null; stop?: boolean } | null = null;
  private leader = false;
  private started = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private repaint: ReturnType<typeof setTimeout> | undefined;
  private pumping = false;
  private readonly terminating = new Map<string, { at: number; attempts: number }>();
  private stopped = false;
  private readonly onOnline = () => this.kick();
  private readonly onVisible = () => {
    if (document.visibilityState === 'visible') this.kick();
  };

  private readonly tabs: Tabs;
  private readonly details: DetailsSender;
  private readonly status: StatusFollower;

  constructor(private readonly deps: QueueDeps) {
    this.tabs = new Tabs({ locks: deps.locks, broadcast: deps.broadcast });
    this.details = new DetailsSender({
      send: (payload) => deps.api.details(payload),
      auth: () => deps.auth(),
      onSessionEnded: deps.onSessionEnded,
      onEvent: deps.onEvent,
      changed: () => this.changed(),
      schedule: () => this.schedule(),
    });
    this.status = new StatusFollower({
      outcome: (url) => deps.api.outcome(url),
      changed: () => this.changed(),
    });
  }

  /** Reads the queue and starts taking part: sends if this tab wins the lock. Safe to call twice. */
  start(): Promise<void> {
    if (this.started) return this.refresh();
    this.started = true;
    this.tabs.listen((data) => this.onMessage(data));
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      document.addEventListener('visibilitychange', this.onVisible);
    }
    if (this.tabs.locks)
      this.tabs.electSender(() => {
        this.leader = true;
        void this.refresh().then(() => this.pump());
      });
    else this.leader = true;
    return this.refresh()
      .then(() => this.recoverInterruptedCopies())
      .then(() => this.pump());
  }

  /**
   * A copy onto the device that no tab is making any more (the page was reloaded or the browser closed while
   * it ran) can never finish: the chosen file went with the page. Left as it was, the upload would read
   * 'Saving on this device' for good; it asks for the file again instead, its details kept.
   */
  private async recoverInterruptedCopies() {
    let changed = false;
    for (const r of this.records) {
      if (r.state !== 'saving' || this.chosen.has(r.id)) continue;
      if (!(await this.tabs.copyAbandoned(r.id))) continue;
      // The copy may have been whole when the page went, only the record not told yet.
      let whole: 'opfs' | 'idb' | null = null;
      for (const place of ['opfs', 'idb'] as const)
        if (!whole && (await openCopy(r.id, place))?.size === r.size) whole = place;
      if (!whole) {
        await removeCopy(r.id, 'opfs');
        await removeCopy(r.id, 'idb');
      }
      await applyEvent(r.id, { type: 'copyInterrupted', place: whole });
      changed = true;
    }
    if (changed) await this.changed();
  }

  /** Stops taking part, as a closing tab does (tests; the page itself just goes away). */
  stop() {
    this.stopped = true;
    if (this.active) this.stopActive(this.active.id);
    clearTimeout(this.timer);
    clearTimeout(this.repaint);
    this.tabs.close();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      document.removeEventListener('visibilitychange', this.onVisible);
    }
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): UploadView[] {
    const now = Date.now();
    return this.records
      .filter((r) => r.state !== 'cancelled')
      .map((r) => {
        const live = this.live.get(r.id);
        const sending = r.state === 'sending' && live !== undefined;
        const sent = r.state === 'sent' ? r.size : r.offset;
        const onWire = sending ? Math.max(live.sent, sent) : sent;
        const speed = sending ? speedOf(live, now) : null;
        return {
          ...r,
          saved: r.state === 'saving' && live ? live.sent : r.saved,
          sent,
          inFlight: onWire - sent,
          bytesPerSecond: speed,
          secondsLeft: speed ? Math.ceil((r.size - onWire) / speed) : null,
          needsFile: r.state === 'failed' && !r.final && r.copy === null && !this.chosen.has(r.id),
        };
      });
  }

  /** Whether this tab is the one sending (tests, and the bench). */
  isSender(): boolean {
    return this.leader;
  }

  // ---- what the creator does --------------------------------------------------------------------------

  /**
   * Takes a file checked on the device: its record exists when this resolves (the details form can open at
   * once), its copy is made meanwhile, then it joins the queue. A full device rejects with StorageFullError.
   */
  async add(
    file: Blob & { name?: string },
    info: { durationSeconds: number | null; localFrame: Blob | null },
  ) {
    const auth = this.deps.auth();
    if (!auth) throw new ApiError(401, messages.server.unauthenticated);
    const id = crypto.randomUUID();
    // Taken before the record exists, so another tab starting meanwhile never takes the copy for abandoned.
    const release = await this.tabs.holdCopyLock(id);
    const record: UploadRecord = {
      id,
      userId: auth.userId,
      createdAt: Math.max(Date.now(), (this.records.at(-1)?.createdAt ?? 0) + 1),
      name: file.name ?? 'video',
      size: file.size,
      type: file.type,
      durationSeconds: info.durationSeconds,
      localFrame: info.localFrame,
      state: 'saving',
      copy: null,
      saved: 0,
      uploadUrl: null,
      offset: 0,
      error: null,
      final: false,
      retryAt: null,
      attempts: 0,
      videoId: null,
      screenshot: null,
      status: null,
      statusReason: null,
      details: null,
      detailsState: 'none',
      detailsError: null,
      scheduleLapsed: false,
    };
    try {
      await createRecord(record);
    } catch (error) {
      release();
      throw error;
    }
    this.chosen.set(record.id, file);
    void askPersistence();
    await this.changed();
    void this.copy(record.id, file, release);
    return record.id;
  }

  /** A file chosen again for an upload whose copy could not be made (the device was full). */
  async replaceFile(id: string, file: Blob & { name?: string }) {
    const release = await this.tabs.holdCopyLock(id);
    this.chosen.set(id, file);
    await applyEvent(id, { type: 'fileChosen', name: file.name ?? null, size: file.size });
    await this.changed();
    await this.copy(id, file, release);
  }

  async pause(id: string) {
    await applyEvent(id, { type: 'pause' });
    this.stopActive(id);
    await this.changed();
  }

  async resume(id: string) {
    await applyEvent(id, { type: 'resume' });
    this.details.forget(id);
    await this.changed();
    const record = await readRecord(id);
    const file = this.chosen.get(id);
    if (record?.state === 'failed' && !record.copy && file) await this.replaceFile(id, file);
    if (record?.detailsState === 'queued') void this.details.send(id);
  }

  /** Ends the upload: the server is told to drop it (DELETE) and the device copy is freed. */
  async cancel(id: string) {
    const record = await applyEvent(id, { type: 'cancel' });
    if (record?.state !== 'cancelled') return;
    this.stopActive(id);
    this.chosen.delete(id);
    await removeCopy(id, record.copy);
    await applyEvent(id, { type: 'copyRemoved' });
    if (!record.uploadUrl) await deleteRecord(id);
    await this.changed();
    void this.pump();
  }

  /** Takes a finished (or refused) upload off the list; the video itself stays. */
  async dismiss(id: string) {
    const record = await readRecord(id);
    if (!record || !(record.state === 'sent' || (record.state === 'failed' && record.final))) return;
    await removeCopy(id, record.copy);
    await deleteRecord(id);
    this.live.delete(id);
    await this.changed();
  }

  /**
   * The details the creator submitted: kept with the upload, and sent now if the video exists ('sent'),
   * else once it does ('queued'). A refusal by the server rejects with its ApiError (a 422 names the fields)
   * and stays on the record to be corrected; no answer at all queues them.
   */
  async saveDetails(id: string, values: DetailsValues): Promise<'sent' | 'queued'> {
    const record = await applyEvent(id, { type: 'detailsSaved', details: values });
    if (!record)
      throw new ApiError(422, messages.upload.missingVideo, { videoId: [messages.upload.missingVideo] });
    this.details.forget(id);
    if (record.videoId) return this.details.send(id, { rethrow: true });
    await this.changed();
    // Refused, or cancelled: no video will ever come for these details.
    if (record.state === 'failed' && record.final)
      throw new ApiError(422, messages.upload.missingVideo, { videoId: [messages.upload.missingVideo] });
    return 'queued';
  }

  // ---- the sending tab's work -------------------------------------------------------------------------

  /** A fresh chance for everything waiting: back online, back in front, signed in again. */
  kick() {
    void (async () => {
      for (const r of this.records)
        if (r.state === 'waiting' || r.state === 'signin') await applyEvent(r.id, { type: 'retry' });
      this.details.hurry();
      for (const [id, retry] of this.terminating)
        if (Number.isFinite(retry.at)) this.terminating.set(id, { ...retry, at: 0 });
      this.status.hurry();
      await this.changed();
    })();
  }

  private async pump() {
    if (!this.leader || this.pumping || this.stopped) return;
    this.pumping = true;
    try {
      const auth = this.deps.auth();
      const now = Date.now();
      const mine = this.records.filter((r) => auth && r.userId === auth.userId);
      for (const r of this.records)
        if (r.state === 'cancelled' && r.uploadUrl) void this.finishCancel(r, now);
      for (const r of mine)
        if (r.detailsState === 'queued' && r.videoId) void this.details.sendWhenDue(r.id, now);
      void this.status.poll(mine, now);
      if (!this.active && online()) {
        const next = mine.find(
          (r) =>
            r.copy !== null &&
            (r.state === 'queued' ||
              r.state === 'sending' ||
              (r.state === 'waiting' && r.retryAt !== null && r.retryAt <= now)),
        );
        if (next) {
          // Taken before the first await, so that no second pump picks the same upload meanwhile.
          this.active = { id: next.id, transfer: null };
          void this.send(next);
        }
      }
      this.schedule();
    } finally {
      this.pumping = false;
    }
  }

  /** One timer for whatever is due next: a waiting upload's retry, details to resend, a status check. */
  private schedule() {
    clearTimeout(this.timer);
    // Offline, only the `online` event can help; in the background, status checks wait for the foreground.
    const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden';
    const dues = online()
      ? [
          ...this.records.filter((r) => r.state === 'waiting' && r.retryAt).map((r) => r.retryAt as number),
          ...this.details.dues(),
          ...[...this.terminating.values()].map((d) => d.at),
          ...(visible ? this.status.dues() : []),
        ]
      : [];
    // A status check under way is due at Infinity: its own end reschedules it.
    const next = Math.min(...dues.filter(Number.isFinite));
    if (!Number.isFinite(next)) return;
    const wait = Math.max(0, next - Date.now());
    this.timer = setTimeout(() => void this.pump(), wait + 20);
  }

  private async send(record: UploadRecord) {
    const file = record.copy ? await openCopy(record.id, record.copy) : null;
    if (!file || file.size !== record.size) {
      this.active = null;
      // Evicted or deleted behind the app's back: the creator can choose the file again and carry on.
      await applyEvent(record.id, { type: 'copyLost' });
      await this.changed();
      return;
    }
    const token = () => {
      const now = this.deps.auth();
      return now && now.userId === record.userId ? now.accessToken : null;
    };
    const sending = await applyEvent(record.id, { type: 'send' });
    // Paused or cancelled in the meantime.
    if (sending?.state !== 'sending' || this.active?.stop) {
      this.active = null;
      await this.changed();
      return;
    }
    this.live.set(record.id, { sent: record.offset, samples: [] });
    const transfer = startTransfer(record, file, {
      endpoint: this.deps.endpoint,
      token,
      ...(this.deps.httpStack ? { httpStack: this.deps.httpStack } : {}),
      onProgress: (sent) => this.progress(record.id, sent),
      onConfirmed: (offset) => {
        // Shown at once, here and in the other tabs: it is the figure the card counts.
        void applyEvent(record.id, { type: 'offsetConfirmed', offset }).then(() => this.changed());
      },
    });
    this.active = { id: record.id, transfer };
    await this.changed();
    const end = await transfer.done;
    this.active = null;
    await this.settle(record.id, end);
    await this.changed();
  }

  private async settle(id: string, end: TransferEnd) {
    const now = Date.now();
    switch (end.kind) {
      case 'sent': {
        let { videoId, screenshot } = end;
        let status: UploadRecord['status'] = 'uploaded';
        if (!videoId) {
          // The answer lost its headers: the server tells the outcome again.
          try {
            const outcome = await this.deps.api.outcome(end.uploadUrl);
            ({ videoId, screenshot } = outcome);
            status = outcome.status;
          } catch (error) {
            if (error instanceof ApiError && error.status === 422)
              return this.refused(id, refusalReason(error), true);
            await this.wait(id, messages.network, now);
            return;
          }
        }
        const record = await applyEvent(id, {
          type: 'uploaded',
          uploadUrl: end.uploadUrl,
          videoId,
          screenshot,
          status,
        });
        this.live.delete(id);
        this.chosen.delete(id);
        if (record) await removeCopy(id, 'opfs').then(() => removeCopy(id, 'idb'));
        this.status.follow(id, now);
        if (record?.detailsState === 'queued') await this.details.send(id);
        return;
      }
      case 'unreachable':
        return this.wait(id, end.message, now);
      case 'signin':
        await applyEvent(id, { type: 'signedOut' });
        if (this.deps.auth()) this.deps.onSessionEnded?.();
        return;
      case 'refused':
        return this.refused(id, end.reason, end.final);
      case 'refusedEarlier': {
        try {
          await this.deps.api.outcome(end.uploadUrl);
          // Not refused after all (a race with a retry): the next try reads it from HEAD.
          await applyEvent(id, { type: 'notRefused' });
        } catch (error) {
          await this.refused(id, error instanceof ApiError ? refusalReason(error) : messages.network, true);
        }
        return;
      }
      case 'restart':
        await applyEvent(id, { type: 'expired' });
        return;
      case 'unreadable':
        await applyEvent(id, { type: 'copyLost' });
        this.live.delete(id);
        return;
      case 'aborted':
        // Paused or cancelled: the action already wrote the new state; a sending record goes back in line.
        await applyEvent(id, { type: 'stopped' });
        this.live.delete(id);
    }
  }

  private async wait(id: string, message: string, now: number) {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    await applyEvent(id, { type: 'unreachable', message, at: now, offline });
  }

  private async refused(id: string, reason: string, final: boolean) {
    const record = await applyEvent(id, { type: 'refused', reason, final });
    this.live.delete(id);
    if (final && record) {
      this.chosen.delete(id);
      await removeCopy(id, 'opfs');
      await removeCopy(id, 'idb');
    }
    this.deps.onEvent?.({ kind: 'uploadFailed', id, reason });
  }

  private stopActive(id: string) {
    if (this.active?.id !== id) return;
    this.active.stop = true;
    this.active.transfer?.abort();
  }

  private async copy(id: string, file: Blob, release: () => void) {
    try {
      const place = await saveCopy(id, file, (bytes) => this.progress(id, bytes));
      const record = await applyEvent(id, { type: 'copied', place });
      // Cancelled while it was being copied.
      if (!record || record.state === 'cancelled') await removeCopy(id, place);
      else this.chosen.delete(id);
    } catch (error) {
      const reason = error instanceof StorageFullError ? messages.storageFull : messages.server.internal;
      await applyEvent(id, { type: 'copyFailed', reason });
    } finally {
      this.live.delete(id);
      release();
    }
    await this.changed();
  }

  /** Tells the server a cancelled upload is over (DELETE); without an answer, again on the next chance. */
  private async finishCancel(record: UploadRecord, now: number) {
    const retry = this.terminating.get(record.id);
    if (!record.uploadUrl || (retry && retry.at > now)) return;
    const attempts = (retry?.attempts ?? 0) + 1;
    this.terminating.set(record.id, { at: Number.POSITIVE_INFINITY, attempts });
    const result = await terminate(record.uploadUrl, {
      token: () => {
        const auth = this.deps.auth();
        return auth?.userId === record.userId ? auth.accessToken : null;
      },
      ...(this.deps.httpStack ? { httpStack: this.deps.httpStack } : {}),
    });
    if (result === 'gone' || result === 'finished') {
      this.terminating.delete(record.id);
      await deleteRecord(record.id);
      await this.changed();
    } else {
      this.terminating.set(record.id, { at: Date.now() + backoffMs(attempts), attempts });
      this.schedule();
    }
  }

  // ---- bookkeeping ------------------------------------------------------------------------------------

  private progress(id: string, sent: number) {
    const now = Date.now();
    const live = this.live.get(id) ?? { sent: 0, samples: [] };
    live.sent = sent;
    live.samples.push([now, sent]);
    while (live.samples.length > 2 && now - (live.samples[0]?.[0] ?? now) > SPEED_WINDOW_MS)
      live.samples.shift();
    this.live.set(id, live);
    this.tabs.post({ type: 'progress', id, sent, at: now });
    this.repaintSoon();
  }

  private repaintSoon() {
    if (this.repaint) return;
    this.repaint = setTimeout(() => {
      this.repaint = undefined;
      this.emit();
    }, PROGRESS_EVERY_MS);
  }

  /** After a write: read the queue again, tell the other tabs and the screens, and see what is due. */
  private async changed() {
    await this.refresh();
    this.tabs.post({ type: 'changed' });
    void this.pump();
  }

  private async refresh() {
    try {
      const all = await listRecords();
      const old = Date.now() - KEEP_FINISHED_MS;
      for (const r of all)
        if (
          r.state === 'sent' &&
          r.createdAt < old &&
          r.status &&
          SETTLED.has(r.status) &&
          r.detailsState !== 'queued'
        )
          await deleteRecord(r.id);
      this.records = all.filter((r) => !(r.state === 'sent' && r.createdAt < old));
    } catch {
      // No IndexedDB (some private modes): nothing can be queued there; the list stays as it was.
    }
    // Another tab paused or cancelled what this one is sending.
    const active = this.active && this.records.find((r) => r.id === this.active?.id);
    if (this.active && (!active || active.state === 'paused' || active.state === 'cancelled'))
      this.stopActive(this.active.id);
    this.emit();
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }

  private onMessage(data: unknown) {
    const message = data as { type?: string; id?: string; sent?: number; at?: number };
    if (message.type === 'changed') void this.refresh().then(() => this.pump());
    if (message.type === 'progress' && message.id && typeof message.sent === 'number') {
      const live = this.live.get(message.id) ?? { sent: 0, samples: [] };
      live.sent = message.sent;
      live.samples.push([message.at ?? Date.now(), message.sent]);
      if (live.samples.length > 40) live.samples.shift();
      this.live.set(message.id, live);
      this.repaintSoon();
    }
  }
}

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

function speedOf(live: Live, now: number): number | null {
  const recent = live.samples.filter(([t]) => now - t <= SPEED_WINDOW_MS);
  const first = recent[0];
  const last = recent.at(-1);
  if (!first || !last || last[0] - first[0] < 1000) return null;
  return ((last[1] - first[1]) * 1000) / (last[0] - first[0]);
}

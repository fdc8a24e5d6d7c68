// The details the creator typed (title, tags, schedule), sent once the video exists, one send per upload at a
// time. No answer (offline, 5xx, 429, an ended session) keeps them for the next chance or a back-off; a
// refusal stays on the record, to be corrected in the form.
import { ApiError } from '../../api/http';
import { SCHEDULE_GRACE_MS, scheduledInstant, type UploadDetailsInput } from '../../contract/upload-details';
import { applyEvent } from './apply';
import type { QueueDeps, QueueEvent } from './deps';
import { backoffMs } from './machine';
import { type DetailsValues, readRecord } from './records';
import { refusalReason } from './transfer';

export interface DetailsDeps {
  send: QueueDeps['api']['details'];
  auth: QueueDeps['auth'];
  onSessionEnded?: (() => void) | undefined;
  onEvent?: ((event: QueueEvent) => void) | undefined;
  /** After the records changed: read them again and tell the tabs and the screens. */
  changed: () => Promise<void>;
  /** A retry was set: the queue's timer takes it into account. */
  schedule: () => void;
}

export class DetailsSender {
  private readonly retries = new Map<string, { at: number; attempts: number }>();
  private readonly inFlight = new Map<string, Promise<'sent' | 'queued'>>();

  constructor(private readonly deps: DetailsDeps) {}

  /** Drops the back-off of `id`: its next send goes at once. */
  forget(id: string) {
    this.retries.delete(id);
  }

  /** A fresh chance (back online, back in front, signed in): every back-off ends now. */
  hurry() {
    for (const [id, retry] of this.retries) this.retries.set(id, { ...retry, at: 0 });
  }

  /** When each retry is due. */
  dues(): number[] {
    return [...this.retries.values()].map((d) => d.at);
  }

  /** Details of a video that exists, when their retry (if any) is due. */
  async sendWhenDue(id: string, now: number) {
    const retry = this.retries.get(id);
    if (retry && retry.at > now) return;
    await this.send(id);
  }

  /**
   * One send of an upload's details at a time: a background send of the same upload is left to finish (and
   * the form's own submit, `rethrow`, goes after it, so the newest details are the last to arrive).
   */
  async send(id: string, options: { rethrow?: boolean } = {}): Promise<'sent' | 'queued'> {
    const previous = this.inFlight.get(id);
    if (previous && !options.rethrow) return 'queued';
    await previous?.catch(() => undefined);
    const job = this.sendNow(id, options);
    this.inFlight.set(id, job);
    try {
      return await job;
    } finally {
      if (this.inFlight.get(id) === job) this.inFlight.delete(id);
    }
  }

  private async sendNow(id: string, options: { rethrow?: boolean }): Promise<'sent' | 'queued'> {
    const record = await readRecord(id);
    if (record?.detailsState === 'sent') return 'sent';
    const auth = this.deps.auth();
    const ready =
      record?.details && record.videoId && record.detailsState === 'queued' && auth?.userId === record.userId;
    // Not sendable now: the next change (the video's id, a sign-in) brings them back here.
    if (!ready) this.retries.delete(id);
    if (!ready || !record.details || !record.videoId) return 'queued';
    const { payload, lapsed } = detailsPayload(record.videoId, record.details);
    try {
      await this.deps.send(payload);
      // Edited again while these were on their way, the record keeps the newer ones to send.
      await applyEvent(id, { type: 'detailsDelivered', details: record.details, lapsed });
      this.retries.delete(id);
      if (!options.rethrow) this.deps.onEvent?.({ kind: 'detailsApplied', id });
      return 'sent';
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      if (status === 0 || status >= 500 || status === 429 || status === 401) {
        // Kept and sent again: on the next chance, or after a while.
        const attempts = (this.retries.get(id)?.attempts ?? 0) + 1;
        this.retries.set(id, { attempts, at: Date.now() + backoffMs(attempts) });
        if (status === 401) this.deps.onSessionEnded?.();
        this.deps.schedule();
        return 'queued';
      }
      const apiError = error as ApiError;
      const videoFailed = Boolean(apiError.errors?.videoId);
      await applyEvent(id, {
        type: 'detailsRefused',
        error: { message: apiError.message, ...(apiError.errors ? { errors: apiError.errors } : {}) },
        videoReason: videoFailed ? refusalReason(apiError) : null,
      });
      this.retries.delete(id);
      if (!options.rethrow) this.deps.onEvent?.({ kind: 'detailsRefused', id, message: apiError.message });
      if (options.rethrow) throw error;
      return 'queued';
    } finally {
      await this.deps.changed();
    }
  }
}

/**
 * The details as upload-details takes them. A schedule whose moment passed while the bytes were on their way
 * (a long cut) is dropped: the video goes public once processed, the nearest to what the creator chose, and
 * the list says so; a refusal would only hold it back until they came back to fix it.
 */
export function detailsPayload(videoId: number, details: DetailsValues, now = Date.now()) {
  const at = details.schedule ? scheduledInstant(details.uploadDate, details.uploadDateTimezone) : null;
  const lapsed = at !== null && at.getTime() < now - SCHEDULE_GRACE_MS;
  const scheduled = details.schedule && !lapsed;
  const payload: UploadDetailsInput = {
    videoId,
    title: details.title,
    tags: details.tags.join(','),
    is_nsfw: details.is_nsfw,
    schedule: scheduled,
    uploadDate: scheduled ? details.uploadDate : '',
    uploadDateTimezone: details.uploadDateTimezone,
  };
  return { payload, lapsed };
}

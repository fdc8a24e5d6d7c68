// The video's status on the server, followed from its last byte until it is approved and out of review (or
// refused, or gone): what the creator's card shows. Gently: every 3 s at first, slowing by half each time to
// every 30 s, and only while the app is on screen.
import { ApiError } from '../../api/http';
import { applyEvent } from './apply';
import type { QueueApi } from './deps';
import type { UploadRecord } from './records';
import { refusalReason } from './transfer';

const POLL_FIRST_MS = 3000;
const POLL_MAX_MS = 30_000;

/** Statuses after which there is nothing more to wait for. */
export const SETTLED = new Set(['approved', 'error', 'deleting', 'rejected']);

export class StatusFollower {
  private readonly polls = new Map<string, { at: number; every: number }>();

  constructor(
    private readonly deps: {
      outcome: QueueApi['outcome'];
      /** After the records changed: read them again and tell the tabs and the screens. */
      changed: () => Promise<void>;
    },
  ) {}

  /** A video that now exists: its first check is due in a moment. */
  follow(id: string, now: number) {
    this.polls.set(id, { at: now + POLL_FIRST_MS, every: POLL_FIRST_MS });
  }

  /** A fresh chance (back online, back in front): every check is due now, at the first pace again. */
  hurry() {
    for (const [id, poll] of this.polls)
      this.polls.set(id, { at: 0, every: Math.min(poll.every, POLL_FIRST_MS) });
  }

  /** When each check is due (Infinity while one is under way: its own end reschedules it). */
  dues(): number[] {
    return [...this.polls.values()].map((p) => p.at);
  }

  /** Asks about each of `mine` whose check is due. */
  async poll(mine: UploadRecord[], now: number) {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
    let asked = false;
    for (const r of mine) {
      if (r.state !== 'sent' || !r.uploadUrl || (r.status && SETTLED.has(r.status) && !r.inReview)) {
        this.polls.delete(r.id);
        continue;
      }
      const due = this.polls.get(r.id) ?? { at: now, every: POLL_FIRST_MS };
      if (due.at > now) {
        this.polls.set(r.id, due);
        continue;
      }
      const every = Math.min(due.every * 1.5, POLL_MAX_MS);
      this.polls.set(r.id, { at: Number.POSITIVE_INFINITY, every });
      asked = true;
      try {
        const outcome = await this.deps.outcome(r.uploadUrl);
        await applyEvent(r.id, {
          type: 'statusRead',
          status: outcome.status,
          screenshot: outcome.screenshot,
          inReview: outcome.inReview,
          statusReason: outcome.statusReason,
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 422)
          await applyEvent(r.id, { type: 'videoRefused', reason: refusalReason(error) });
        else if (error instanceof ApiError && error.status === 404)
          await applyEvent(r.id, { type: 'videoGone' });
      }
      this.polls.set(r.id, { at: Date.now() + every, every });
    }
    if (asked) await this.deps.changed();
  }
}

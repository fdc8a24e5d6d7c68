// An upload's record as one table of states and events: every change the queue makes to a record is an event
// applied here (`transition`), in one transaction (records.ts `applyEvent`), so the legal moves are read in one
// place and tested without IndexedDB (tests/unit/upload-machine.test.ts).
//
// The states (`state`, what they mean: records.ts) and what moves them:
//   saving    → queued (copied), failed (copyFailed); after a reload, by copyInterrupted: queued when the copy
//               was whole, else failed (the file is asked for again)
//   queued    → sending (send), paused (pause)
//   sending   → waiting (unreachable), signin (signedOut), queued (stopped: paused or cancelled meanwhile),
//               paused (pause)
//   waiting   → queued (retry: online, foreground, sign-in; resume), sending (send: its retry is due), paused
//   signin    → queued (retry), paused
//   paused    → queued (resume)
//   failed    → queued (resume, when not final and the copy is still there)
//   any state → failed (refused, copyFailed, copyLost), sent (uploaded), queued (notRefused, expired),
//               saving (fileChosen); anything but sent → cancelled (cancel)
//   sent, cancelled: nothing moves them on by itself (cancelled records go once the server was told).
// The other events change a record without moving it (the server's offset and URL, the details, the video's
// status). The details have their own small course alongside, whatever the state: detailsSaved → queued,
// detailsDelivered → sent (only the details that were sent), detailsRefused → failed (to be corrected).
//
// Where a move is legal from any state, it is because the event reports something that already happened
// (the server has every byte, refused the file, lost the upload): the record follows the server.
import { messages } from '../../contract';
import type { CopyPlace } from './files';
import type { DetailsValues, TransferState, UploadRecord } from './records';

export type UploadEvent =
  // ---- the device copy
  /** The copy onto the device is whole. */
  | { type: 'copied'; place: CopyPlace }
  /** The copy could not be made (`reason`: the device is full, or anything else). */
  | { type: 'copyFailed'; reason: string }
  /** A copy no tab is making any more (a reload): whole at `place`, or lost (null). */
  | { type: 'copyInterrupted'; place: CopyPlace | null }
  /** The copy is gone or unreadable when its turn came (evicted, deleted behind the app's back). */
  | { type: 'copyLost' }
  /** The copy was freed (a cancelled upload). */
  | { type: 'copyRemoved' }
  /** The creator chose the file again (`name` null when the browser gave none). */
  | { type: 'fileChosen'; name: string | null; size: number }
  // ---- the creator
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'cancel' }
  // ---- the sending tab
  /** A fresh chance: back online, back in front, signed in again. */
  | { type: 'retry' }
  /** Its turn: the bytes go. */
  | { type: 'send' }
  /** An offset the server confirmed (a chunk's answer, a resume's HEAD). */
  | { type: 'offsetConfirmed'; offset: number }
  /** tus-js-client's URL storage (transfer.ts): the upload's URL, kept or forgotten (404). */
  | { type: 'urlStored'; uploadUrl: string | null }
  | { type: 'urlForgotten' }
  // ---- how a transfer ended (transfer.ts TransferEnd)
  /** Stopped by this tab (pause, cancel). */
  | { type: 'stopped' }
  /** No answer; tried again after a back-off from `at`, or on `online` when the browser is `offline`. */
  | { type: 'unreachable'; message: string; at: number; offline: boolean }
  | { type: 'signedOut' }
  /** The server refused; `final` when nothing can change its mind (the file itself). */
  | { type: 'refused'; reason: string; final: boolean }
  /** The server has every byte: the video exists. */
  | {
      type: 'uploaded';
      uploadUrl: string;
      videoId: number | null;
      screenshot: string | null;
      status: UploadRecord['status'];
    }
  /** Reported refused, then not so when asked (a race with a retry): the next try reads HEAD. */
  | { type: 'notRefused' }
  /** The server no longer has the upload: from the first byte again. */
  | { type: 'expired' }
  // ---- the details
  | { type: 'detailsSaved'; details: DetailsValues }
  /** The server took `details` (ignored when the record's were edited since: the newer still have to go). */
  | { type: 'detailsDelivered'; details: DetailsValues; lapsed: boolean }
  /** The server refused them; `videoReason` when it refused the video itself. */
  | {
      type: 'detailsRefused';
      error: NonNullable<UploadRecord['detailsError']>;
      videoReason: string | null;
    }
  // ---- the video's status on the server
  | {
      type: 'statusRead';
      status: UploadRecord['status'];
      screenshot: string;
      inReview?: boolean | undefined;
      statusReason?: string | null | undefined;
    }
  | { type: 'videoRefused'; reason: string }
  | { type: 'videoGone' };

export type UploadEventType = UploadEvent['type'];
type EventOf<T extends UploadEventType> = Extract<UploadEvent, { type: T }>;

/** `stay`: legal, the state does not move. A function decides on the record; undefined refuses. */
type Move<T extends UploadEventType> =
  | TransferState
  | 'stay'
  | ((record: UploadRecord, event: EventOf<T>) => TransferState | 'stay' | undefined);

/** Every legal move: for each event, the states it is accepted in (`*`: any); any other is refused. */
export const UPLOAD_TABLE: { [T in UploadEventType]: Partial<Record<TransferState | '*', Move<T>>> } = {
  copied: { saving: 'queued', '*': 'stay' },
  copyFailed: { '*': 'failed' },
  copyInterrupted: { saving: (_, e) => (e.place ? 'queued' : 'failed') },
  copyLost: { '*': 'failed' },
  copyRemoved: { '*': 'stay' },
  fileChosen: { '*': 'saving' },

  pause: { queued: 'paused', sending: 'paused', waiting: 'paused', signin: 'paused' },
  resume: { paused: 'queued', waiting: 'queued', failed: (r) => (!r.final && r.copy ? 'queued' : undefined) },
  cancel: {
    saving: 'cancelled',
    queued: 'cancelled',
    sending: 'cancelled',
    paused: 'cancelled',
    waiting: 'cancelled',
    signin: 'cancelled',
    failed: 'cancelled',
    cancelled: 'cancelled',
  },

  retry: { waiting: 'queued', signin: 'queued' },
  send: { queued: 'sending', waiting: 'sending', sending: 'sending' },
  offsetConfirmed: { '*': 'stay' },
  urlStored: { '*': 'stay' },
  urlForgotten: { '*': 'stay' },

  stopped: { sending: 'queued' },
  unreachable: { sending: 'waiting' },
  signedOut: { sending: 'signin' },
  refused: { '*': 'failed' },
  uploaded: { '*': 'sent' },
  notRefused: { '*': 'queued' },
  expired: { '*': 'queued' },

  detailsSaved: { '*': 'stay' },
  detailsDelivered: {
    '*': (r, e) => (JSON.stringify(r.details) === JSON.stringify(e.details) ? 'stay' : undefined),
  },
  detailsRefused: { '*': 'stay' },

  statusRead: { '*': 'stay' },
  videoRefused: { '*': 'stay' },
  videoGone: { '*': 'stay' },
};

/** What each event writes besides the state (`record` as it was before). */
const CHANGES: {
  [T in UploadEventType]: (record: UploadRecord, event: EventOf<T>) => Partial<UploadRecord>;
} = {
  copied: (r, e) => ({ copy: e.place, ...(r.state === 'saving' ? { saved: r.size } : {}) }),
  copyFailed: (_, e) => ({ error: e.reason, final: false, copy: null }),
  copyInterrupted: (r, e) =>
    e.place
      ? { copy: e.place, saved: r.size }
      : { error: messages.upload.copyLost, final: false, copy: null, saved: 0 },
  copyLost: () => ({ error: messages.upload.copyLost, final: false, copy: null }),
  copyRemoved: () => ({ copy: null }),
  fileChosen: (r, e) => {
    // The same file carries on from the server's offset; another one starts over.
    const same = e.size === r.size && (e.name ?? r.name) === r.name;
    return {
      error: null,
      size: e.size,
      name: e.name ?? r.name,
      saved: 0,
      ...(same ? {} : { uploadUrl: null, offset: 0 }),
    };
  },

  pause: () => ({ retryAt: null }),
  resume: () => ({ retryAt: null, error: null }),
  cancel: () => ({}),

  retry: () => ({ retryAt: null }),
  send: () => ({ error: null }),
  offsetConfirmed: (_, e) => ({ offset: e.offset, attempts: 0 }),
  urlStored: (_, e) => ({ uploadUrl: e.uploadUrl }),
  urlForgotten: () => ({ uploadUrl: null, offset: 0 }),

  stopped: () => ({}),
  unreachable: (r, e) => ({
    error: e.message,
    attempts: r.attempts + 1,
    // Offline, the `online` event is the trigger; a timer would only find the network still gone.
    retryAt: e.offline ? null : e.at + backoffMs(r.attempts + 1),
  }),
  signedOut: () => ({}),
  refused: (_, e) => ({
    error: e.reason,
    final: e.final,
    ...(e.final ? { copy: null, status: 'error' as const, statusReason: e.reason } : {}),
  }),
  uploaded: (r, e) => ({
    uploadUrl: e.uploadUrl,
    offset: r.size,
    videoId: e.videoId,
    screenshot: e.screenshot,
    status: e.status,
    copy: null,
    error: null,
    retryAt: null,
  }),
  notRefused: () => ({}),
  expired: () => ({ uploadUrl: null, offset: 0 }),

  detailsSaved: (_, e) => ({
    details: e.details,
    detailsState: 'queued',
    detailsError: null,
    scheduleLapsed: false,
  }),
  detailsDelivered: (_, e) => ({ detailsState: 'sent', detailsError: null, scheduleLapsed: e.lapsed }),
  detailsRefused: (_, e) => ({
    detailsState: 'failed',
    detailsError: e.error,
    ...(e.videoReason !== null ? { status: 'error' as const, statusReason: e.videoReason } : {}),
  }),

  statusRead: (r, e) => ({
    status: e.status,
    screenshot: e.screenshot,
    inReview: e.inReview ?? false,
    statusReason: e.statusReason ?? r.statusReason,
  }),
  videoRefused: (_, e) => ({ status: 'error', statusReason: e.reason }),
  videoGone: () => ({ status: 'deleting' }),
};

/** The state `event` moves `record` to (its own when it stays), or undefined when the move is refused. */
export function nextState(record: UploadRecord, event: UploadEvent): TransferState | undefined {
  const row = UPLOAD_TABLE[event.type] as Partial<Record<TransferState | '*', Move<UploadEventType>>>;
  const move = row[record.state] ?? row['*'];
  const to = typeof move === 'function' ? move(record, event) : move;
  return to === 'stay' ? record.state : to;
}

/** The record after `event`; the same record, untouched, when the move is refused. */
export function transition(record: UploadRecord, event: UploadEvent): UploadRecord {
  const state = nextState(record, event);
  if (state === undefined) return record;
  const change = CHANGES[event.type] as (record: UploadRecord, event: UploadEvent) => Partial<UploadRecord>;
  return { ...record, ...change(record, event), state };
}

/** Back-off of a waiting upload, details or cancellation after the quick retries: 5 s doubling to 2 minutes. */
export const backoffMs = (attempts: number) => Math.min(5000 * 2 ** Math.max(attempts - 1, 0), 120_000);

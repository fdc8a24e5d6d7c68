// How an upload reads on screen: one line for where its bytes are (or what the server says of its video),
// a second for what comes next, and the bar's fill. Kept apart from the components so every place that
// shows an upload (the details step, the list, the account section) says the same thing.
import { formatBytes, messages, type VideoStatus } from '../../contract';
import { scheduledInstant } from '../../contract/upload-details';
import type { UploadView } from '../../offline/uploads';
import { statusLabel } from '../../ui/VideoTile';

const DEVICE_TROUBLES = new Set<string>([messages.storageFull, messages.upload.copyLost]);

/** Statuses that are what became of the video, details or not. */
const OUTCOMES = new Set<VideoStatus>(['rejected', 'error', 'deleting']);

export type Tone = 'active' | 'quiet' | 'warn' | 'error' | 'good';

export interface Described {
  /** The server's status as the owner sees it (spec §4: capitalised), once the video exists. */
  badge: { text: string; status: VideoStatus | 'review' } | null;
  line: string;
  detail: string | null;
  tone: Tone;
  /** 0 to 1 while bytes are copied or sent (those the server confirmed); null once that is over. */
  progress: number | null;
  /** While on the wire, 0 to 1: bytes handed to the network past `progress`, not confirmed yet. */
  inFlight?: number;
}

export const percent = (part: number, whole: number) =>
  `${whole > 0 ? Math.min(100, Math.floor((part / whole) * 100)) : 0}%`;

export function timeLeft(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min left`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

export const sizeOf = (bytes: number) => formatBytes(bytes).replace(/^(\d+) bytes$/, '$1 B');

/** When a scheduled video goes out, in the creator's words and clock. */
function scheduledFor(u: UploadView): string | null {
  if (!u.details?.schedule || u.scheduleLapsed) return null;
  const at = scheduledInstant(u.details.uploadDate, u.details.uploadDateTimezone);
  if (!at) return null;
  return at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function afterSent(u: UploadView): Described {
  const status = u.status ?? 'uploaded';
  // Until its details are in, a video is not published whatever the server has done with its file: a green
  // 'Approved' (or 'In review') there would read as if it were out. What happened is that it uploaded.
  const unpublished = u.detailsState !== 'sent' && !OUTCOMES.has(status);
  const badge: Described['badge'] = unpublished
    ? { text: statusLabel('uploaded'), status: 'uploaded' }
    : u.inReview
      ? { text: 'In review', status: 'review' }
      : { text: statusLabel(status), status };
  if (status === 'rejected') {
    return {
      badge,
      line: `Not approved: ${u.statusReason ?? 'it breaks our content rules.'}`,
      detail: 'We sent you a mail with the reason.',
      tone: 'error',
      progress: null,
    };
  }
  if (status === 'error') {
    return {
      badge,
      line: messages.upload.failed(u.statusReason ?? messages.upload.processingFailed),
      detail: null,
      tone: 'error',
      progress: null,
    };
  }
  if (status === 'deleting')
    return { badge, line: 'This video was deleted.', detail: null, tone: 'quiet', progress: null };
  const working = status === 'approved' ? null : 'Getting it ready to play…';
  if (u.detailsState === 'none')
    return {
      badge,
      line: 'Add a title and tags to publish it.',
      detail: working,
      tone: 'warn',
      progress: null,
    };
  if (u.detailsState === 'failed')
    return {
      badge,
      line: `${messages.upload.detailsFailed} ${u.detailsError?.message ?? ''}`.trim(),
      detail: working,
      tone: 'error',
      progress: null,
    };
  if (u.detailsState === 'queued')
    return {
      badge,
      line: 'Details are sent as soon as the network allows.',
      detail: working,
      tone: 'quiet',
      progress: null,
    };
  const when = scheduledFor(u);
  const lapsed = u.scheduleLapsed
    ? 'The scheduled time passed while it uploaded: it goes public once ready.'
    : null;
  if (status === 'approved' && u.inReview)
    return {
      badge,
      line: 'Waiting for review',
      detail: 'Our team checks every video before it goes public. You get a mail once it is decided.',
      tone: 'quiet',
      progress: null,
    };
  if (status === 'approved')
    return {
      badge,
      line: when ? `Scheduled for ${when}` : 'Published',
      detail: lapsed,
      tone: 'good',
      progress: null,
    };
  return {
    badge,
    line: when ? `Goes public on ${when}` : 'Goes public once it is ready.',
    detail: lapsed ?? working,
    tone: 'quiet',
    progress: null,
  };
}

export function describe(u: UploadView, online: boolean): Described {
  const done = u.size > 0 ? u.sent / u.size : 0;
  const pct = percent(u.sent, u.size);
  const none = { badge: null, detail: null };
  // Offline nothing goes out, whatever the record last said: after a reload or a restart without a network
  // it may still read 'sending' (the page that sent it is gone) or 'queued'.
  const stalled = !online && (u.state === 'queued' || u.state === 'sending');
  switch (stalled ? 'waiting' : u.state) {
    case 'saving':
      return {
        ...none,
        line: `Saving on this device · ${percent(u.saved, u.size)}`,
        tone: 'active',
        progress: u.size ? u.saved / u.size : 0,
      };
    case 'queued':
      return {
        ...none,
        line: u.sent > 0 ? `Waiting for its turn · ${pct}` : 'Waiting for its turn',
        tone: 'quiet',
        progress: done,
      };
    case 'sending': {
      const speed =
        u.bytesPerSecond && u.secondsLeft !== null
          ? `${sizeOf(u.bytesPerSecond)}/s · ${timeLeft(u.secondsLeft)}`
          : null;
      return {
        badge: null,
        line: `${pct} · ${sizeOf(u.sent)} of ${sizeOf(u.size)}`,
        detail: speed,
        tone: 'active',
        progress: done,
        inFlight: u.size > 0 ? u.inFlight / u.size : 0,
      };
    }
    case 'paused':
      return { ...none, line: `Paused · ${pct}`, tone: 'quiet', progress: done };
    case 'waiting':
      return {
        ...none,
        line: online ? `Connection lost, trying again · ${pct}` : `Waiting for the network · ${pct}`,
        detail: 'It carries on by itself.',
        tone: 'warn',
        progress: done,
      };
    case 'signin':
      return { ...none, line: `Sign in again to carry on · ${pct}`, tone: 'warn', progress: done };
    case 'failed':
      return {
        ...none,
        // The device's own troubles read as they are; what the server said follows 'Video upload failed: '.
        line: DEVICE_TROUBLES.has(u.error ?? '')
          ? (u.error as string)
          : messages.upload.failed(u.error ?? messages.server.internal),
        tone: 'error',
        progress: null,
      };
    case 'sent':
    case 'cancelled':
      return afterSent(u);
  }
}

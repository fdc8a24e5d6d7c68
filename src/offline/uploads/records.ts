// One record per upload in IndexedDB (idb-keyval, its own database): what the file is, where its copy lives
// on the device, how far the server has it (the tus URL and offset), the details the creator typed, and what
// the server said since. Every change is an event of the upload's table (machine.ts), applied by
// `applyEvent` (apply.ts) in one read-modify-write transaction (`updateRecord`), so two tabs changing the same
// upload never lose each other's change.
import { createStore, del, get, set, type UseStore, update, values } from 'idb-keyval';
import type { VideoStatus } from '../../contract';

let recordStore: UseStore | undefined;
const records = () => {
  recordStore ??= createStore('shortcams-uploads', 'uploads');
  return recordStore;
};

/**
 * Where the bytes are (what moves them from one to the next: machine.ts):
 * - `saving`: being copied onto the device;  `queued`: waiting for its turn;  `sending`: on the wire;
 * - `paused`: by the creator;  `waiting`: no network, or the server did not answer: it goes on by itself;
 * - `signin`: the session ended, it goes on once the same account signs in again;
 * - `sent`: the server has every byte (the video exists);  `failed`: refused, see `error`;
 * - `cancelled`: the creator cancelled; kept only until the server has been told (DELETE), never shown.
 */
export type TransferState =
  | 'saving'
  | 'queued'
  | 'sending'
  | 'paused'
  | 'waiting'
  | 'signin'
  | 'sent'
  | 'failed'
  | 'cancelled';

/** The details form as the creator filled it in (the contract's field names). A type, not an interface:
 * the form kit takes it as a record of values. */
export type DetailsValues = {
  title: string;
  tags: string[];
  is_nsfw: boolean;
  schedule: boolean;
  uploadDate: string;
  uploadDateTimezone: string;
};

/**
 * - `none`: not submitted yet;  `queued`: submitted, waiting for the video id or the network;
 * - `sent`: the server has them;  `failed`: the server refused them (`detailsError`), to be corrected.
 */
export type DetailsState = 'none' | 'queued' | 'sent' | 'failed';

export interface UploadRecord {
  /** Local id (UUID), also the name of the device copy and the tus fingerprint. */
  id: string;
  userId: number;
  /** Order of the queue. */
  createdAt: number;
  name: string;
  size: number;
  type: string;
  /** From the file's own metadata, when the browser could read it. */
  durationSeconds: number | null;
  /** A frame grabbed on the device, shown until the server's first frame exists. */
  localFrame: Blob | null;

  state: TransferState;
  /** Where the device copy is; null once freed (the server has every byte, or the upload was cancelled). */
  copy: 'opfs' | 'idb' | null;
  /** Bytes copied onto the device so far. */
  saved: number;
  /** tus upload URL (the URL storage of tus-js-client lives here). */
  uploadUrl: string | null;
  /** Bytes the server confirmed. */
  offset: number;
  /** The reason of `failed`, or what went wrong last while `waiting`. */
  error: string | null;
  /** `failed` for good: nothing to retry (the server refused the file). */
  final: boolean;
  /** While `waiting`: when the next try is due (ms since epoch). */
  retryAt: number | null;
  attempts: number;

  videoId: number | null;
  screenshot: string | null;
  /** The server's status of the video once it exists, and its reason when `error`. */
  status: VideoStatus | null;
  statusReason: string | null;
  /** Playable, and waiting for the operators' approval before it goes public. */
  inReview?: boolean;

  details: DetailsValues | null;
  detailsState: DetailsState;
  /** The server's refusal of the details: its message, and field messages of a 422. */
  detailsError: { message: string; errors?: Record<string, string[]> } | null;
  /** The chosen publishing time passed before the details could be sent: published once processed. */
  scheduleLapsed: boolean;
}

export const readRecord = async (id: string) => get<UploadRecord>(id, records());

export async function listRecords(): Promise<UploadRecord[]> {
  const all = await values<UploadRecord>(records());
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

/** Applies `change` to the stored record in one transaction; the result, or undefined when it is gone. */
export async function updateRecord(
  id: string,
  change: (record: UploadRecord) => UploadRecord,
): Promise<UploadRecord | undefined> {
  let result: UploadRecord | undefined;
  await update<UploadRecord | undefined>(
    id,
    (current) => {
      result = current ? change(current) : undefined;
      return result;
    },
    records(),
  );
  // idb-keyval's update stores `undefined` for a missing key; that key must stay absent.
  if (!result) await del(id, records());
  return result;
}

export const createRecord = async (record: UploadRecord) => set(record.id, record, records());

export const deleteRecord = async (key: string) => del(key, records());

// What the upload queue is given and what it tells: shared by the queue and the modules it hands work to
// (details.ts, status.ts), which would otherwise import the queue that imports them.
import type * as tus from 'tus-js-client';
import type { UploadDetailsInput } from '../../contract/upload-details';
import type { UploadRecord } from './records';

/** What the queue tells the person using the app, wherever they are (the app shows it as a toast). */
export type QueueEvent =
  | { kind: 'detailsApplied'; id: string }
  | { kind: 'detailsRefused'; id: string; message: string }
  | { kind: 'uploadFailed'; id: string; reason: string };

export interface QueueApi {
  outcome(uploadUrl: string): Promise<{
    videoId: number;
    screenshot: string;
    status: UploadRecord['status'];
    inReview?: boolean | undefined;
    statusReason?: string | null | undefined;
  }>;
  details(payload: UploadDetailsInput): Promise<unknown>;
}

export interface QueueDeps {
  /** Absolute URL of the tus endpoint. */
  endpoint: string;
  api: QueueApi;
  /** Who is signed in now. */
  auth: () => { userId: number; accessToken: string } | null;
  /** The server no longer knows the token: the app forgets it (and the uploads wait for the next sign-in). */
  onSessionEnded?: () => void;
  onEvent?: (event: QueueEvent) => void;
  httpStack?: tus.HttpStack;
  /** Elect one sending tab with navigator.locks (default: where the browser has it). */
  locks?: boolean;
  /** Tell other tabs through a BroadcastChannel (default: where the browser has it). */
  broadcast?: boolean;
}

// Loaded by main.tsx after the first render, for signed-in people only: if this device holds an upload of
// theirs that is not done (bytes to send, details to deliver, a status to follow), the queue starts, whatever
// screen the app opened on. Small on purpose: the queue and tus-js-client load only when something waits.
import { readAuth } from '../../state/auth';
import { listRecords, type UploadRecord } from './records';

const SETTLED = new Set(['approved', 'error', 'deleting', 'rejected']);

const unfinished = (r: UploadRecord) =>
  r.state === 'cancelled' ||
  (r.state !== 'sent' && r.state !== 'failed' && r.state !== 'paused') ||
  (r.state === 'sent' && (r.detailsState === 'queued' || !SETTLED.has(r.status ?? '')));

export async function resumeUploads(): Promise<void> {
  const auth = readAuth();
  if (!auth) return;
  const records = await listRecords().catch(() => []);
  if (!records.some((r) => (r.userId === auth.userId || r.state === 'cancelled') && unfinished(r))) return;
  const { uploadQueue } = await import('./index');
  uploadQueue();
}

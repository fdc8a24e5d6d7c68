// The upload queue as the app uses it: one queue per tab (queue.ts), wired to the API client, the signed-in
// account and the toasts, and read by screens through `uploadsAtom` / `useUploads`. Screens change it only
// through `uploads.*`; they never touch the records or files underneath.
import { atom, useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { fetchUploadOutcome, submitUploadDetails, UPLOADS_PATH } from '../../api/uploads';
import { messages } from '../../contract';
import { authAtom, expireSession, readAuth } from '../../state/auth';
import { appStore } from '../../state/store';
import { showToastAtom } from '../../state/toast';
import type { QueueEvent } from './deps';
import { UploadQueue, type UploadView } from './queue';
import type { DetailsValues } from './records';

export type { UploadView } from './queue';
export type { DetailsValues } from './records';

let queue: UploadQueue | undefined;

function tell(event: QueueEvent) {
  if (event.kind === 'detailsApplied') appStore.set(showToastAtom, messages.upload.uploaded);
  if (event.kind === 'uploadFailed')
    appStore.set(showToastAtom, messages.upload.failed(event.reason), { tone: 'error' });
  if (event.kind === 'detailsRefused')
    appStore.set(showToastAtom, `${messages.upload.detailsFailed} ${event.message}`, { tone: 'error' });
}

/** The tab's queue, started on first use: from then on it sends whatever waits, whichever screen is open. */
export function uploadQueue(): UploadQueue {
  if (!queue) {
    const created = new UploadQueue({
      endpoint: new URL(UPLOADS_PATH, window.location.origin).href,
      api: {
        outcome: (uploadUrl) => fetchUploadOutcome(uploadUrl),
        details: (payload) => submitUploadDetails(payload),
      },
      auth: () => {
        const auth = readAuth();
        return auth ? { userId: auth.userId, accessToken: auth.accessToken } : null;
      },
      onSessionEnded: expireSession,
      onEvent: tell,
    });
    queue = created;
    // Signed in again (or as someone else): what waited for that account goes on.
    appStore.sub(authAtom, () => created.kick());
    void created.start();
  }
  return queue;
}

/** Every upload on this device, oldest first, live (progress, speed, server status). */
export const uploadsAtom = atom<UploadView[]>([]);
uploadsAtom.onMount = (set) => {
  const q = uploadQueue();
  set(q.snapshot());
  return q.subscribe(() => set(q.snapshot()));
};

/** The signed-in account's uploads. */
export function useUploads(): UploadView[] {
  const all = useAtomValue(uploadsAtom);
  const userId = useAtomValue(authAtom)?.userId;
  return useMemo(() => all.filter((u) => u.userId === userId), [all, userId]);
}

export function useUpload(id: string | null | undefined): UploadView | undefined {
  const mine = useUploads();
  return id ? mine.find((u) => u.id === id) : undefined;
}

/** What screens may do to the queue. */
export const uploads = {
  add: (file: File, info: { durationSeconds: number | null; localFrame: Blob | null }) =>
    uploadQueue().add(file, info),
  replaceFile: (id: string, file: File) => uploadQueue().replaceFile(id, file),
  pause: (id: string) => uploadQueue().pause(id),
  resume: (id: string) => uploadQueue().resume(id),
  cancel: (id: string) => uploadQueue().cancel(id),
  dismiss: (id: string) => uploadQueue().dismiss(id),
  saveDetails: (id: string, values: DetailsValues) => uploadQueue().saveDetails(id, values),
};

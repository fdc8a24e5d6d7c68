import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useState } from 'react';
import { listRecords } from '../../offline/uploads/records';
import { authAtom } from '../../state/auth';

const UploadQueueList = lazy(() => import('./UploadQueueList').then((m) => ({ default: m.UploadQueueList })));

/**
 * The upload list for the account home (/account places it): nothing at all, and none of the queue's code,
 * unless this device holds an upload of the signed-in account.
 */
export function UploadQueueSection() {
  const userId = useAtomValue(authAtom)?.userId;
  const [any, setAny] = useState(false);
  useEffect(() => {
    let live = true;
    listRecords()
      .then((records) => live && setAny(records.some((r) => r.userId === userId && r.state !== 'cancelled')))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [userId]);
  if (!any) return null;
  return (
    <Suspense fallback={null}>
      <UploadQueueList title="Uploads" />
    </Suspense>
  );
}

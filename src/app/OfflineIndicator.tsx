import { useAtomValue } from 'jotai';
import { onlineAtom } from '../state/network';
import { OfflineIcon } from '../ui/icons';

/**
 * A status strip while the device is offline: what is on screen comes from the device, and likes and views
 * are kept to be sent later, so the app stays usable and says why nothing new loads.
 */
export function OfflineIndicator() {
  const online = useAtomValue(onlineAtom);
  if (online) return null;
  return (
    <p className="offline-pill" role="status">
      <OfflineIcon />
      <span>You're offline · likes and views are saved</span>
    </p>
  );
}

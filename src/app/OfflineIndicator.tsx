import { useAtomValue } from 'jotai';
import { offlineCopyAtom, onlineAtom } from '../state/network';
import { OfflineIcon } from '../ui/icons';

/**
 * A status strip while the device is offline: what is on screen comes from the device, and likes and views
 * are kept to be sent later, so the app stays usable and says why nothing new loads.
 */
export function OfflineIndicator() {
  const online = useAtomValue(onlineAtom);
  // The browser may believe it is online while nothing answers (a tunnel, a server away): what is on screen
  // then came from the device too, and says so.
  const copy = useAtomValue(offlineCopyAtom);
  if (online && !copy) return null;
  return (
    <p className="offline-pill" role="status">
      <OfflineIcon />
      <span>
        {online ? 'Offline · showing what was saved' : "You're offline · likes and views are saved"}
      </span>
    </p>
  );
}

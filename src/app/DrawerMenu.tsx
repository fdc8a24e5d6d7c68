import { useAtom, useAtomValue } from 'jotai';
import { type ComponentType, type ReactNode, useState } from 'react';
import { logOut } from '../api/auth';
import { trackEvent } from '../api/tracking';
import { LIVE_CAMS_URL, WEBCAM_REVIEWS_URL } from '../config';
import { authAtom } from '../state/auth';
import { installPromptAtom, isIos, isStandalone } from '../state/install';
import { CompassIcon, GlobeIcon, PlusIcon, StarIcon, TvIcon, UserIcon } from '../ui/icons';
import { Link } from '../ui/Link';
import { CamIcon, DownloadIcon, ExternalIcon, LoginIcon, LogoutIcon, ShareIcon } from '../ui/more-icons';

function Item({ icon: Icon, children }: { icon: ComponentType; children: ReactNode }) {
  return (
    <>
      <span className="drawer-item-icon">
        <Icon />
      </span>
      <span className="drawer-item-label">{children}</span>
    </>
  );
}

/**
 * The drawer's entries: a guest's and a signed-in user's differ. `onClose` closes the drawer after a choice;
 * a guest's Rate videos asks for `onRatePrompt` (the sign-up offer) instead.
 */
export function DrawerMenu({ onClose, onRatePrompt }: { onClose: () => void; onRatePrompt: () => void }) {
  const auth = useAtomValue(authAtom);
  const openLiveCams = () => {
    // Spec §9 event 3: a Live Cams click from the menu.
    void trackEvent(3);
    onClose();
  };
  return (
    <nav aria-label="Main menu">
      <ul className="drawer-list">
        {auth ? (
          <>
            <li>
              <Link to="/account" className="drawer-item" onClick={onClose}>
                <Item icon={UserIcon}>My account</Item>
              </Link>
            </li>
            <li>
              <Link to="/upload" className="drawer-item" onClick={onClose}>
                <Item icon={PlusIcon}>Upload video</Item>
              </Link>
            </li>
          </>
        ) : (
          <li>
            <Link to="/login" className="drawer-item" onClick={onClose}>
              <Item icon={LoginIcon}>Login</Item>
            </Link>
          </li>
        )}
        <li>
          <Link to="/discover" className="drawer-item" onClick={onClose}>
            <Item icon={CompassIcon}>Discover</Item>
          </Link>
        </li>
        <li>
          <Link to="/channels" className="drawer-item" onClick={onClose}>
            <Item icon={TvIcon}>Channels</Item>
          </Link>
        </li>
        <li>
          <a
            href={LIVE_CAMS_URL}
            target="_blank"
            rel="noopener"
            className="drawer-item drawer-item-live"
            onClick={openLiveCams}
          >
            <Item icon={CamIcon}>Live Cams</Item>
            <ExternalIcon className="drawer-item-external" />
          </a>
        </li>
        <li>
          {auth ? (
            <Link to="/videos-rating/unrated" className="drawer-item" onClick={onClose}>
              <Item icon={StarIcon}>Rate videos</Item>
            </Link>
          ) : (
            <button type="button" className="drawer-item" onClick={onRatePrompt}>
              <Item icon={StarIcon}>Rate videos</Item>
            </button>
          )}
        </li>
        <li>
          <a
            href={WEBCAM_REVIEWS_URL}
            target="_blank"
            rel="noopener"
            className="drawer-item"
            onClick={onClose}
          >
            <Item icon={GlobeIcon}>Webcam Reviews</Item>
            <ExternalIcon className="drawer-item-external" />
          </a>
        </li>
        <InstallItem onDone={onClose} />
        {auth && (
          <li>
            <button type="button" className="drawer-item" onClick={() => void logOut()}>
              <Item icon={LogoutIcon}>Log out</Item>
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}

/**
 * Install offer: Chromium's own prompt when it has one for us; on iOS, where there is none, the steps.
 * Nothing once the app runs installed.
 */
function InstallItem({ onDone }: { onDone: () => void }) {
  const [prompt, setPrompt] = useAtom(installPromptAtom);
  const [iosHint, setIosHint] = useState(false);
  if (isStandalone()) return null;
  if (prompt) {
    const install = async () => {
      await prompt.prompt();
      await prompt.userChoice.catch(() => undefined);
      // A prompt event works once; the browser fires a new one if it may ask again.
      setPrompt(null);
      onDone();
    };
    return (
      <li>
        <button type="button" className="drawer-item" onClick={() => void install()}>
          <Item icon={DownloadIcon}>Install app</Item>
        </button>
      </li>
    );
  }
  if (!isIos()) return null;
  return (
    <li>
      <button
        type="button"
        className="drawer-item"
        aria-expanded={iosHint}
        onClick={() => setIosHint((shown) => !shown)}
      >
        <Item icon={DownloadIcon}>Add to Home Screen</Item>
      </button>
      {iosHint && (
        <p className="drawer-hint">
          Tap <ShareIcon className="drawer-hint-icon" /> <strong>Share</strong> in Safari's toolbar, then{' '}
          <strong>Add to Home Screen</strong>.
        </p>
      )}
    </li>
  );
}

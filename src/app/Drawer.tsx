import { useAtom, useAtomValue } from 'jotai';
import { type ComponentType, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { logOut } from '../api/auth';
import { trackEvent } from '../api/tracking';
import { APP_VERSION, LIVE_CAMS_URL, RTA_URL, SOCIAL_URL, WEBCAM_REVIEWS_URL } from '../config';
import { authAtom } from '../state/auth';
import { installPromptAtom, isIos, isStandalone } from '../state/install';
import {
  CamIcon,
  CloseIcon,
  CompassIcon,
  DownloadIcon,
  ExternalIcon,
  GlobeIcon,
  LoginIcon,
  LogoutIcon,
  PlusIcon,
  ShareIcon,
  StarIcon,
  TvIcon,
  UserIcon,
} from '../ui/icons';
import { SignupSheet } from '../ui/SignupSheet';
import './drawer.css';

/** Spec §2 footer: the static pages, in this order. */
const FOOTER_PAGES: [slug: string, label: string][] = [
  ['faq', 'FAQ'],
  ['policy', 'Privacy policy'],
  ['dmca', 'DMCA'],
  ['2257', '2257'],
  ['support', 'Support'],
  ['terms', 'Terms'],
];

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
 * The main menu (spec §2 "Main menu"): a side drawer over the app, as a modal dialog so focus stays in it
 * and Escape or a tap outside closes it. Guests and logged-in users see different entries.
 */
export function Drawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const auth = useAtomValue(authAtom);
  const [ratePrompt, setRatePrompt] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const openLiveCams = () => {
    // Spec §9 event 3: a Live Cams click from the menu.
    void trackEvent(3);
    onClose();
  };

  return (
    <>
      <dialog
        ref={ref}
        className="drawer"
        aria-label="Menu"
        onCancel={(event) => {
          event.preventDefault();
          onClose();
        }}
        onClose={() => {
          if (open) onClose();
        }}
        onClick={(event) => {
          // A click on the backdrop lands on the dialog element itself.
          if (event.target === event.currentTarget) onClose();
        }}
        // Keys stay in the menu: the feed behind must not move on arrow or Page keys.
        onKeyDown={(event) => event.stopPropagation()}
      >
        <div className="drawer-panel">
          <div className="drawer-head">
            <span className="drawer-brand">
              <img src="/favicon.svg" alt="" width="28" height="28" />
              ShortCams
            </span>
            <button type="button" className="drawer-close" aria-label="Close menu" onClick={onClose}>
              <CloseIcon />
            </button>
          </div>

          {!auth && (
            <section className="drawer-promo" aria-label="For creators">
              <p className="drawer-promo-title">Are you a content creator?</p>
              <p className="drawer-promo-text">Promote your videos</p>
              <Link to="/register" className="btn btn-primary drawer-promo-cta" onClick={onClose}>
                Get started
              </Link>
            </section>
          )}

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
                  <button type="button" className="drawer-item" onClick={() => setRatePrompt(true)}>
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

          <footer className="drawer-footer">
            <ul className="drawer-pages">
              {FOOTER_PAGES.map(([slug, label]) => (
                <li key={slug}>
                  <Link to={`/page/${slug}`} onClick={onClose}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
            <div className="drawer-badges">
              <a href={SOCIAL_URL} target="_blank" rel="noopener" className="drawer-social">
                <XLogo />
                <span>Follow us</span>
              </a>
              <a href={RTA_URL} target="_blank" rel="noopener" className="drawer-rta">
                <img src="/rta.svg" alt="RTA: Restricted To Adults" width="88" height="31" />
              </a>
            </div>
            <p className="drawer-version">ShortCams {APP_VERSION} · 18+ only</p>
          </footer>
        </div>
      </dialog>
      {ratePrompt && (
        <SignupSheet
          title="Rate videos"
          text="Create a free account to rate videos and get better recommendations."
          onClose={() => {
            setRatePrompt(false);
            onClose();
          }}
        />
      )}
    </>
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

function XLogo() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L2 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.4 4.7H5.6z"
      />
    </svg>
  );
}

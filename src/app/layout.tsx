import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { type ComponentType, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { trackEvent } from '../api/tracking';
import { LIVE_CAMS_URL, WEBCAM_REVIEWS_URL } from '../config';
import { authAtom } from '../state/auth';
import { homeGenerationAtom } from '../state/home';
import { ageConfirmedAtom, currentVideoAtom } from '../state/preferences';
import { feedOnScreenAtom, focusMainContent } from '../state/skipLink';
import {
  CompassIcon,
  GlobeIcon,
  HomeIcon,
  MenuIcon,
  PlusIcon,
  StarIcon,
  TvIcon,
  UserIcon,
} from '../ui/icons';
import { NavLink } from '../ui/Link';
import { Spinner } from '../ui/Spinner';
import { ToastHost } from '../ui/Toast';
import { OfflineIndicator } from './OfflineIndicator';
import { ErrorBoundary } from './RouteError';
import { UpdateToast } from './UpdateToast';

// Both are off the first screen's path: the gate shows once per device, the menu when asked for.
const AgeGate = lazy(() => import('./AgeGate').then((m) => ({ default: m.AgeGate })));
const Drawer = lazy(() => import('./Drawer').then((m) => ({ default: m.Drawer })));

interface Tab {
  to: string;
  label: string;
  Icon: ComponentType;
}

const tabs: Tab[] = [
  { to: '/', label: 'Home', Icon: HomeIcon },
  { to: '/discover', label: 'Discover', Icon: CompassIcon },
  { to: '/upload', label: 'Upload', Icon: UploadTabIcon },
  { to: '/channels', label: 'Channels', Icon: TvIcon },
  { to: '/account', label: 'Account', Icon: UserIcon },
];

/** A Live Cams tab brought out by a touch tucks away again after this long. */
const LIVE_CAMS_OUT_MS = 4000;

function UploadTabIcon() {
  return (
    <span className="tab-upload-icon">
      <PlusIcon />
    </span>
  );
}

export function AppLayout() {
  const { pathname } = useLocation();
  // Spec: tapping the home tab while on it re-mounts the home screen (fresh feed from the top).
  const [homeGeneration, setHomeGeneration] = useAtom(homeGenerationAtom);
  const key = pathname === '/' ? `home-${homeGeneration}` : 'screen';
  const [menuOpen, setMenuOpen] = useState(false);
  // Mounted from the first open on, so that later opens (and the closing) need no loading.
  const [menuUsed, setMenuUsed] = useState(false);
  const clearSelection = useSetAtom(currentVideoAtom);
  const ageConfirmed = useAtomValue(ageConfirmedAtom);
  const feedOnScreen = useAtomValue(feedOnScreenAtom);
  const signedIn = useAtomValue(authAtom) !== null;
  // Spec §2's Live Cams tab floats over the feed's video. Over every other screen it tucks to a handle on
  // the left edge, so screens stay centred and nothing hides under it (app.css): a touch on the handle brings
  // the tab out (a mouse over it does too), the next opens the cams; it tucks again after a while.
  const [liveOut, setLiveOut] = useState<string | null>(null);
  const tucked = !feedOnScreen && liveOut !== pathname;
  const pointer = useRef('mouse');
  useEffect(() => {
    if (liveOut === null) return;
    const timer = window.setTimeout(() => setLiveOut(null), LIVE_CAMS_OUT_MS);
    return () => window.clearTimeout(timer);
  }, [liveOut]);
  const openMenu = () => {
    setMenuUsed(true);
    setMenuOpen(true);
  };

  // Nothing of an adult site shows before the 18+ answer; the terms and policy it links to may be read.
  if (!ageConfirmed && !pathname.startsWith('/page/')) {
    return (
      <Suspense fallback={<Spinner fill />}>
        <AgeGate />
      </Suspense>
    );
  }

  return (
    <div className="app">
      {/* First stop of the Tab key: past the sidebars and the navigation, straight to the video (or the
          screen's content). */}
      <button type="button" className="skip-link" onClick={focusMainContent}>
        {feedOnScreen ? 'Skip to video' : 'Skip to content'}
      </button>
      <OfflineIndicator />
      <main className="app-main" id="content" tabIndex={-1}>
        <ErrorBoundary resetKey={pathname}>
          <Suspense key={key} fallback={<Spinner fill />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>

      <a
        className={tucked ? 'live-cams is-tucked' : 'live-cams'}
        href={LIVE_CAMS_URL}
        target="_blank"
        rel="noopener"
        onPointerDown={(event) => {
          pointer.current = event.pointerType;
        }}
        onClick={(event) => {
          if (tucked && pointer.current !== 'mouse') {
            event.preventDefault();
            setLiveOut(pathname);
            return;
          }
          // Spec §9 event 7: the floating Live Cams button. Through the outbox, so an offline tap still counts.
          void trackEvent(7);
        }}
      >
        <span className="live-cams-label">Live Cams</span>
        <span className="live-dot" aria-hidden="true" />
      </a>

      <button
        type="button"
        className="menu-button"
        aria-label="Menu"
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        onClick={openMenu}
      >
        <MenuIcon />
      </button>
      {menuUsed && (
        <Suspense fallback={null}>
          <Drawer open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      )}

      {/* One navigation for every width: the phone's bottom tabs become a left rail from 1024 px, where the
          menu's own entries join them (app.css). */}
      <nav className="tabbar" aria-label="Main">
        <span className="rail-brand" aria-hidden="true">
          <img src="/favicon.svg" alt="" width="30" height="30" />
          <span className="rail-label">ShortCams</span>
        </span>
        {tabs.map(({ to, label, Icon }) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/'}
            className={({ isActive }) => (isActive ? 'tab active' : 'tab')}
            onClick={
              to === '/'
                ? pathname === '/'
                  ? () => setHomeGeneration((n) => n + 1)
                  : undefined
                : // Spec §2: any tab but home forgets the selected video.
                  () => clearSelection(null)
            }
          >
            <Icon />
            <span className="rail-label">{label}</span>
          </NavLink>
        ))}
        <span className="rail-extra rail-divider" aria-hidden="true" />
        {/* A guest rates after signing up (spec §2: /register is also the rating sign-up). */}
        <NavLink
          to={signedIn ? '/videos-rating/unrated' : '/register/user'}
          className={({ isActive }) => (isActive ? 'tab rail-extra active' : 'tab rail-extra')}
          onClick={() => clearSelection(null)}
        >
          <StarIcon />
          <span className="rail-label">Rate videos</span>
        </NavLink>
        <a className="tab rail-extra" href={WEBCAM_REVIEWS_URL} target="_blank" rel="noopener">
          <GlobeIcon />
          <span className="rail-label">Webcam Reviews</span>
        </a>
        <button
          type="button"
          className="tab rail-extra"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          onClick={openMenu}
        >
          <MenuIcon />
          <span className="rail-label">Menu</span>
        </button>
      </nav>

      <UpdateToast />
      <ToastHost />
    </div>
  );
}

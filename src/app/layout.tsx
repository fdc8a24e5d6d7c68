import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { trackEvent } from '../api/tracking';
import { LIVE_CAMS_URL } from '../config';
import { homeGenerationAtom } from '../state/home';
import { ageConfirmedAtom, currentVideoAtom } from '../state/preferences';
import { CompassIcon, HomeIcon, MenuIcon, PlusIcon, TvIcon, UserIcon } from '../ui/icons';
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
      <OfflineIndicator />
      <main className="app-main">
        <ErrorBoundary resetKey={pathname}>
          <Suspense key={key} fallback={<Spinner fill />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>

      <a
        className="live-cams"
        href={LIVE_CAMS_URL}
        target="_blank"
        rel="noopener"
        // Spec §9 event 7: the floating Live Cams button. Through the outbox, so an offline tap still counts.
        onClick={() => void trackEvent(7)}
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
        onClick={() => {
          setMenuUsed(true);
          setMenuOpen(true);
        }}
      >
        <MenuIcon />
      </button>
      {menuUsed && (
        <Suspense fallback={null}>
          <Drawer open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      )}

      <nav className="tabbar" aria-label="Main">
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
            <span>{label}</span>
          </NavLink>
        ))}
      </nav>

      <UpdateToast />
      <ToastHost />
    </div>
  );
}

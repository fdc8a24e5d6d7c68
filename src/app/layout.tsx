import { type ComponentType, Suspense, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { trackEvent } from '../api/tracking';
import { CompassIcon, HomeIcon, PlusIcon, TvIcon, UserIcon } from '../ui/icons';
import { Spinner } from '../ui/Spinner';
import { UpdateToast } from './UpdateToast';

const LIVE_CAMS_URL: string = import.meta.env.VITE_LIVE_CAMS_URL ?? 'https://example.com/live';

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
  const [homeGeneration, setHomeGeneration] = useState(0);
  const key = pathname === '/' ? `home-${homeGeneration}` : 'screen';

  return (
    <div className="app">
      <main className="app-main">
        <Suspense key={key} fallback={<Spinner fill />}>
          <Outlet />
        </Suspense>
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

      <nav className="tabbar" aria-label="Main">
        {tabs.map(({ to, label, Icon }) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/'}
            className={({ isActive }) => (isActive ? 'tab active' : 'tab')}
            onClick={to === '/' && pathname === '/' ? () => setHomeGeneration((n) => n + 1) : undefined}
          >
            <Icon />
            <span>{label}</span>
          </NavLink>
        ))}
      </nav>

      <UpdateToast />
    </div>
  );
}

import { type ComponentType, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { fetchDashboard, operatorSignOut } from '../../api/admin';
import type { Dashboard } from '../../contract/admin';
import { type IconProps, MoreIcon } from '../../ui/icons';
import { NavLink } from '../../ui/Link';
import { LogoutIcon } from '../../ui/more-icons';
import { Sheet } from '../../ui/Sheet';
import { Spinner } from '../../ui/Spinner';
import { type Counts, CountsContext } from './counts';
import { FlagIcon, GridIcon, IdCardIcon, InboxIcon, KeyIcon, ListIcon, UsersIcon } from './icons';
import { useConsole, useEndSession } from './session';

interface Section {
  to: string;
  label: string;
  Icon: ComponentType<IconProps>;
  /** The queue whose length the link shows. */
  queue?: 'review' | 'reports' | 'verifications';
  adminOnly?: boolean;
  /** On phones, in the bottom bar; the others are under More. */
  tab?: boolean;
}

const sections: Section[] = [
  { to: '/admin', label: 'Dashboard', Icon: GridIcon, tab: true },
  { to: '/admin/review', label: 'Review', Icon: InboxIcon, queue: 'review', tab: true },
  { to: '/admin/reports', label: 'Reports', Icon: FlagIcon, queue: 'reports', tab: true },
  { to: '/admin/identity', label: 'Identity', Icon: IdCardIcon, queue: 'verifications', tab: true },
  { to: '/admin/accounts', label: 'Accounts', Icon: UsersIcon },
  { to: '/admin/audit', label: 'Audit log', Icon: ListIcon },
  { to: '/admin/operators', label: 'Operators', Icon: KeyIcon, adminOnly: true },
];

const roleWords = { admin: 'Admin', moderator: 'Moderator' } as const;

/** The dashboard's figures, asked again at each change of screen and after each decision. */
function useCountsState(): Counts {
  const { call } = useConsole();
  const { pathname } = useLocation();
  const [state, setState] = useState<Omit<Counts, 'refresh'>>({ status: 'loading', dashboard: null });
  const generation = useRef(0);
  const refresh = useCallback(() => {
    const mine = ++generation.current;
    call(fetchDashboard).then(
      ({ data }) => {
        if (generation.current === mine) setState({ status: 'ready', dashboard: data });
      },
      (error: unknown) => {
        // The figures already shown stay: only the dashboard, which has nothing else, shows the failure.
        if (generation.current === mine)
          setState((s) => ({ ...s, status: s.dashboard ? 'ready' : 'error', error }));
      },
    );
  }, [call]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new screen is the moment to ask again.
  useEffect(refresh, [pathname, refresh]);
  return { ...state, refresh };
}

function CountBadge({
  id,
  dashboard,
  queue,
}: {
  id: string;
  dashboard: Dashboard | null;
  queue?: Section['queue'];
}) {
  const count = queue && dashboard ? dashboard[queue].count : 0;
  if (!count) return null;
  return (
    // Out of the link's name ('Review', whatever the count), read as its description instead.
    <span id={id} className="admin-nav-count" aria-hidden="true">
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}

/**
 * The console's frame. Laptops: a rail on the left with every section, queue lengths as badges, and the
 * operator with Sign out at its foot. Phones: the screen's own title bar on top and a bottom bar with the
 * dashboard and the three queues, the rest under More, all within the thumb's reach.
 */
export function ConsoleLayout() {
  const { session, isAdmin, call } = useConsole();
  const end = useEndSession();
  const counts = useCountsState();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const shown = sections.filter((s) => !s.adminOnly || isAdmin);
  const more = shown.filter((s) => !s.tab);
  const inMore = more.some((s) => pathname === s.to || pathname.startsWith(`${s.to}/`));
  const main = useRef<HTMLElement>(null);

  // A new screen starts at its top, and a keyboard or screen reader user starts there too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs at each change of screen.
  useEffect(() => {
    window.scrollTo(0, 0);
    setMenuOpen(false);
  }, [pathname]);

  const signOut = async () => {
    setSigningOut(true);
    // Whatever the server answers, this tab forgets the session: a sign-out must never fail here.
    await call(operatorSignOut).catch(() => undefined);
    end('signed-out');
  };

  const link = (section: Section, where: 'rail' | 'tab' | 'menu') => {
    const countId = `admin-count-${where}-${section.label.replace(/\W+/g, '-').toLowerCase()}`;
    const count = section.queue ? counts.dashboard?.[section.queue].count : 0;
    return (
      <NavLink
        key={section.to}
        to={section.to}
        end={section.to === '/admin'}
        className={`admin-nav-link is-${where}`}
        aria-describedby={count ? countId : undefined}
      >
        <section.Icon className="admin-nav-icon" />
        <span className="admin-nav-label">{section.label}</span>
        <CountBadge id={countId} dashboard={counts.dashboard} queue={section.queue} />
      </NavLink>
    );
  };

  const operator = (
    <div className="admin-operator">
      <span className="admin-operator-email">{session.operator.email}</span>
      <span className="admin-operator-role">{roleWords[session.operator.role]}</span>
    </div>
  );
  const signOutButton = (
    <button
      type="button"
      className="btn btn-ghost admin-sign-out"
      onClick={() => void signOut()}
      disabled={signingOut}
    >
      <LogoutIcon aria-hidden="true" />
      Sign out
    </button>
  );

  return (
    <CountsContext.Provider value={counts}>
      <div className="admin">
        <a className="admin-skip" href="#admin-main">
          Skip to content
        </a>
        <aside className="admin-rail">
          <p className="admin-brand">
            <span className="admin-brand-mark" aria-hidden="true">
              S
            </span>
            <span>
              ShortCams <span className="admin-brand-sub">Console</span>
            </span>
          </p>
          <nav className="admin-rail-nav" aria-label="Console">
            {shown.map((s) => link(s, 'rail'))}
          </nav>
          <div className="admin-rail-foot">
            {operator}
            {signOutButton}
          </div>
        </aside>
        <main id="admin-main" className="admin-main" ref={main} tabIndex={-1}>
          <Suspense
            fallback={
              <div className="admin-loading">
                <Spinner />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </main>
        <nav className="admin-tabbar" aria-label="Console">
          {shown.filter((s) => s.tab).map((s) => link(s, 'tab'))}
          <button
            type="button"
            className={`admin-nav-link is-tab${inMore ? ' active' : ''}`}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          >
            <MoreIcon className="admin-nav-icon" />
            <span className="admin-nav-label">More</span>
          </button>
        </nav>
        {menuOpen && (
          <Sheet title="More" onClose={() => setMenuOpen(false)} className="admin-menu">
            <nav aria-label="More sections" className="admin-menu-nav">
              {more.map((s) => link(s, 'menu'))}
            </nav>
            <div className="admin-menu-foot">
              {operator}
              {signOutButton}
            </div>
          </Sheet>
        )}
      </div>
    </CountsContext.Provider>
  );
}

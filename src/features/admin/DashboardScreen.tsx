import { type ComponentType, useEffect, useState } from 'react';
import { fetchAudit } from '../../api/admin';
import { errorText } from '../../api/errors';
import { type AuditAction, type AuditEntry, auditActions, type Dashboard } from '../../contract/admin';
import type { IconProps } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { ClockIcon } from '../../ui/more-icons';
import { useCounts } from './counts';
import { FlagIcon, IdCardIcon, InboxIcon, UsersIcon } from './icons';
import { Failed, Loading, Page, TimeAgo } from './parts';
import { useConsole } from './session';
import './screens.css';

const queues: {
  key: 'review' | 'reports' | 'verifications';
  title: string;
  to: string;
  Icon: ComponentType<IconProps>;
  unit: [string, string];
  none: string;
}[] = [
  {
    key: 'review',
    title: 'Uploads to review',
    to: '/admin/review',
    Icon: InboxIcon,
    unit: ['upload waits', 'uploads wait'],
    none: 'Nothing waits for review.',
  },
  {
    key: 'reports',
    title: 'Reported videos',
    to: '/admin/reports',
    Icon: FlagIcon,
    unit: ['video reported', 'videos reported'],
    none: 'No open reports.',
  },
  {
    key: 'verifications',
    title: 'Identity checks',
    to: '/admin/identity',
    Icon: IdCardIcon,
    unit: ['check waits', 'checks wait'],
    none: 'No identity check waits.',
  },
];

const modeWords: Record<Dashboard['uploadReview'], string> = {
  before: 'New uploads wait for review before they are public.',
  after: 'New uploads are public at once and still reviewed.',
};

/** /admin: how much waits in each queue and for how long, each a way into its queue. */
export function DashboardScreen() {
  const { status, dashboard, error, refresh } = useCounts();

  return (
    <Page
      title="Dashboard"
      lead="What waits for a decision, and for how long."
      actions={
        <button type="button" className="btn btn-ghost admin-small-btn" onClick={refresh}>
          Refresh
        </button>
      }
    >
      {status === 'loading' && !dashboard ? (
        <Loading />
      ) : status === 'error' || !dashboard ? (
        <Failed title="The figures did not load" error={error} onRetry={refresh} />
      ) : (
        <>
          <ul className="admin-cards" aria-label="Queues">
            {queues.map(({ key, title, to, Icon, unit, none }) => {
              const { count, oldestAt } = dashboard[key];
              return (
                <li key={key}>
                  <Link to={to} className={`admin-card admin-queue-card${count ? ' has-items' : ''}`}>
                    <span className="admin-card-icon" aria-hidden="true">
                      <Icon />
                    </span>
                    <h2 className="admin-card-title">{title}</h2>
                    <p className="admin-card-figure">
                      <span className="admin-card-count">{count}</span>{' '}
                      <span className="admin-card-unit">{count === 1 ? unit[0] : unit[1]}</span>
                    </p>
                    <p className="admin-card-note">
                      {count && oldestAt ? <TimeAgo iso={oldestAt} prefix="oldest " /> : none}
                    </p>
                  </Link>
                </li>
              );
            })}
          </ul>
          <div className="admin-dash-row">
            <Link to="/admin/accounts" className="admin-card admin-card-inline">
              <span className="admin-card-icon" aria-hidden="true">
                <UsersIcon />
              </span>
              <span>
                <h2 className="admin-card-title">Suspended accounts</h2>
                <p className="admin-card-note">
                  {dashboard.suspendedAccounts === 0
                    ? 'No account is suspended.'
                    : `${dashboard.suspendedAccounts} ${dashboard.suspendedAccounts === 1 ? 'account is' : 'accounts are'} suspended.`}
                </p>
              </span>
              <span className="admin-card-count is-small">{dashboard.suspendedAccounts}</span>
            </Link>
            <section className="admin-card admin-card-inline is-static" aria-labelledby="admin-mode">
              <span className="admin-card-icon" aria-hidden="true">
                <ClockIcon />
              </span>
              <span>
                <h2 id="admin-mode" className="admin-card-title">
                  Upload review
                </h2>
                <p className="admin-card-note">{modeWords[dashboard.uploadReview]}</p>
              </span>
            </section>
          </div>
          <RecentActivity />
        </>
      )}
    </Page>
  );
}

const targetWords: Record<string, string> = {
  video: 'video',
  user: 'account',
  verification: 'identity check',
  operator: 'operator',
};

/** The last few lines of the audit log: what the team decided while this operator was away. */
function RecentActivity() {
  const { call } = useConsole();
  const [state, setState] = useState<{ entries?: AuditEntry[]; error?: unknown }>({});

  useEffect(() => {
    let active = true;
    call((token) => fetchAudit(token, {})).then(
      (page) => active && setState({ entries: page.data.slice(0, 6) }),
      (error: unknown) => active && setState({ error }),
    );
    return () => {
      active = false;
    };
  }, [call]);

  return (
    <section className="admin-card admin-activity" aria-labelledby="admin-activity-title">
      <header className="admin-activity-head">
        <h2 id="admin-activity-title" className="admin-card-title">
          Latest in the audit log
        </h2>
        <Link to="/admin/audit">Open the audit log</Link>
      </header>
      {state.error !== undefined ? (
        <p className="admin-muted">{errorText(state.error)}</p>
      ) : !state.entries ? (
        <p className="admin-muted">Loading…</p>
      ) : state.entries.length === 0 ? (
        <p className="admin-muted">Nothing has been decided yet.</p>
      ) : (
        <ul className="admin-activity-list">
          {state.entries.map((entry) => {
            const title = typeof entry.detail?.title === 'string' ? entry.detail.title : null;
            return (
              <li key={entry.id}>
                <span className="admin-activity-what">
                  {auditActions[entry.action as AuditAction] ?? entry.action}
                  <span className="admin-muted">
                    {' '}
                    · {targetWords[entry.targetType] ?? entry.targetType} {entry.targetId}
                    {title ? ` “${title}”` : ''}
                  </span>
                </span>
                <span className="admin-activity-who admin-muted">
                  {entry.actor} · <TimeAgo iso={entry.at} />
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

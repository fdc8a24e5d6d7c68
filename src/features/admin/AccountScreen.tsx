import { useEffect, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { fetchAccount, suspendAccount, unsuspendAccount } from '../../api/admin';
import { errorText } from '../../api/errors';
import { type AccountDetail, suspendReasons, suspendSchema, unsuspendSchema } from '../../contract/admin';
import { TextAreaField, useForm } from '../../ui/form';
import { ChevronLeftIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { DecisionDialog, ReasonFields } from './DecisionDialog';
import {
  accountTypeWords,
  Badge,
  Facts,
  Failed,
  FlashLine,
  isConflict,
  Loading,
  Page,
  TimeAgo,
  type Tone,
  useFlash,
  VerificationBadge,
} from './parts';
import { useConsole } from './session';
import { formatDateTime } from './time';
import './accounts.css';

const videoStatusWords: Record<string, [string, Tone]> = {
  approved: ['Playable', 'ok'],
  uploaded: ['Uploaded', 'muted'],
  preprocess: ['Preparing', 'muted'],
  processing: ['Transcoding', 'muted'],
  rejected: ['Rejected', 'danger'],
  deleting: ['Deleting', 'muted'],
  error: ['Failed', 'danger'],
};
const reviewWords: Record<string, [string, Tone] | undefined> = {
  held: ['Held for review', 'warn'],
  open: ['Public, in review', 'info'],
  approved: ['Approved', 'ok'],
};

type State =
  | { status: 'loading' }
  | { status: 'ready'; id: number; account: AccountDetail }
  | { status: 'error'; id: number; error: unknown };

/** /admin/accounts/:id: one account, its latest videos, and its suspension (lifted by admins only). */
export function AccountScreen() {
  const { id = '' } = useParams();
  const { call, isAdmin } = useConsole();
  const [loaded, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [dialog, setDialog] = useState<'suspend' | 'lift' | null>(null);
  const { flash, show } = useFlash();
  const accountId = Number(id);
  // Back to the list as it was searched, when the account was opened from it.
  const from = (useLocation().state as { search?: unknown } | null)?.search;
  const backSearch = typeof from === 'string' && from.startsWith('?') ? from : '';
  // Another account's page (a link from this one) is not shown while this one loads.
  const state: State =
    loaded.status !== 'loading' && loaded.id === accountId ? loaded : { status: 'loading' };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the reload.
  useEffect(() => {
    let active = true;
    call((token) => fetchAccount(token, accountId)).then(
      ({ data }) => active && setState({ status: 'ready', id: accountId, account: data }),
      (error: unknown) => active && setState({ status: 'error', id: accountId, error }),
    );
    return () => {
      active = false;
    };
  }, [accountId, call, attempt]);

  const reload = () => setAttempt((n) => n + 1);
  const back = (
    <Link to={`/admin/accounts${backSearch}`} className="btn btn-ghost admin-small-btn">
      <ChevronLeftIcon aria-hidden="true" />
      Accounts
    </Link>
  );

  if (state.status !== 'ready')
    return (
      <Page title="Account" actions={back}>
        {state.status === 'loading' ? (
          <Loading />
        ) : (
          <Failed title="The account did not load" error={state.error} onRetry={reload} />
        )}
      </Page>
    );

  const { account } = state;
  const suspended = account.suspendedAt !== null;

  return (
    <Page title={account.name || account.username} lead={account.email} actions={back}>
      <FlashLine flash={flash} onDismiss={() => show(null)} />
      <div className="admin-account">
        <section className="admin-card admin-account-card" aria-labelledby="admin-account-about">
          <h2 id="admin-account-about" className="admin-subtitle">
            About
          </h2>
          <p className="admin-badges">
            <Badge tone="info">{accountTypeWords[account.type]}</Badge>
            <VerificationBadge status={account.verification} />
            {suspended && <Badge tone="danger">Suspended</Badge>}
          </p>
          <Facts
            items={[
              ['Username', account.username],
              ['Profile', `/${account.slug}`],
              ['Account id', String(account.id)],
              ['Joined', formatDateTime(account.createdAt)],
              ['Videos', String(account.videos)],
              ['Open reports', String(account.openReports)],
            ]}
          />
        </section>
        <section
          className={`admin-card admin-account-card${suspended ? ' is-suspended' : ''}`}
          aria-labelledby="admin-account-suspension"
        >
          <h2 id="admin-account-suspension" className="admin-subtitle">
            Suspension
          </h2>
          {suspended ? (
            <>
              <p>
                Suspended <TimeAgo iso={account.suspendedAt ?? ''} />: signed out, profile and videos hidden,
                no sign-in.
              </p>
              {account.suspensionReason && <p className="admin-quote">{account.suspensionReason}</p>}
              {isAdmin ? (
                <button type="button" className="btn btn-ghost" onClick={() => setDialog('lift')}>
                  Lift suspension
                </button>
              ) : (
                <p className="admin-muted">Only admins can lift a suspension.</p>
              )}
            </>
          ) : (
            <>
              <p className="admin-muted">
                Suspending signs the account out everywhere, hides its profile and videos, and stops it
                signing in. The owner gets an email with the reason.
              </p>
              <button type="button" className="btn btn-danger" onClick={() => setDialog('suspend')}>
                Suspend
              </button>
            </>
          )}
        </section>
      </div>
      <section aria-labelledby="admin-account-videos" className="admin-account-videos">
        <h2 id="admin-account-videos" className="admin-section-title">
          Latest videos
        </h2>
        {account.recentVideos.length === 0 ? (
          <p className="admin-muted">No videos.</p>
        ) : (
          <ul className="admin-video-grid">
            {account.recentVideos.map((video) => {
              const [statusWords, statusTone] = videoStatusWords[video.status] ?? [video.status, 'muted'];
              const review = reviewWords[video.review];
              return (
                <li key={video.id} className="admin-video-tile">
                  <div className="admin-video-poster">
                    {video.poster && <img src={video.poster} alt="" loading="lazy" />}
                  </div>
                  <p className="admin-video-title">{video.title || 'Untitled'}</p>
                  <p className="admin-badges">
                    <Badge tone={statusTone}>{statusWords}</Badge>
                    {review && <Badge tone={review[1]}>{review[0]}</Badge>}
                  </p>
                  <p className="admin-muted admin-video-date">
                    <TimeAgo iso={video.createdAt} /> · id {video.id}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {dialog === 'suspend' && (
        <SuspendDialog
          account={account}
          onClose={() => setDialog(null)}
          onDone={(text, tone) => {
            setDialog(null);
            show({ tone, text });
            reload();
          }}
        />
      )}
      {dialog === 'lift' && (
        <LiftDialog
          account={account}
          onClose={() => setDialog(null)}
          onDone={(text, tone) => {
            setDialog(null);
            show({ tone, text });
            reload();
          }}
        />
      )}
    </Page>
  );
}

type Done = (text: string, tone: 'ok' | 'error') => void;

function SuspendDialog({
  account,
  onClose,
  onDone,
}: {
  account: AccountDetail;
  onClose: () => void;
  onDone: Done;
}) {
  const { call } = useConsole();
  const form = useForm({
    schema: suspendSchema,
    initial: { reason: '', note: '' },
    onSubmit: async (input) => {
      try {
        await call((token) => suspendAccount(token, account.id, input));
        onDone(`Suspended ${account.name}. They are signed out everywhere.`, 'ok');
      } catch (error) {
        // Suspended by someone else meanwhile: the page shows how it stands now.
        if (!isConflict(error)) throw error;
        onDone(errorText(error), 'error');
      }
    },
  });
  return (
    <DecisionDialog
      title="Suspend this account"
      lead={`${account.name} (${account.email}) is signed out everywhere, their profile and videos are hidden, and they cannot sign in. They get an email with the reason.`}
      form={form}
      submitLabel="Suspend account"
      danger
      onClose={onClose}
    >
      <ReasonFields form={form} reasons={suspendReasons} noteLabel="Note to the account owner (optional)" />
    </DecisionDialog>
  );
}

function LiftDialog({
  account,
  onClose,
  onDone,
}: {
  account: AccountDetail;
  onClose: () => void;
  onDone: Done;
}) {
  const { call } = useConsole();
  const form = useForm({
    schema: unsuspendSchema,
    initial: { note: '' },
    onSubmit: async (input) => {
      try {
        await call((token) => unsuspendAccount(token, account.id, input.note));
        onDone(`Lifted the suspension of ${account.name}. They can sign in again.`, 'ok');
      } catch (error) {
        if (!isConflict(error)) throw error;
        onDone(errorText(error), 'error');
      }
    },
  });
  return (
    <DecisionDialog
      title="Lift the suspension"
      lead={`${account.name} can sign in again, and their profile and videos are back.`}
      form={form}
      submitLabel="Lift suspension"
      onClose={onClose}
    >
      <TextAreaField
        form={form}
        name="note"
        label="Note (optional)"
        hint="Why the suspension ends. Kept in the audit log."
        maxLength={2000}
        rows={3}
      />
    </DecisionDialog>
  );
}

import { useSetAtom } from 'jotai';
import { type ReactNode, useState } from 'react';
import { useOwnProfile } from '../../api/useOwnProfile';
import { messages, type OwnProfile } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { Link } from '../../ui/Link';
import { CheckIcon, ClockIcon, ShieldIcon } from '../../ui/more-icons';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import { Stepper } from './Stepper';
import { ValidationWizard } from './ValidationWizard';
import './verification.css';

const m = messages.verification;

/**
 * /account/settings/validation (spec §2, §4): the identity check of a creator. None or rejected: the wizard
 * (after a rejection, with the note that says so); pending: the spec's waiting text; approved: done.
 */
export function ValidationScreen() {
  const { profile, error, retry, update } = useOwnProfile();
  const showToast = useSetAtom(showToastAtom);
  // Sent from this screen: its fourth step, rather than the plain status a later visit shows.
  const [sentHere, setSentHere] = useState(false);

  let body: ReactNode;
  if (sentHere) {
    body = (
      <>
        <Stepper step={4} />
        <StatusCard tone="pending" title="Sent" text={m.pending} />
      </>
    );
  } else if (!profile) {
    body = error ? (
      <LoadFailed title="Couldn't load your profile" error={error} onRetry={retry} />
    ) : (
      <Spinner fill />
    );
  } else if (profile.type === 'user') {
    body = (
      <StatusCard
        tone="info"
        title="Only for creators"
        text="Models and channels verify their identity before they upload videos."
      />
    );
  } else if (profile.isVerified === 'approved') {
    body = <StatusCard tone="done" title="Verified" text={m.alreadyApproved} />;
  } else if (profile.isVerified === 'pending') {
    body = <StatusCard tone="pending" title="Request sent" text={m.pending} />;
  } else {
    body = (
      <ValidationWizard
        profile={profile}
        rejected={profile.isVerified === 'rejected'}
        onSent={() => {
          setSentHere(true);
          update({ ...profile, isVerified: 'pending' } satisfies OwnProfile);
          showToast(m.sent);
        }}
        onStale={retry}
      />
    );
  }

  return (
    <>
      <ScreenHeader title="Account validation" />
      <div className="screen-body verify-screen">{body}</div>
    </>
  );
}

/** Where the check stands, when there is nothing to fill in. */
export function StatusCard({
  tone,
  title,
  text,
}: {
  tone: 'pending' | 'done' | 'info';
  title: string;
  text: string;
}) {
  const Icon = tone === 'pending' ? ClockIcon : tone === 'done' ? CheckIcon : ShieldIcon;
  return (
    <section className={`verify-status is-${tone}`} aria-labelledby="verify-status-title">
      <span className="verify-status-icon" aria-hidden="true">
        <Icon />
      </span>
      <h2 id="verify-status-title" className="verify-status-title">
        {title}
      </h2>
      <p className="verify-status-text">{text}</p>
      <Link to="/account/settings" className="btn btn-ghost">
        Back to settings
      </Link>
    </section>
  );
}

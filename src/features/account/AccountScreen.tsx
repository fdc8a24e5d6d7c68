import { useAtomValue } from 'jotai';
import { type ReactNode, useState } from 'react';
import { useLocation } from 'react-router';
import { logOut, resendEmail } from '../../api/auth';
import { errorText } from '../../api/errors';
import { useOwnProfile } from '../../api/useOwnProfile';
import { messages, type OwnProfile, type UserType } from '../../contract';
import { authAtom } from '../../state/auth';
import { Avatar } from '../../ui/Avatar';
import { HeartIcon, PlusIcon, SlidersIcon, StarIcon, UserIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { type MenuEntry, MenuList } from '../../ui/MenuList';
import { ChartIcon, HelpIcon, LogoutIcon, ShieldIcon, VerifiedIcon } from '../../ui/more-icons';
import { LoadFailed } from '../../ui/StateMessage';
import './account.css';

const typeLabels: Record<UserType, string> = { user: 'Viewer', model: 'Creator', channel: 'Channel' };
const verificationLabels: Record<OwnProfile['isVerified'], string> = {
  approved: 'Verified',
  pending: 'Verification pending',
  rejected: 'Verification rejected',
  none: 'Not verified',
};

/**
 * /account (spec §2 'Account home'): who is signed in, then the way to everything the account has: the own
 * profile, upload and stats for creators, following and rating lists, settings, help, and log out. The menu
 * needs nothing but the stored sign-in, so it works (log out included) before the profile loads or offline.
 * `children`: a section the app puts under the header (the upload queue).
 */
export function AccountScreen({ children }: { children?: ReactNode }) {
  const auth = useAtomValue(authAtom);
  const { profile, error, retry } = useOwnProfile();
  const location = useLocation();
  const signedInWith = (location.state as { signedInWith?: unknown } | null)?.signedInWith;
  const type = profile?.type ?? auth?.userType ?? 'user';
  const creator = type !== 'user';

  const groups: { label: string; entries: MenuEntry[] }[] = [
    {
      label: 'Profile',
      entries: [
        {
          label: 'My profile',
          description: profile ? `@${profile.slug}` : 'How others see you',
          Icon: UserIcon,
          to: `/${encodeURIComponent(profile?.slug ?? String(auth?.userId ?? ''))}`,
        },
        ...(creator
          ? [{ label: 'Upload video', description: 'Post a new clip', Icon: PlusIcon, to: '/upload' }]
          : []),
        ...(type === 'model'
          ? [
              {
                label: 'Statistics',
                description: 'Views, likes and followers',
                Icon: ChartIcon,
                to: '/account/stats',
              },
            ]
          : []),
      ],
    },
    {
      label: 'Activity',
      entries: [
        { label: 'Following', description: 'Creators you follow', Icon: HeartIcon, to: '/account/following' },
        {
          label: 'Rate videos',
          description: 'Unrated and rated videos',
          Icon: StarIcon,
          to: '/videos-rating/unrated',
        },
      ],
    },
    {
      label: 'Settings and help',
      entries: [
        {
          label: 'Settings',
          description: 'Details, sex, password',
          Icon: SlidersIcon,
          to: '/account/settings',
        },
        ...(type === 'model'
          ? [{ label: 'Help', description: 'Discord, WhatsApp, email', Icon: HelpIcon, to: '/account/help' }]
          : []),
      ],
    },
  ];

  return (
    <div className="account">
      <header className="account-top">
        <h1 className="account-title">Account</h1>
      </header>
      <div className="account-body">
        {!profile && error ? (
          <LoadFailed
            compact
            className="account-card"
            title="Couldn't load your profile"
            error={error}
            onRetry={retry}
          />
        ) : (
          <ProfileCard profile={profile} type={type} />
        )}

        {signedInWith === 'password_reset' && (
          <div className="account-notice is-action" role="note">
            <p>You are signed in with your reset link. Set a new password now to log in with it next time.</p>
            <Link to="/account/settings/password" className="btn btn-primary account-notice-button">
              Set a new password
            </Link>
          </div>
        )}
        {signedInWith === 'verify_email' && (
          <p className="account-notice is-good" role="note">
            Your email is confirmed. Welcome to ShortCams!
          </p>
        )}
        {profile && creator && profile.isVerified !== 'approved' && <VerificationNotice profile={profile} />}
        {profile && !profile.emailVerified && signedInWith !== 'verify_email' && (
          <EmailNotice email={profile.email} />
        )}

        {children && <section className="account-section">{children}</section>}

        {groups.map((group, index) => (
          <section key={group.label} className="account-group" aria-labelledby={`account-group-${index}`}>
            <h2 id={`account-group-${index}`} className="account-group-title">
              {group.label}
            </h2>
            <MenuList entries={group.entries} />
          </section>
        ))}
        <LogoutRow />
      </div>
    </div>
  );
}

function ProfileCard({ profile, type }: { profile: OwnProfile | null; type: UserType }) {
  if (!profile) {
    return (
      <section className="account-card" aria-label="Signed in as" aria-busy="true">
        <div className="account-card-row">
          <span className="account-skeleton account-skeleton-avatar" />
          <div className="account-card-text">
            <span className="account-skeleton account-skeleton-line" />
            <span className="account-skeleton account-skeleton-line is-short" />
          </div>
        </div>
      </section>
    );
  }
  const creator = type !== 'user';
  return (
    <section className="account-card" aria-label="Signed in as">
      {profile.cover && <img className="account-card-cover" src={profile.cover} alt="" decoding="async" />}
      <div className="account-card-row">
        <Avatar src={profile.avatar} name={profile.name} size={72} live={profile.isLive === 1} />
        <div className="account-card-text">
          <p className="account-name">
            <span className="account-name-text">{profile.name}</span>
            {creator && profile.isVerified === 'approved' && (
              <span className="account-verified" role="img" aria-label="Verified">
                <VerifiedIcon />
              </span>
            )}
          </p>
          <p className="account-slug">@{profile.slug}</p>
          <p className="account-chips">
            <span className="account-chip">{typeLabels[type]}</span>
            {creator && (
              <span className={`account-chip is-${profile.isVerified}`}>
                {verificationLabels[profile.isVerified]}
              </span>
            )}
          </p>
        </div>
      </div>
    </section>
  );
}

/** Spec §4: what a creator who is not verified yet reads, and the way to the validation wizard. */
function VerificationNotice({ profile }: { profile: OwnProfile }) {
  if (profile.isVerified === 'pending') {
    return (
      <p className="account-notice" role="note">
        {messages.verification.pending}
      </p>
    );
  }
  const rejected = profile.isVerified === 'rejected';
  return (
    <div className={`account-notice is-action${rejected ? ' is-error' : ''}`} role="note">
      <p>{rejected ? messages.upload.verificationRejected : messages.upload.verifyPrompt}</p>
      <Link to="/account/settings/validation" className="btn btn-primary account-notice-button">
        <ShieldIcon />
        Verify identity
      </Link>
    </div>
  );
}

/** An address not confirmed yet: say so, and send the link again on request. */
function EmailNotice({ email }: { email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const resend = async () => {
    setState('sending');
    setFailure(null);
    try {
      await resendEmail(email);
      setState('sent');
    } catch (error) {
      setFailure(errorText(error, { network: messages.auth.registerNetwork }));
      setState('idle');
    }
  };
  return (
    <div className="account-notice is-action" role="note">
      <p>
        Confirm your email: open the link we sent to <strong>{email}</strong>.
      </p>
      <p className="account-notice-status" role="status">
        {state === 'sent' ? 'A new link is on its way.' : (failure ?? '')}
      </p>
      {state !== 'sent' && (
        <button
          type="button"
          className="btn btn-ghost account-notice-button"
          disabled={state === 'sending'}
          aria-busy={state === 'sending'}
          onClick={() => void resend()}
        >
          Send the link again
        </button>
      )}
    </div>
  );
}

/** Log out (spec §4): the server revokes the token when it can; the device forgets it and reloads anyway. */
function LogoutRow() {
  const [leaving, setLeaving] = useState(false);
  return (
    <MenuList
      label="Session"
      entries={[
        {
          label: leaving ? 'Logging out…' : 'Log out',
          Icon: LogoutIcon,
          tone: 'danger',
          onClick: () => {
            if (leaving) return;
            setLeaving(true);
            void logOut();
          },
        },
      ]}
    />
  );
}

import { type ReactNode, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http';
import { useOwnProfile } from '../../api/useOwnProfile';
import type { Gender, OwnProfile } from '../../contract';
import { expireSession } from '../../state/auth';
import { ScreenHeader } from '../../ui/ScreenHeader';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import './settings.css';

export const SETTINGS_PATH = '/account/settings';

/** Spec §2: models and channels are creators; a plain user has fewer settings. */
export const isCreator = (profile: OwnProfile) => profile.type !== 'user';

export const genderLabels: Record<Gender, string> = { m: 'Male', t: 'Trans' };

/**
 * A token the server no longer knows (revoked by a password change elsewhere, expired) ends the session
 * here too: the login wrapper then sends the viewer to /login and back afterwards.
 */
export function endSessionOn401(error: unknown) {
  if (error instanceof ApiError && error.status === 401) expireSession();
}

/** After a save: back to the settings list, where the new value shows (or to it, on a page opened directly). */
export function useBackToSettings() {
  const navigate = useNavigate();
  return () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate(SETTINGS_PATH, { replace: true });
  };
}

/**
 * A settings page: its header, and its body once the own profile is known (at once from the last answer,
 * else after GET /v1/profile), with a retry when it cannot be loaded.
 */
export function SettingsPage({
  title,
  children,
}: {
  title: string;
  children: (profile: OwnProfile, update: (profile: OwnProfile) => void) => ReactNode;
}) {
  const { profile, error, retry, update } = useOwnProfile();
  useEffect(() => endSessionOn401(error), [error]);
  return (
    <>
      <ScreenHeader title={title} />
      {profile ? (
        <div className="screen-body settings-body">{children(profile, update)}</div>
      ) : error ? (
        <LoadFailed
          title="Couldn't load your account"
          error={error}
          onRetry={retry}
          className="screen-body"
        />
      ) : (
        <Spinner fill />
      )}
    </>
  );
}

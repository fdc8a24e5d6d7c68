import { useSetAtom } from 'jotai';
import { lazy, Suspense, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { profilePanelOpenAtom } from '../state/panel';
import { Spinner } from '../ui/Spinner';

const ProfileScreen = lazy(() =>
  import('../features/profile/ProfileScreen').then((m) => ({ default: m.ProfileScreen })),
);

/**
 * A creator's profile sliding in over the feed. Closing is going back (the system gesture, the back button,
 * Escape), which returns to the feed exactly as it was.
 */
export function ProfilePanel() {
  const setOpen = useSetAtom(profilePanelOpenAtom);
  const navigate = useNavigate();
  useEffect(() => {
    setOpen(true);
    return () => setOpen(false);
  }, [setOpen]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') navigate(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  return (
    <div className="profile-panel" role="dialog" aria-modal="true" aria-label="Profile">
      <Suspense fallback={<Spinner fill />}>
        <ProfileScreen />
      </Suspense>
    </div>
  );
}

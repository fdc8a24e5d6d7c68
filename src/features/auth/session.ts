import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { fetchOwnProfile } from '../../api/profile';
import type { LoginResponse } from '../../contract';
import { signIn } from '../../state/auth';
import { ownProfileAtom } from '../../state/ownProfile';
import { preferencesCategoryAtom } from '../../state/preferences';

/** A sign-in must not wait long for the profile it only uses to set the feed's preference. */
const PROFILE_WAIT_MS = 5000;

/**
 * Signs in (the form, or a mailed link), then reads the account once: the account screen opens with it at
 * once, and the gender preference stored with the account becomes this device's, so the feed follows the
 * account. A profile that cannot be read changes nothing: the sign-in itself has worked.
 */
export function useFinishSignIn() {
  const setProfile = useSetAtom(ownProfileAtom);
  const setCategory = useSetAtom(preferencesCategoryAtom);
  return useCallback(
    async (answer: LoginResponse, remember: boolean) => {
      signIn(answer, remember);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), PROFILE_WAIT_MS);
      try {
        const profile = await fetchOwnProfile(controller.signal);
        setProfile(profile);
        if (profile.preference) setCategory(profile.preference);
      } catch {
        // Offline, slow or refused: the device keeps its own preference.
      } finally {
        clearTimeout(timer);
      }
    },
    [setProfile, setCategory],
  );
}

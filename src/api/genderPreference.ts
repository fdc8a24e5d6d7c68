import { atom } from 'jotai';
import type { GenderPreference } from '../contract';
import { authAtom } from '../state/auth';
import { ownProfileAtom } from '../state/ownProfile';
import { preferencesCategoryAtom } from '../state/preferences';
import { savePreference } from './profile';

/**
 * A stored preferencesCategory as one of the three choices the app offers: both letters in any order are
 * 'm,t', 't' alone is Trans, anything else (the default, or a value of an older version) is Male.
 */
export function genderPreferenceOf(category: string): GenderPreference {
  const letters = new Set(category.split(',').map((s) => s.trim()));
  if (letters.has('m') && letters.has('t')) return 'm,t';
  return letters.has('t') ? 't' : 'm';
}

// Saves go one after the other, so the account ends on the last choice however fast the viewer taps.
let queue: Promise<unknown> = Promise.resolve();
let latest: GenderPreference | undefined;

/**
 * The genders home and discover show (spec §3 preferencesCategory, default 'm'). Setting it changes this
 * device at once; for a signed-in viewer it is also kept on the account (POST /v1/profile `preference`), so
 * another device follows after its sign-in. A failed save changes nothing here: the device keeps the choice.
 */
export const genderPreferenceAtom = atom(
  (get) => genderPreferenceOf(get(preferencesCategoryAtom)),
  (get, set, next: GenderPreference) => {
    set(preferencesCategoryAtom, next);
    if (!get(authAtom)) return;
    latest = next;
    queue = queue
      .then(async () => {
        // A newer choice is queued behind this one: only that one needs to reach the account.
        if (latest !== next) return;
        const answer = await savePreference(next);
        if (latest === next && get(ownProfileAtom)?.id === answer.user.id) set(ownProfileAtom, answer.user);
      })
      .catch(() => undefined);
  },
);

import { persistedAtom } from './persisted';

// Spec §3, stored on the device and shared by every screen.
export const preferenceAutoscrollAtom = persistedAtom('preferenceAutoscroll', false);
export const preferenceSelectedTagsAtom = persistedAtom('preferenceSelectedTags', []);
export const preferencesCategoryAtom = persistedAtom('preferencesCategory', 'm');
export const likedVideosAtom = persistedAtom('likedVideos', []);
export const tutorialStepAtom = persistedAtom('tutorialStep', 0);
export const isMutedAtom = persistedAtom('isMuted', true);
export const currentVideoAtom = persistedAtom('currentVideo', null);

/** Spec §9 minimum age 18: asked once per device, before anything else is shown. */
export const ageConfirmedAtom = persistedAtom('ageConfirmed', false);
/** The tunnel buffer's setting (src/offline/tunnel); null is the default for this browser. */
export const keepOfflineAtom = persistedAtom('keepOffline', null);

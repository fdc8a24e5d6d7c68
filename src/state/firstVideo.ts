// The first video of a page load shows its first frame (the feed says so, FeedPlayer.tsx in
// src/features/feed/player). Until then whatever can wait does, so that on a slow network it never shares
// the bandwidth with that video's playlist and segments (issue 17): /ads.json, the service worker's precache.

let resolveReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  resolveReady = resolve;
});

export function markFirstVideoReady() {
  resolveReady();
}

/** How long what waits for the first video waits at most. */
const FIRST_VIDEO_WAIT_MS = 10_000;

/**
 * Resolves once the first video shows its first frame, or after `maxWaitMs`: a screen without video, an empty
 * feed or a broken file must not hold back what waits for it.
 */
export function afterFirstVideo(maxWaitMs = FIRST_VIDEO_WAIT_MS): Promise<void> {
  return Promise.race([ready, new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs))]);
}

// The first video of a page load can play (the feed says so, src/features/feed/player/FeedPlayer.tsx). Until
// then whatever can wait does, so that on a slow network it never shares the bandwidth with that video's
// playlist and segments (issue 17): /ads.json, the service worker's precache.

let resolveReady: () => void = () => undefined;
const ready = new Promise<void>((resolve) => {
  resolveReady = resolve;
});

export function markFirstVideoReady() {
  resolveReady();
}

/**
 * Resolves once the first video can play, or after `maxWaitMs`: a screen without video, an empty feed or a
 * broken file must not hold back what waits for it.
 */
export function afterFirstVideo(maxWaitMs: number): Promise<void> {
  return Promise.race([ready, new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs))]);
}

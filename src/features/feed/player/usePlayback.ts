import { type RefObject, useEffect } from 'react';

/** Long enough for the next video to have started, short enough to be done before a viewer swipes back. */
const REWIND_DELAY_MS = 600;
/**
 * Where a loaded video counts as at its start: hls.js leaves a fresh one a few hundredths in (the first
 * frame's timestamp), and seeking from there to 0 would cost what skipping the seek saves.
 */
const AT_START_S = 0.25;

/**
 * What the slot's <video> does as the feed moves: the current video starts from the top (autoplay may be
 * refused, which `onRefused` shows as paused), the others pause; a sheet or the profile panel holds it where
 * it is; each tap on the stage toggles it.
 */
export function usePlayback(
  ref: RefObject<HTMLVideoElement | null>,
  {
    active,
    held,
    tapSignal,
    videoId,
    adSrc,
    onRefused,
  }: {
    active: boolean;
    held: boolean;
    tapSignal: number;
    videoId: number | undefined;
    /** An ad that ends hands the element back to the video, which must start again. */
    adSrc: string | null;
    onRefused: () => void;
  },
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: an ad that ends hands the element back to the video, which must start again.
  useEffect(() => {
    const element = ref.current;
    if (!element || videoId === undefined) return;
    // Every video starts from the top. The rewind happens a moment after a video leaves the screen, not as
    // it arrives: a seek, even to where the video already is, drops it to "metadata only" until the seek
    // completes (100 to 200 ms measured), which would stand between a swipe and the next video's first
    // frame; and right at the swipe the decoder is busy starting the next video.
    if (active) {
      if (element.currentTime > AT_START_S) element.currentTime = 0;
      // Autoplay may be refused (power saving); the paused state then shows the play hint.
      void element.play().catch(onRefused);
      return;
    }
    element.pause();
    if (element.currentTime <= AT_START_S) return;
    const rewind = window.setTimeout(() => {
      element.currentTime = 0;
    }, REWIND_DELAY_MS);
    return () => window.clearTimeout(rewind);
  }, [active, videoId, adSrc]);

  useEffect(() => {
    const element = ref.current;
    if (!element || !active) return;
    if (held) element.pause();
    else void element.play().catch(() => undefined);
  }, [held, active, ref]);

  useEffect(() => {
    if (tapSignal === 0) return;
    const element = ref.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => undefined);
    else element.pause();
  }, [tapSignal, ref]);
}

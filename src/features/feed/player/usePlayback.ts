import { type RefObject, useEffect } from 'react';

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
    if (active) {
      element.currentTime = 0;
      // Autoplay may be refused (power saving); the paused state then shows the play hint.
      void element.play().catch(onRefused);
    } else {
      element.pause();
    }
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

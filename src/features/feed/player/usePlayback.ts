import { type RefObject, useEffect, useRef } from 'react';

/**
 * Where a video's first frame is. Through hls.js a video's timeline can begin a frame or two before its first
 * frame (the encoder's B-frame delay: 67 ms for the demo clips); played from 0, the clock runs through that
 * gap before a new frame shows, about 70 ms of every swipe. A gap of half a second or more is left alone.
 */
export function firstFrameTime(video: HTMLVideoElement): number {
  const start = video.buffered.length > 0 ? video.buffered.start(0) : 0;
  return start > 0 && start < 0.5 ? start : 0;
}

/** A slot buffering ahead waits at its first frame, so the swipe that brings it starts without a seek. */
export function holdAtFirstFrame(video: HTMLVideoElement) {
  const start = firstFrameTime(video);
  if (video.paused && video.currentTime === 0 && start > 0) video.currentTime = start;
}

/**
 * Calls `then` once the video's first frame is on screen. 'playing' and 'canplay' come earlier: Chromium's
 * own HLS player reports both after the first segment and, on a slow network, shows its first frame only
 * once the second has arrived (2 s later on Slow 4G), so whatever the feed started on them took that
 * segment's bandwidth. Where frames are not reported (no requestVideoFrameCallback), 'playing' it is.
 */
export function whenFrameShown(video: HTMLVideoElement, then: () => void) {
  if ('requestVideoFrameCallback' in video) video.requestVideoFrameCallback(() => then());
  else then();
}

/**
 * Videos the viewer paused (a tap, the system's pause): a start put off until the source can play must not
 * undo that. An element whose play() was interrupted by its load is already paused, so a pause() then fires
 * no event to notice it by.
 */
const pausedByViewer = new WeakSet<HTMLVideoElement>();

/** Elements that play on from where they are when their slot starts them: index.html's, taken over playing. */
const carriedOn = new WeakSet<HTMLVideoElement>();

/** The next start of `video` on screen goes on from where it is instead of from its first frame. */
export function carryOn(video: HTMLVideoElement) {
  carriedOn.add(video);
}

/** The viewer's pause, which a pending late start honours. */
export function viewerPause(video: HTMLVideoElement) {
  pausedByViewer.add(video);
  video.pause();
}

/** The viewer's play: a later late start is theirs again. */
export function viewerPlay(video: HTMLVideoElement): Promise<void> {
  pausedByViewer.delete(video);
  return video.play();
}

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
    onDeferred,
  }: {
    active: boolean;
    held: boolean;
    tapSignal: number;
    videoId: number | undefined;
    /** An ad that ends hands the element back to the video, which must start again. */
    adSrc: string | null;
    onRefused: () => void;
    /**
     * The start waits for the source to load. The element is paused again by that load, without a 'pause'
     * or 'waiting' event (with hls.js, for one), so this is the one sign that the video is on its way.
     */
    onDeferred: () => void;
  },
) {
  // A start put off until the source can play must not override a sheet opened meanwhile.
  const heldRef = useRef(held);
  heldRef.current = held;
  // biome-ignore lint/correctness/useExhaustiveDependencies: an ad that ends hands the element back to the video, which must start again.
  useEffect(() => {
    const element = ref.current;
    if (!element || videoId === undefined) return;
    if (active) {
      pausedByViewer.delete(element);
      // A seek, even to where it already is, drops the buffered next video to HAVE_METADATA until it ends:
      // only a video that has played (one come back to) is rewound.
      const start = firstFrameTime(element);
      if (!carriedOn.delete(element) && element.currentTime !== start) element.currentTime = start;
      // Autoplay may be refused (power saving); the paused state then shows the play hint. A slot whose
      // source comes only now (it waited for the video on screen, or for the tunnel buffer) sees its play()
      // interrupted by that load: it is not refused, and starts once it can.
      let cancelled = false;
      const retry = () => {
        if (!cancelled && !heldRef.current && !pausedByViewer.has(element))
          void element.play().catch(onRefused);
      };
      const restartWhenReady = () => {
        if (cancelled) return;
        element.addEventListener('canplay', retry, { once: true });
        onDeferred();
      };
      void element.play().catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') restartWhenReady();
        else onRefused();
      });
      // A source loaded anew while the video is on screen pauses it without a 'pause' event, and a play()
      // that had already settled has no rejection to retry on. hls.js does that: loadSource on an attached
      // player re-attaches a fresh MediaSource. Seen after the 30th swipe of feed-routes.spec (1 run in 3 to
      // 6 here): the element's source was emptied and loaded again 40 ms after play(), and the video stayed
      // at 0:00. Each new load on screen starts it again once it can play.
      element.addEventListener('emptied', restartWhenReady);
      return () => {
        cancelled = true;
        element.removeEventListener('emptied', restartWhenReady);
        element.removeEventListener('canplay', retry);
      };
    }
    element.pause();
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
    if (element.paused) void viewerPlay(element).catch(() => undefined);
    else viewerPause(element);
  }, [tapSignal, ref]);
}

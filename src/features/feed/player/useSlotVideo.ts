import { type RefCallback, type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { takeBootVideo } from '../../../api/boot';
import { useEffectEvent } from '../../../state/effectEvent';
import { carryOn } from './usePlayback';

type VideoEvent = 'play' | 'playing' | 'loadeddata' | 'pause' | 'waiting' | 'ended' | 'error';

interface SlotVideoOptions {
  /**
   * Set on the slot on screen as the feed mounts, with the source it plays first: if index.html's boot
   * script already started that very source, the slot takes its element over instead of making one (and
   * any other boot element is stopped). The other slots leave it alone.
   */
  boot?: { src: string | null };
  poster: string | undefined;
  muted: boolean;
  loop: boolean;
  preload: 'auto' | 'metadata';
  on: Partial<Record<VideoEvent, (video: HTMLVideoElement) => void>>;
}

const EVENTS: VideoEvent[] = ['play', 'playing', 'loadeddata', 'pause', 'waiting', 'ended', 'error'];

/**
 * A feed slot's <video>, made here rather than rendered by React: the first slot of a page load takes over
 * the element index.html's boot script set loading before any of the app's code had arrived (issue 17: on
 * Fast 4G the first segment was asked for 0.5 s after the page, behind the app's code and React's first
 * render), and React cannot adopt an element it did not create. `host` goes on an empty element the video
 * lives in; `ref` is the video, set before any effect of the slot or its children runs.
 */
export function useSlotVideo({ boot, poster, muted, loop, preload, on }: SlotVideoOptions): {
  host: RefCallback<HTMLDivElement>;
  ref: RefObject<HTMLVideoElement | null>;
} {
  const ref = useRef<HTMLVideoElement | null>(null);
  // Decided once, as the slot mounts.
  const bootAtMount = useRef(boot);

  const host = useCallback<RefCallback<HTMLDivElement>>((node) => {
    if (!node) return;
    // Kept across a re-attach (StrictMode runs ref callbacks twice in development): one element per slot.
    const claim = bootAtMount.current;
    if (!ref.current) {
      const adopted = claim && takeBootVideo(claim.src);
      // Playing on screen already (a phone, index.html's stage): it goes on from where it is.
      if (adopted && !adopted.paused) carryOn(adopted);
      ref.current = adopted || document.createElement('video');
    }
    const video = ref.current;
    video.className = 'feed-video';
    video.setAttribute('playsinline', '');
    node.append(video);
    return () => video.remove();
  }, []);

  useLayoutEffect(() => {
    const video = ref.current;
    if (!video) return;
    // Before the source is set and play() is called (both in passive effects), as React would set them.
    video.muted = muted;
    video.loop = loop;
    video.preload = preload;
    if (poster) video.poster = poster;
    else video.removeAttribute('poster');
  }, [muted, loop, preload, poster]);

  const dispatch = useEffectEvent((type: VideoEvent, video: HTMLVideoElement) => on[type]?.(video));
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const listeners = EVENTS.map((type) => [type, () => dispatch(type, video)] as const);
    for (const [type, listener] of listeners) video.addEventListener(type, listener);
    // An element that started before the app (the boot script's) told no one: the slot hears it now.
    if (!video.paused) {
      dispatch('play', video);
      if (video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) dispatch('playing', video);
    }
    return () => {
      for (const [type, listener] of listeners) video.removeEventListener(type, listener);
    };
  }, []);

  return { host, ref };
}

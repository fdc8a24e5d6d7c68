import type Hls from 'hls.js';
import { type RefObject, useEffect, useRef } from 'react';
import { useEffectEvent } from '../../../state/effectEvent';

const HLS_MIME = 'application/vnd.apple.mpegurl';

let nativeHls: boolean | undefined;
/**
 * Whether the browser's own player plays HLS; elsewhere hls.js does. The two fetch differently: the browser's
 * player reads with range requests that never use the HTTP cache (measured in Chromium: every one went to the
 * network again, a second visit's too), hls.js reads through it.
 */
export function playsHlsNatively(): boolean {
  nativeHls ??= document.createElement('video').canPlayType(HLS_MIME) !== '';
  return nativeHls;
}

type HlsModule = typeof import('hls.js');
let hlsModule: Promise<HlsModule> | undefined;
// One download for all three slots, and only for browsers without native HLS.
const loadHls = () => {
  hlsModule ??= import('hls.js').catch((error: unknown) => {
    // Offline the chunk may not load (it is not precached); the next attempt must try again.
    hlsModule = undefined;
    throw error;
  });
  return hlsModule;
};

/**
 * Points a recycled slot's <video> at `src` without starting it: the slot below the current one buffers
 * its video ahead so a swipe starts it at once. One hls.js instance per slot lives as long as the slot and
 * is re-pointed with loadSource, so a swipe never tears down and rebuilds the media pipeline.
 */
export function useSlotSource(
  ref: RefObject<HTMLVideoElement | null>,
  src: string | null,
  onFail: () => void,
  /** A new number re-points the slot at the same source (a retry after a failure). */
  attempt = 0,
) {
  const fail = useEffectEvent(onFail);
  const hlsRef = useRef<Hls | null>(null);
  const lastAttempt = useRef(attempt);

  useEffect(
    () => () => {
      hlsRef.current?.destroy();
      hlsRef.current = null;
    },
    [],
  );

  // A new `attempt` loads the same source again.
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (!src) {
      hlsRef.current?.stopLoad();
      video.removeAttribute('src');
      // Releases the connection and decoder the previous video still holds.
      video.load();
      return;
    }
    // Chromium's own HLS player starts a video's clock only once its second segment is in, unless a frame
    // callback is waiting while it loads: then its first frame shows after the first segment. Measured on
    // Fast 4G with a bare autoplaying <video>: playing 1.0-1.1 s after the page without one, 0.7 s with.
    // Asked for at each new source here, and by index.html's boot script for the element it starts.
    video.requestVideoFrameCallback?.(() => undefined);
    const retry = attempt !== lastAttempt.current;
    lastAttempt.current = attempt;
    let cancelled = false;
    const isPlaylist = /\.m3u8(?:$|[?#])/i.test(src);
    if (!isPlaylist || playsHlsNatively()) {
      // Already loading it (the boot script's element, taken over by the first slot): setting it again
      // would throw away what has arrived and start over.
      if (!retry && video.getAttribute('src') === src) return;
      video.src = src;
      return;
    }
    loadHls().then(
      ({ default: HlsPlayer }) => {
        if (cancelled) return;
        if (!HlsPlayer.isSupported()) {
          fail();
          return;
        }
        let hls = hlsRef.current;
        if (!hls) {
          hls = new HlsPlayer({
            // Short clips, not live: low-latency mode only adds requests.
            lowLatencyMode: false,
            // No point fetching 1080p for a 390 px wide phone player.
            capLevelToPlayerSize: true,
            // The lowest rendition first (listed first in the master playlist, where native HLS starts too):
            // the first frame comes after the smallest first segment, and the estimate climbs from there.
            startLevel: 0,
            // Spec §9: about 30 s ahead, and little kept behind, to spare mobile data and memory.
            maxBufferLength: 30,
            backBufferLength: 10,
          });
          const own = hls;
          hls.on(HlsPlayer.Events.ERROR, (_event, data) => {
            if (!data.fatal) return;
            // A fatal error leaves the instance unusable: the slot's next source gets a fresh one.
            own.destroy();
            if (hlsRef.current === own) hlsRef.current = null;
            fail();
          });
          hls.attachMedia(video);
          hlsRef.current = hls;
        }
        hls.loadSource(src);
      },
      () => {
        if (!cancelled) fail();
      },
    );
    return () => {
      cancelled = true;
    };
  }, [ref, src, attempt]);
}

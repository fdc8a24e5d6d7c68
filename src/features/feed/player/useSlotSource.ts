import type Hls from 'hls.js';
import type { LoadPolicy, RetryConfig } from 'hls.js';
import { type RefObject, useEffect, useRef } from 'react';
import { useEffectEvent } from '../../../state/effectEvent';
import { runningDry } from './bufferAhead';

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
 * hls.js gives up on a request after a few tries, and counts "no answer" (status 0) as final unless the
 * browser says it is offline: a tunnel, a dead Wi-Fi or a restarting server then killed the video on screen
 * although seconds of it were buffered (issue 35). Here a request that got no answer (or timed out) is tried
 * again for as long as the slot lives, every few seconds, so playback goes on from the buffer and resumes by
 * itself when bytes flow again. A 4xx answer (a video deleted meanwhile) still fails at once.
 */
const PATIENT_TRIES = 1_000_000;
const patientRetry = (retryDelayMs: number): RetryConfig => ({
  maxNumRetry: PATIENT_TRIES,
  retryDelayMs,
  maxRetryDelayMs: 3_000,
  shouldRetry: (config, count, isTimeout, response, retry) =>
    retry || ((isTimeout || (response?.code ?? 0) === 0) && count < (config?.maxNumRetry ?? 0)),
});
const patient = (maxTimeToFirstByteMs: number, maxLoadTimeMs: number): LoadPolicy => ({
  default: {
    maxTimeToFirstByteMs,
    maxLoadTimeMs,
    timeoutRetry: patientRetry(0),
    errorRetry: patientRetry(1_000),
  },
});

export interface SlotSourceOptions {
  /** A new number re-points the slot at the same source (a retry after a failure). */
  attempt?: number;
  /**
   * Start on the lowest rendition only: the video is kept on the device (src/offline/tunnel) and the link is
   * not known to answer, so a higher one could hang on the network while the kept one plays from the device.
   * Read when a source is loaded.
   */
  startLow?: boolean;
  /** Hold a loaded video on its lowest rendition from now on: it is kept, and the link is down. */
  holdLow?: boolean;
  /**
   * The lowest rendition is on the device: a video that runs dry while fetching a higher one drops to it at
   * once instead of waiting on a request that may hang for seconds (a tunnel's first moments).
   */
  keptLow?: boolean;
  /**
   * Play through hls.js even where the browser plays HLS itself: its requests surely reach the service
   * worker, which answers a kept video from the device (a native player's may not: Safari's do not).
   */
  preferHlsJs?: boolean;
  /** The video ran dry, or a media request of it went unanswered: the link may be down. */
  onStall?: () => void;
}

/**
 * Points a recycled slot's <video> at `src` without starting it: the slot below the current one buffers
 * its video ahead so a swipe starts it at once. One hls.js instance per slot lives as long as the slot and
 * is re-pointed with loadSource, so a swipe never tears down and rebuilds the media pipeline.
 */
export function useSlotSource(
  ref: RefObject<HTMLVideoElement | null>,
  src: string | null,
  onFail: () => void,
  {
    attempt = 0,
    startLow = false,
    holdLow = false,
    keptLow = false,
    preferHlsJs = false,
    onStall,
  }: SlotSourceOptions = {},
) {
  const fail = useEffectEvent(onFail);
  const stall = useEffectEvent(() => onStall?.());
  const startLowRef = useRef(startLow);
  startLowRef.current = startLow;
  const keptLowRef = useRef(keptLow);
  keptLowRef.current = keptLow;
  // Read when a source is set, never a reason to set it again: a video kept while it plays goes on in the
  // player it started in.
  const preferHlsJsRef = useRef(preferHlsJs);
  preferHlsJsRef.current = preferHlsJs;
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
    // Already loading it (the boot script's element, taken over by the first slot): setting it again, or
    // handing it to another player, would throw away what has arrived and start over.
    if (!retry && video.getAttribute('src') === src) return;
    const native = playsHlsNatively() && !(preferHlsJsRef.current && hlsJsPossible());
    if (!isPlaylist || native) {
      // This slot played a kept video through hls.js before: the element goes back to the browser's player.
      hlsRef.current?.destroy();
      hlsRef.current = null;
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
            // Spec §9: about 30 s ahead.
            maxBufferLength: 30,
            // Behind, a minute: the feed loops its clips, and a start let go is fetched again at every turn,
            // a freeze on a slow link and the same bytes twice (a minute of 540p is about 8 MB of memory).
            backBufferLength: 60,
            // Likewise hls.js throws a looping video's lower-rendition start away once it climbs, to loop at
            // the higher one; the loop then waits on the network for that start (bench: every loop froze 0.3
            // to 2 s on bad 4G, where a bare player that ends never did).
            loopBackBufferFlush: false,
            // The demo plays no HLS interstitials (ads are the feed's own overlay), and their controller calls
            // play() when a new source is scheduled: that raced a pause made just before (the rating prompt
            // opening over a video just swiped to), and the video played on under the prompt.
            enableInterstitialPlayback: false,
            manifestLoadPolicy: patient(6_000, 20_000),
            playlistLoadPolicy: patient(6_000, 20_000),
            fragLoadPolicy: patient(6_000, 60_000),
          });
          const own = hls;
          hls.on(HlsPlayer.Events.ERROR, (_event, data) => {
            if (!data.fatal) {
              if (data.type === HlsPlayer.ErrorTypes.NETWORK_ERROR) stall();
              return;
            }
            // A fatal error leaves the instance unusable: the slot's next source gets a fresh one.
            own.destroy();
            if (hlsRef.current === own) hlsRef.current = null;
            fail();
          });
          // A new source resets the player's levels: the kept, lowest one is chosen again once they are known
          // (0 from the start, the first listed; -1 is the player's own choice).
          hls.on(HlsPlayer.Events.MANIFEST_PARSED, () => {
            if (startLowRef.current) own.loadLevel = 0;
          });
          // Ran dry mid-clip: on a kept video still fetching a higher rendition, that request may hang (the
          // link just went) while the lowest is on the device. Only switching now aborts it (a `loadLevel`
          // waits for the request, and `nextLevel` keeps it when nothing is buffered ahead); the flush costs
          // nothing, the kept copy answers at once. The level stays low for the rest of this video (a new
          // source resets it).
          const listening = new AbortController();
          video.addEventListener(
            'waiting',
            () => {
              if (video.seeking || own.media !== video) return;
              if (!runningDry(video.buffered, video.currentTime, video.duration)) return;
              stall();
              if (keptLowRef.current && own.levels.length > 1 && own.loadLevel > 0) own.currentLevel = 0;
            },
            { signal: listening.signal },
          );
          hls.on(HlsPlayer.Events.DESTROYING, () => listening.abort());
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

  // The link went (or came back) while this video was loaded: no reload, the next requests follow. Only on a
  // change of the verdict: switching levels under a video about to play is not free.
  useEffect(() => {
    const hls = hlsRef.current;
    if (hls && hls.levels.length > 0 && (holdLow || hls.loadLevel === 0)) hls.loadLevel = holdLow ? 0 : -1;
  }, [holdLow]);
}

/** Media Source Extensions, or Safari's ManagedMediaSource (iOS 17.1+), which hls.js also plays through. */
const hlsJsPossible = () => 'MediaSource' in window || 'ManagedMediaSource' in window;

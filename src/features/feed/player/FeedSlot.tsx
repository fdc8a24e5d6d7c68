import { useAtomValue } from 'jotai';
import { type CSSProperties, lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { Video } from '../../../contract';
import { useEffectEvent } from '../../../state/effectEvent';
import { onlineAtom } from '../../../state/network';
import { isMutedAtom } from '../../../state/preferences';
import { PlayIcon } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import type { AdPlacement } from '../sidebar/sidebar';
import { bufferedEnough } from './bufferAhead';
import { type SlotAction, SlotActions } from './SlotActions';
import { SlotInfo } from './SlotInfo';
import { holdAtFirstFrame, usePlayback, whenFrameShown } from './usePlayback';
import { useSlotSource } from './useSlotSource';
import { useSlotVideo } from './useSlotVideo';
import { useViewCount } from './useViewCount';

export type { SlotAction } from './SlotActions';

// Only feeds with an instream placement download the ad's controls.
const InstreamAd = lazy(() => import('../ads/InstreamAd').then((m) => ({ default: m.InstreamAd })));

interface SlotProps {
  video: Video | undefined;
  /** 0-based place of the video in the feed, for the article's aria-posinset. */
  position: number;
  total: number;
  active: boolean;
  /** Paused under a prompt or sheet, resumed where it was after (not restarted). */
  held: boolean;
  /** The slot below the current one: it buffers ahead but stays paused. */
  near: boolean;
  /**
   * Whether this slot may fetch its video yet. Neighbours wait until the feed's first video plays, so on a
   * slow network the video on screen does not share the bandwidth with the ones beside it.
   */
  load: boolean;
  /** Called when the current slot's video shows its first frame, or autoplay is refused. */
  onStarted?: () => void;
  style: CSSProperties;
  /** Move without the slide animation (recycled slot, or following the finger). */
  instant: boolean;
  /** Increments on each tap on the stage: toggles play/pause of the current video. */
  tapSignal: number;
  onFail: (() => void) | undefined;
  onEnded: () => void;
  /** Opens one of the player's sheets for this video. */
  onAction: (kind: SlotAction, video: Video) => void;
  /** Autoplay next (preferenceAutoscroll): the video does not loop, its end moves on. */
  autoscroll: boolean;
  /** An instream ad that plays in this slot before its video (the slot's element plays it, then the video). */
  ad?: AdPlacement;
  onAdDone?: () => void;
  /** The video is kept on the device (the tunnel buffer): it plays with the link down. */
  kept: boolean;
  /** The tunnel buffer is on: play through hls.js, whose requests the service worker answers from it. */
  keeping: boolean;
  /** The link is down (offline, or a look at it got no answer). */
  linkDown: boolean;
  /** The link answered just now: a kept video may climb above its lowest rendition. */
  linkUp: boolean;
  /** The video on screen has enough buffered that the next ones may use the link. */
  onBuffered?: () => void;
  /** A media request got no answer: worth a look at the link. */
  onStall?: () => void;
}

export function FeedSlot({
  video,
  position,
  total,
  active,
  held,
  near,
  load,
  onStarted,
  style,
  instant,
  tapSignal,
  onFail,
  onEnded,
  onAction,
  autoscroll,
  ad,
  onAdDone,
  kept,
  keeping,
  linkDown,
  linkUp,
  onBuffered,
  onStall,
}: SlotProps) {
  const muted = useAtomValue(isMutedAtom);
  // Keyed by video: a recycled slot starts clean for its next video without a reset effect (a paused hint
  // left by the slot's last video would otherwise show over the next one until it plays).
  const [pausedId, setPausedId] = useState<number | null>(null);
  const [stalledId, setStalledId] = useState<number | null>(null);
  const [failedId, setFailedId] = useState<number | null>(null);
  const videoId = video?.id;
  const paused = pausedId !== null && pausedId === videoId;
  const stalled = stalledId !== null && stalledId === videoId;
  const failed = failedId !== null && failedId === videoId;

  const online = useAtomValue(onlineAtom);
  const [attempt, setAttempt] = useState(0);

  const fail = useCallback(() => {
    setFailedId(videoId ?? null);
    onFail?.();
  }, [onFail, videoId]);
  // The slot above keeps its source too, so swiping back shows the frame at once.
  const adSrc = ad?.src ?? null;
  const endAd = useCallback(() => onAdDone?.(), [onAdDone]);
  // A video this slot already loaded stays loaded (swiping back and forth), whatever `load` says now.
  const [loadedId, setLoadedId] = useState<number | null>(null);
  const mayLoad = load || (loadedId !== null && loadedId === videoId);
  const src = !video || !mayLoad ? null : ad ? adSrc : (video.playlistUrl ?? null);
  // With the link down, a video that is not on the device and has not started says so calmly (it keeps
  // asking, and starts by itself when the network returns); one that plays goes on from what it has.
  const [playedId, setPlayedId] = useState<number | null>(null);
  const waitsForNetwork = linkDown && !kept && !ad && playedId !== videoId;
  useEffect(() => {
    if (src !== null && videoId !== undefined) setLoadedId(videoId);
  }, [src, videoId]);
  const markViewed = useViewCount(videoId, active, ad !== undefined);
  const { host, ref } = useSlotVideo({
    boot: active ? { src } : undefined,
    // A neighbour's poster waits with its video (`load`): on Slow 4G one large poster took the bandwidth of
    // the first video's segments for seconds (issue 17).
    poster: ad || !mayLoad ? undefined : (video?.thumbnailUrl ?? undefined),
    muted,
    loop: !autoscroll && !ad,
    preload: active || near ? 'auto' : 'metadata',
    on: {
      playing: (element) => {
        setPlayedId(videoId ?? null);
        setStalledId(null);
        markViewed();
        // The video on screen shows its first frame: the neighbours may load now.
        if (active && onStarted) whenFrameShown(element, onStarted);
      },
      loadeddata: active ? undefined : holdAtFirstFrame,
      // The play sign goes as soon as play is asked for (every way out of paused fires 'play'), not when
      // frames flow: a start that waits for the network shows the spinner instead of a sign saying paused.
      play: () => setPausedId(null),
      pause: () => setPausedId(videoId ?? null),
      waiting: () => setStalledId(videoId ?? null),
      // An ad's end and errors are the ad overlay's to handle: they hand the slot back to its video.
      ended: ad ? undefined : onEnded,
      error: ad ? undefined : fail,
    },
  });
  useSlotSource(ref, src, ad ? endAd : fail, {
    attempt,
    startLow: kept && !linkUp,
    holdLow: kept && linkDown,
    keptLow: kept,
    // Kept, or about to be: a browser's own player picks its rendition itself (the kept one is the lowest)
    // and, in Safari, fetches outside the service worker; hls.js can be held on the kept copy in a tunnel.
    preferHlsJs: kept || keeping,
    onStall: active ? onStall : undefined,
  });

  // The video on screen tells when it is safe for the others to use the link.
  const buffered = useEffectEvent(() => onBuffered?.());
  useEffect(() => {
    const element = ref.current;
    if (!element || !active || ad) return;
    const check = () => {
      if (bufferedEnough(element.buffered, element.currentTime, element.duration)) buffered();
    };
    check();
    element.addEventListener('progress', check);
    element.addEventListener('timeupdate', check);
    return () => {
      element.removeEventListener('progress', check);
      element.removeEventListener('timeupdate', check);
    };
  }, [ref, active, ad]);

  // Back online: a video that failed for want of a network gets another go; the others play on untouched.
  const retryFailed = useEffectEvent(() => {
    if (failedId === null) return;
    setFailedId(null);
    setAttempt((n) => n + 1);
  });
  useEffect(() => {
    if (online) retryFailed();
  }, [online]);

  usePlayback(ref, {
    active,
    held,
    tapSignal,
    videoId,
    adSrc,
    onDeferred: () => setStalledId(videoId ?? null),
    onRefused: () => {
      setPausedId(videoId ?? null);
      // No autoplay here: the viewer starts it with a tap, and the neighbours need not wait for that.
      if (active) onStarted?.();
    },
  });
  return (
    <article
      className={`feed-slot${instant ? ' is-instant' : ''}`}
      style={style}
      aria-hidden={!active}
      aria-posinset={position + 1}
      aria-setsize={total}
      aria-label={video?.title}
      // The page's "Skip to video" link focuses the video on screen; Tab goes on to its controls from there.
      tabIndex={-1}
      // Off screen, a slot's buttons stay out of the tab order and of touch.
      inert={!active}
    >
      {/* The <video> is useSlotVideo's: React never renders into this element. */}
      <div ref={host} className="feed-video-host" />
      {ad && active && (
        <Suspense fallback={null}>
          <InstreamAd placement={ad} videoRef={ref} onDone={endAd} />
        </Suspense>
      )}
      {video && !ad && (
        <>
          <div className="feed-scrim" aria-hidden="true" />
          {active && stalled && !paused && !failed && !waitsForNetwork && (
            <div className="feed-stall">
              <Spinner />
            </div>
          )}
          {active && paused && !failed && (
            <span className="feed-play-hint" aria-hidden="true">
              <PlayIcon />
            </span>
          )}
          {active && waitsForNetwork && !failed && (
            <p className="feed-failed feed-waiting" role="status">
              More videos when you're back online
            </p>
          )}
          {failed && (
            <p className="feed-failed">
              {online
                ? "This video can't be played right now."
                : "Offline: it plays when you're back online."}
            </p>
          )}
          <SlotInfo video={video} videoRef={ref} active={active} />
          <SlotActions video={video} videoRef={ref} onAction={onAction} />
        </>
      )}
    </article>
  );
}

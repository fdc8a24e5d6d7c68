import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import {
  type CSSProperties,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import { trackEvent, trackLinkClick, trackVideoLike, trackVideoView } from '../../../api/tracking';
import type { Video } from '../../../contract';
import { onlineAtom } from '../../../state/network';
import { type PanelState, usePanelState } from '../../../state/panel';
import { isMutedAtom, likedVideosAtom } from '../../../state/preferences';
import { Avatar } from '../../../ui/Avatar';
import { formatCount } from '../../../ui/format';
import {
  EyeIcon,
  HeartIcon,
  MoreIcon,
  MutedIcon,
  PlayIcon,
  SlidersIcon,
  SmileIcon,
  VolumeIcon,
} from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { patchVideoAtom, viewedVideosAtom } from '../feedAtoms';
import type { AdPlacement } from '../sidebar/sidebar';
import { useSlotSource } from './useSlotSource';

// Only feeds with an instream placement download the ad's controls.
const InstreamAd = lazy(() => import('../ads/InstreamAd').then((m) => ({ default: m.InstreamAd })));

import { SWIPE } from './window';

const TAGS_SHOWN = 5;

/**
 * Offline a video cannot start, yet the viewer saw it (poster, title, creator): after this long on screen
 * it counts as viewed, queued in the outbox until the network is back.
 */
export const OFFLINE_VIEW_MS = 1000;

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
  /** Called when the current slot's video can start playing. */
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
}

export type SlotAction = 'more' | 'rate' | 'settings';

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
}: SlotProps) {
  const [tagsOpenFor, setTagsOpenFor] = useState<number | null>(null);
  const ref = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useAtom(isMutedAtom);
  const [likedVideos, setLikedVideos] = useAtom(likedVideosAtom);
  const [viewed, setViewed] = useAtom(viewedVideosAtom);
  const patchVideo = useSetAtom(patchVideoAtom);
  const panelState = usePanelState();
  const [paused, setPaused] = useState(false);
  // Keyed by video: a recycled slot starts clean for its next video without a reset effect.
  const [stalledId, setStalledId] = useState<number | null>(null);
  const [failedId, setFailedId] = useState<number | null>(null);
  const videoId = video?.id;
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
  useSlotSource(
    ref,
    !video || !load ? null : ad ? adSrc : (video.playlistUrl ?? null),
    ad ? endAd : fail,
    attempt,
  );

  // Back online: a video that failed for want of a network gets another go; the others play on untouched.
  const retryFailed = useEffectEvent(() => {
    if (failedId === null) return;
    setFailedId(null);
    setAttempt((n) => n + 1);
  });
  useEffect(() => {
    if (online) retryFailed();
  }, [online]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: an ad that ends hands the element back to the video, which must start again.
  useEffect(() => {
    const element = ref.current;
    if (!element || videoId === undefined) return;
    if (active) {
      element.currentTime = 0;
      // Autoplay may be refused (power saving); the paused state then shows the play hint.
      void element.play().catch(() => setPaused(true));
    } else {
      element.pause();
    }
  }, [active, videoId, adSrc]);

  useEffect(() => {
    const element = ref.current;
    if (!element || !active) return;
    if (held) element.pause();
    else void element.play().catch(() => undefined);
  }, [held, active]);

  useEffect(() => {
    if (tapSignal === 0) return;
    const element = ref.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => undefined);
    else element.pause();
  }, [tapSignal]);

  const markViewed = () => {
    if (!active || ad || videoId === undefined || viewed.has(videoId)) return;
    setViewed(new Set(viewed).add(videoId));
    void trackVideoView(videoId);
  };
  const markSeenOffline = useEffectEvent(markViewed);
  useEffect(() => {
    if (!active || online || videoId === undefined) return;
    const timer = window.setTimeout(markSeenOffline, OFFLINE_VIEW_MS);
    return () => window.clearTimeout(timer);
  }, [active, online, videoId]);

  const toggleMute = () => {
    const element = ref.current;
    // Set on the element inside the tap handler itself: browsers only allow sound from a user gesture.
    if (element) element.muted = !muted;
    setMuted(!muted);
  };

  // A like still in the outbox (offline) is not in the server's answer yet: the device's list fills the gap.
  const pendingLike = video !== undefined && !video.isLiked && likedVideos.includes(video.id);
  const isLiked = video ? video.isLiked || pendingLike : false;
  const likeCount = video ? video.likeCount + (pendingLike ? 1 : 0) : 0;
  const toggleLike = () => {
    if (!video) return;
    const next = !isLiked;
    patchVideo(video.id, { isLiked: next, likeCount: Math.max(0, likeCount + (next ? 1 : -1)) });
    setLikedVideos(
      next
        ? [...likedVideos.filter((id) => id !== video.id), video.id]
        : likedVideos.filter((id) => id !== video.id),
    );
    void trackVideoLike(video.id, next);
  };

  return (
    <article
      className={`feed-slot${instant ? ' is-instant' : ''}`}
      style={style}
      aria-hidden={!active}
      aria-posinset={position + 1}
      aria-setsize={total}
      aria-label={video?.title}
      inert={!active}
    >
      <video
        ref={ref}
        className="feed-video"
        poster={ad ? undefined : (video?.thumbnailUrl ?? undefined)}
        muted={muted}
        playsInline
        loop={!autoscroll && !ad}
        preload={active || near ? 'auto' : 'metadata'}
        onPlaying={() => {
          setPaused(false);
          setStalledId(null);
          markViewed();
        }}
        // Enough is buffered to start (whether or not autoplay is allowed): the neighbours may load now.
        onCanPlay={active ? onStarted : undefined}
        onPause={() => setPaused(true)}
        onWaiting={() => setStalledId(videoId ?? null)}
        // An ad's end and errors are the ad overlay's to handle: they hand the slot back to its video.
        onEnded={ad ? undefined : onEnded}
        onError={ad ? undefined : fail}
      />
      {ad && active && (
        <Suspense fallback={null}>
          <InstreamAd placement={ad} videoRef={ref} onDone={endAd} />
        </Suspense>
      )}
      {video && !ad && (
        <>
          <div className="feed-scrim" aria-hidden="true" />
          {active && stalled && !paused && !failed && (
            <div className="feed-stall">
              <Spinner />
            </div>
          )}
          {active && paused && !failed && (
            <span className="feed-play-hint" aria-hidden="true">
              <PlayIcon />
            </span>
          )}
          {failed && (
            <p className="feed-failed">
              {online
                ? "This video can't be played right now."
                : "Offline: it plays when you're back online."}
            </p>
          )}

          <div className="feed-info">
            <Link to={`/${video.user.slug}`} state={panelState} className="feed-author">
              <Avatar
                src={video.user.avatar}
                name={video.user.name}
                size={40}
                live={video.user.isLive === 1}
              />
              <span className="feed-author-name">{video.user.name}</span>
              {video.user.isLive === 1 && <span className="live-badge">LIVE</span>}
            </Link>
            {video.user.isLive === 1 && <LiveChip user={video.user} panelState={panelState} />}
            <p className="feed-title">{video.title}</p>
            {video.tags.length > 0 && (
              <ul className="feed-tags">
                {video.tags.slice(0, tagsOpenFor === video.id ? undefined : TAGS_SHOWN).map((tag) => (
                  <li key={tag.id}>
                    <Link to={`/tag/${tag.id}`} className="feed-tag">
                      #{tag.name}
                    </Link>
                  </li>
                ))}
                {video.tags.length > TAGS_SHOWN && tagsOpenFor !== video.id && (
                  <li>
                    <button
                      type="button"
                      className="feed-tag"
                      aria-label={`Show all ${video.tags.length} tags`}
                      onClick={() => setTagsOpenFor(video.id)}
                    >
                      ⋯
                    </button>
                  </li>
                )}
              </ul>
            )}
            <SeekBar videoRef={ref} active={active} />
          </div>

          <div className="feed-actions">
            <button
              type="button"
              className="feed-action"
              onClick={toggleLike}
              aria-label={isLiked ? 'Unlike' : 'Like'}
              aria-pressed={isLiked}
            >
              <span className={`feed-action-icon${isLiked ? ' is-liked' : ''}`}>
                <HeartIcon />
              </span>
              <span className="feed-action-count">{formatCount(likeCount)}</span>
            </button>
            <div className="feed-action" role="img" aria-label={`${video.viewCount} views`}>
              <span className="feed-action-icon">
                <EyeIcon />
              </span>
              <span className="feed-action-count">{formatCount(video.viewCount)}</span>
            </div>
            <button
              type="button"
              className="feed-action"
              onClick={() => onAction('rate', video)}
              aria-label={video.isRated ? 'Video Rated' : 'Rate video'}
            >
              <span className={`feed-action-icon${video.isRated ? ' is-rated' : ''}`}>
                <SmileIcon />
              </span>
            </button>
            <button
              type="button"
              className="feed-action"
              onClick={() => onAction('more', video)}
              aria-label="More actions"
            >
              <span className="feed-action-icon">
                <MoreIcon />
              </span>
            </button>
            <button
              type="button"
              className="feed-action"
              onClick={toggleMute}
              aria-label={muted ? 'Unmute' : 'Mute'}
              aria-pressed={!muted}
            >
              <span className="feed-action-icon">{muted ? <MutedIcon /> : <VolumeIcon />}</span>
            </button>
            <button
              type="button"
              className="feed-action"
              onClick={() => onAction('settings', video)}
              aria-label="Settings"
            >
              <span className="feed-action-icon">
                <SlidersIcon />
              </span>
            </button>
          </div>
        </>
      )}
    </article>
  );
}

/**
 * The live-link chip of a creator on air: their live link (their room) in a new tab, counted as a link
 * click; a creator live without such a link gets their profile instead.
 */
function LiveChip({ user, panelState }: { user: Video['user']; panelState: PanelState }) {
  const label = (
    <>
      <span className="live-dot" aria-hidden="true" /> Live now: watch {user.name}
    </>
  );
  const link = user.liveLink;
  if (!link)
    return (
      <Link to={`/${user.slug}`} state={panelState} className="feed-live-chip">
        {label}
      </Link>
    );
  return (
    <a
      href={link.url}
      target="_blank"
      rel="noopener nofollow"
      className="feed-live-chip"
      onClick={() => {
        void trackLinkClick(link.id, 'feed', true);
        // Spec §9 event 1, "bottom cams": the cams opened from the bottom of the video.
        void trackEvent(1);
      }}
    >
      {label}
    </a>
  );
}

/** Thin progress line that doubles as a scrubber; seeks are debounced (spec §9: 70 ms) while dragging. */
function SeekBar({
  videoRef,
  active,
}: {
  videoRef: React.RefObject<HTMLVideoElement | null>;
  active: boolean;
}) {
  const [progress, setProgress] = useState({ time: 0, duration: 0 });
  const seekTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scrubbing = useRef(false);

  useEffect(() => {
    const element = videoRef.current;
    if (!element || !active) return;
    const update = () => {
      if (!scrubbing.current) setProgress({ time: element.currentTime, duration: element.duration || 0 });
    };
    element.addEventListener('timeupdate', update);
    element.addEventListener('durationchange', update);
    return () => {
      element.removeEventListener('timeupdate', update);
      element.removeEventListener('durationchange', update);
      clearTimeout(seekTimer.current);
    };
  }, [videoRef, active]);

  if (!active || progress.duration <= 0) return <div className="feed-seek-placeholder" />;
  return (
    <input
      type="range"
      className="feed-seek"
      aria-label="Seek"
      min={0}
      max={progress.duration}
      step={0.1}
      value={progress.time}
      style={{ '--progress': `${(progress.time / progress.duration) * 100}%` } as CSSProperties}
      onPointerDown={() => {
        scrubbing.current = true;
      }}
      onPointerUp={() => {
        scrubbing.current = false;
      }}
      onChange={(event) => {
        const time = Number(event.target.value);
        setProgress((p) => ({ ...p, time }));
        clearTimeout(seekTimer.current);
        seekTimer.current = setTimeout(() => {
          const element = videoRef.current;
          if (element) element.currentTime = time;
        }, SWIPE.seekDebounceMs);
      }}
    />
  );
}

import { useAtom, useAtomValue } from 'jotai';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { probeLink } from '../../../api/link';
import type { Video } from '../../../contract';
import { markFirstVideoReady } from '../../../state/firstVideo';
import { onlineAtom } from '../../../state/network';
import { profilePanelOpenAtom, usePanelState } from '../../../state/panel';
import { preferenceAutoscrollAtom } from '../../../state/preferences';
import { feedIndexAtom, feedLoadingMoreAtom } from '../feedAtoms';
import { useIsGuest } from '../guest';
import type { AdPlacement } from '../sidebar/sidebar';
import { CoachHint, useCoachStep } from './CoachHint';
import { FeedNav } from './FeedNav';
import { FeedSheets, preloadActionSheets, RatingBar, ratingPromptReady, useFeedSheet } from './FeedSheets';
import { FeedSlot, type SlotAction } from './FeedSlot';
import { useFeedGestures } from './useFeedGestures';
import { useInstreamAds } from './useInstreamAds';
import { useMediaSession } from './useMediaSession';
import { useRatingPrompt } from './useRatingPrompt';
import { KEPT_AHEAD, useTunnel } from './useTunnel';
import { warmFirstSegment } from './warmAhead';
import { assignSlots, PREFETCH_REMAINING, step } from './window';

// Opened with "?" or its button: no viewer on a phone ever needs its code.
const ShortcutsSheet = lazy(() => import('./ShortcutsSheet').then((m) => ({ default: m.ShortcutsSheet })));

/**
 * The feed: exactly three <video> slots (previous, current, next) recycled as the viewer moves, so a feed of
 * any length never creates more elements. Swipes, wheel, arrow and Page keys, and visible buttons all move
 * through the same `go`.
 */
export function FeedPlayer({
  feedKey,
  videos,
  hasMore,
  onNearEnd,
  ads = [],
  rating = false,
  offline = false,
}: {
  /** The list's FeedSource.key: what the tunnel buffer keeps videos for. */
  feedKey: string;
  /** The list came from the device (no network): its end says more come back with the network. */
  offline?: boolean;
  videos: Video[];
  hasMore: boolean;
  onNearEnd: () => void;
  ads?: AdPlacement[];
  /** Rating mode: the faces sit on every video and a choice moves on; no prompt opens by itself. */
  rating?: boolean;
}) {
  const [index, setIndex] = useAtom(feedIndexAtom);
  const panelOpen = useAtomValue(profilePanelOpenAtom);
  const loadingMore = useAtomValue(feedLoadingMoreAtom);
  const navigate = useNavigate();
  const stageRef = useRef<HTMLDivElement>(null);
  const current = Math.min(index, Math.max(videos.length - 1, 0));
  const onScreen = videos[current];
  const slots = useMemo(() => assignSlots(current, videos.length), [current, videos.length]);
  // Until the first video shows a frame, it alone uses the network (see FeedSlot's `load`).
  const [started, setStarted] = useState(false);
  const onStarted = useCallback(() => {
    setStarted(true);
    markFirstVideoReady();
  }, []);

  // A slot whose video changed jumps into place without animating: it travels from one edge to the other.
  const previousAssignment = useRef(slots.map((s) => s.index));
  const jumped = slots.map((s, i) => s.index !== previousAssignment.current[i]);
  useEffect(() => {
    previousAssignment.current = slots.map((s) => s.index);
  });

  // The video on screen has enough buffered (bufferAhead.ts): only then do the next slot, the start of the
  // one after and the tunnel buffer use the link, so on a slow one the video on screen gets it whole first.
  const [safeId, setSafeId] = useState<number | null>(null);
  const safe = onScreen !== undefined && safeId === onScreen.id;
  const onBuffered = useCallback(() => setSafeId(onScreen?.id ?? null), [onScreen?.id]);
  const { kept, linkDown, linkUp, keeping } = useTunnel(feedKey, videos, current, safe);
  // While the buffer fills, the next slot loads its video once it is kept: it then plays from the device,
  // where racing the buffer for the same files would fetch them twice.
  const next = videos[current + 1];
  const nextReady = safe && (!keeping || !next?.playlistUrl || kept.has(next.id));
  const onStall = useCallback(() => void probeLink({ stalled: true }), []);

  // The rating prompt opens by itself a few videos in: its code comes once the video on screen is safe.
  useEffect(() => {
    if (safe) preloadActionSheets();
  }, [safe]);

  // The start of the video after the next one is fetched too, so two quick swipes in a row still find their
  // first segment on the device.
  useEffect(() => {
    const ahead = videos[current + 2];
    if (started && safe && !linkDown && ahead?.playlistUrl) warmFirstSegment(ahead.playlistUrl);
  }, [started, safe, linkDown, current, videos]);

  // While the buffer fills (and the video on screen is safe), the next page comes early: the buffer keeps the
  // next 10 videos, which the list cut short when it knew only 3 more (bench: a tunnel met 6 kept, not 10).
  const wantAhead = keeping && safe ? KEPT_AHEAD : PREFETCH_REMAINING;
  useEffect(() => {
    if (hasMore && videos.length - 1 - current <= wantAhead) onNearEnd();
  }, [current, videos.length, hasMore, onNearEnd, wantAhead]);

  const { adAt, adPlaying, endAd } = useInstreamAds(ads, current);

  const go = useCallback(
    (direction: 1 | -1) => {
      // An ad is left by its Skip button (after 5 s, spec §9), not by scrolling past it.
      if (adPlaying) return;
      const target = step(current, videos.length, direction);
      if (target !== null) setIndex(target);
    },
    [current, videos.length, setIndex, adPlaying],
  );
  useMediaSession({ video: onScreen, go, stageRef });

  const panelState = usePanelState();
  const openProfile = useCallback(() => {
    const video = videos[current];
    // Pushes the profile URL, so the system back gesture returns to this very video.
    if (video) navigate(`/${video.user.slug}`, { state: panelState });
  }, [videos, current, navigate, panelState]);

  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const openShortcuts = useCallback(() => setShortcutsOpen(true), []);
  const gestures = useFeedGestures({
    stageRef,
    current,
    count: videos.length,
    go,
    onProfile: openProfile,
    onHelp: openShortcuts,
    keysOff: panelOpen || shortcutsOpen,
  });
  const onSkip = useCallback(() => go(1), [go]);
  // Offline every video fails alike: skipping would race through the whole list, so it stays put.
  const online = useAtomValue(onlineAtom);
  const autoscroll = useAtomValue(preferenceAutoscrollAtom);
  const [coachStep, setCoachStep] = useCoachStep(current, panelOpen);

  const sheets = useFeedSheet();
  const { setSheet } = sheets;
  const onAction = useCallback((kind: SlotAction, video: Video) => setSheet({ kind, video }), [setSheet]);
  const guest = useIsGuest();
  useRatingPrompt({
    current,
    videos,
    // Opened with a move or not at all: one whose code came seconds later popped up over a video already
    // playing and took the keyboard's focus mid-gesture (CI: a key meant for the feed landed in the prompt).
    // Without its code the prompt waits for the next move.
    off: rating || adPlaying || !ratingPromptReady(),
    sheetOpen: sheets.sheet !== null,
    prompt: (video) => setSheet({ kind: 'rate', video }),
  });
  const held = sheets.sheet !== null || panelOpen || shortcutsOpen;

  return (
    <div
      ref={stageRef}
      className={`feed-stage feed-player${gestures.axis ? ' is-dragging' : ''}`}
      {...gestures.handlers}
    >
      {/* A feed holds its articles only (ARIA): the controls and prompts around it are its siblings. */}
      <div className="feed-slots" role="feed" aria-busy={loadingMore} aria-label="Videos">
        {slots.map((slot, i) => {
          const video = slot.index === null ? undefined : videos[slot.index];
          return (
            <FeedSlot
              // The key is the slot, never the video: React must keep the <video> element and re-point it.
              // biome-ignore lint/suspicious/noArrayIndexKey: the slot number is the identity here.
              key={i}
              video={video}
              position={slot.index ?? 0}
              total={videos.length}
              active={slot.offset === 0}
              held={held}
              near={slot.offset === 1}
              // The slot above loaded as the current one before (or waits for a swipe back); the one below
              // waits until the video on screen is safe, and while the buffer fills, until it is kept.
              load={slot.offset === 0 || (started && (slot.offset < 0 || nextReady))}
              kept={video !== undefined && kept.has(video.id)}
              keeping={keeping}
              linkDown={linkDown}
              linkUp={linkUp}
              onBuffered={slot.offset === 0 ? onBuffered : undefined}
              onStall={slot.offset === 0 ? onStall : undefined}
              onStarted={slot.offset === 0 ? onStarted : undefined}
              style={{
                transform: `translate3d(${slot.offset === 0 ? gestures.dragX : 0}px, calc(${slot.offset * 100}% + ${gestures.dragY}px), 0)`,
              }}
              instant={jumped[i] || gestures.axis === 'y'}
              tapSignal={slot.offset === 0 ? gestures.tapSignal : 0}
              onFail={slot.offset === 0 && online ? onSkip : undefined}
              onEnded={onSkip}
              onAction={onAction}
              autoscroll={autoscroll}
              ad={adAt(slot.index)}
              onAdDone={slot.index === null ? undefined : () => endAd(slot.index as number)}
            />
          );
        })}
      </div>
      {rating && !adPlaying && onScreen && (
        <Suspense fallback={null}>
          <RatingBar
            key={onScreen.id}
            video={onScreen}
            guest={guest}
            onRated={(message) => {
              sheets.rated(onScreen, message);
              go(1);
            }}
          />
        </Suspense>
      )}
      {(coachStep === 0 || coachStep === 1) && !adPlaying && (
        <CoachHint step={coachStep} onDismiss={() => setCoachStep(coachStep + 1)} />
      )}
      {offline && current >= videos.length - 1 && (
        <p className="feed-offline-end" role="status">
          More videos when you're back online
        </p>
      )}
      <FeedSheets state={sheets} guest={guest} />
      <FeedNav atStart={current === 0} atEnd={current >= videos.length - 1} go={go} onHelp={openShortcuts} />
      {shortcutsOpen && (
        <Suspense fallback={null}>
          <ShortcutsSheet onClose={() => setShortcutsOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}

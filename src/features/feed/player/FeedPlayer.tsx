import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import {
  lazy,
  type PointerEvent,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import { useNavigate } from 'react-router';
import type { Video } from '../../../contract';
import { onlineAtom } from '../../../state/network';
import { profilePanelOpenAtom, usePanelState } from '../../../state/panel';
import { currentVideoAtom, preferenceAutoscrollAtom, tutorialStepAtom } from '../../../state/preferences';
import { showToastAtom } from '../../../state/toast';
import { feedIndexAtom, feedLoadingMoreAtom, patchVideoAtom } from '../feedAtoms';
import { useIsGuest } from '../guest';
import { MoreSheet, RateSheet, RatingBar, shareVideo } from '../sheets/ActionSheets';
import type { AdPlacement } from '../sidebar/sidebar';
import { CoachHint } from './CoachHint';
import { FeedSlot, type SlotAction } from './FeedSlot';
import {
  assignSlots,
  classifyGesture,
  dragOffset,
  PREFETCH_REMAINING,
  SWIPE,
  step,
  throttle,
} from './window';

interface Drag {
  pointerId: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
  axis: 'x' | 'y' | null;
}

// Sheets the viewer opens, and the instream ad, load on demand: their code is not part of the first video's
// download. The rating prompt and the more-actions sheet stay at hand: the prompt opens by itself.
const ReportSheet = lazy(() => import('../sheets/ReportSheet').then((m) => ({ default: m.ReportSheet })));
const PreferencesSheet = lazy(() =>
  import('../sheets/PreferencesSheet').then((m) => ({ default: m.PreferencesSheet })),
);

/**
 * The feed: exactly three <video> slots (previous, current, next) recycled as the viewer moves, so a feed of
 * any length never creates more elements. Swipes, wheel, arrow and Page keys, and visible buttons all move
 * through the same `go`.
 */
export function FeedPlayer({
  videos,
  hasMore,
  onNearEnd,
  ads = [],
  rating = false,
}: {
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
  const [drag, setDrag] = useState<Drag | null>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const current = Math.min(index, Math.max(videos.length - 1, 0));
  const onScreen = videos[current];
  const slots = useMemo(() => assignSlots(current, videos.length), [current, videos.length]);
  // Until the first video plays, it alone uses the network (see FeedSlot's `load`).
  const [started, setStarted] = useState(false);
  const onStarted = useCallback(() => setStarted(true), []);

  // A slot whose video changed jumps into place without animating: it travels from one edge to the other.
  const previousAssignment = useRef(slots.map((s) => s.index));
  const jumped = slots.map((s, i) => s.index !== previousAssignment.current[i]);
  useEffect(() => {
    previousAssignment.current = slots.map((s) => s.index);
  });

  useEffect(() => {
    if (hasMore && videos.length - 1 - current <= PREFETCH_REMAINING) onNearEnd();
  }, [current, videos.length, hasMore, onNearEnd]);

  // Instream ad before every n-th video (placement.every, default 5), once per video per visit. It plays in
  // that video's slot, so the slot below buffers the ad ahead as it would the video.
  const instream = ads.find((a) => a.type === 'instream');
  const [adsDone, setAdsDone] = useState<ReadonlySet<number>>(() => new Set());
  const adAt = (i: number | null) =>
    instream && i !== null && i > 0 && i % (instream.every ?? 5) === 0 && !adsDone.has(i)
      ? instream
      : undefined;
  const adPlaying = adAt(current) !== undefined;
  const endAd = useCallback((i: number) => setAdsDone((done) => new Set(done).add(i)), []);

  const go = useCallback(
    (direction: 1 | -1) => {
      // An ad is left by its Skip button (after 5 s, spec §9), not by scrolling past it.
      if (adPlaying) return;
      const target = step(current, videos.length, direction);
      if (target !== null) setIndex(target);
    },
    [current, videos.length, setIndex, adPlaying],
  );

  const stepAllowed = useMemo(() => throttle(SWIPE.throttleMs), []);
  const onWheel = (event: WheelEvent) => {
    if (Math.abs(event.deltaY) < 4 || !stepAllowed()) return;
    go(event.deltaY > 0 ? 1 : -1);
  };
  // Keys work wherever focus is (but not while typing or scrubbing): the feed is the whole screen.
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const forward = event.key === 'ArrowDown' || event.key === 'PageDown';
      const backward = event.key === 'ArrowUp' || event.key === 'PageUp';
      if ((!forward && !backward) || event.defaultPrevented || panelOpen) return;
      if ((event.target as HTMLElement | null)?.closest?.('input, textarea, select, [contenteditable]'))
        return;
      event.preventDefault();
      if (stepAllowed()) go(forward ? 1 : -1);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [go, stepAllowed, panelOpen]);

  const panelState = usePanelState();
  const openProfile = useCallback(() => {
    const video = videos[current];
    // Pushes the profile URL, so the system back gesture returns to this very video.
    if (video) navigate(`/${video.user.slug}`, { state: panelState });
  }, [videos, current, navigate, panelState]);

  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0 || (event.target as HTMLElement).closest('a, button, input')) return;
    setDrag({ pointerId: event.pointerId, x: event.clientX, y: event.clientY, dx: 0, dy: 0, axis: null });
  };
  const onPointerMove = (event: PointerEvent) => {
    if (!drag || drag.pointerId !== event.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    let axis = drag.axis;
    if (!axis && Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE.tap) {
      axis = Math.abs(dy) >= Math.abs(dx) ? 'y' : 'x';
      stageRef.current?.setPointerCapture(event.pointerId);
    }
    setDrag({ ...drag, dx, dy, axis });
  };
  const [tapSignal, setTapSignal] = useState(0);
  const onPointerUp = (event: PointerEvent) => {
    if (!drag || drag.pointerId !== event.pointerId) return;
    setDrag(null);
    const gesture = classifyGesture(drag.axis === 'y' ? 0 : drag.dx, drag.axis === 'x' ? 0 : drag.dy);
    if (gesture === 'tap') setTapSignal((n) => n + 1);
    else if (gesture === 'next') go(1);
    else if (gesture === 'previous') go(-1);
    else if (gesture === 'profile') {
      if (coachStep === 1) setCoachStep(2);
      openProfile();
    }
  };

  const dragY = drag?.axis === 'y' ? dragOffset(drag.dy, current, videos.length) : 0;
  const dragX = drag?.axis === 'x' ? Math.min(0, drag.dx) / 3 : 0;
  const onSkip = useCallback(() => go(1), [go]);
  // Offline every video fails alike: skipping would race through the whole list, so it stays put.
  const online = useAtomValue(onlineAtom);
  const autoscroll = useAtomValue(preferenceAutoscrollAtom);
  const [coachStep, setCoachStep] = useAtom(tutorialStepAtom);
  // Each hint goes once the viewer has done what it teaches, or taps it away.
  useEffect(() => {
    if (coachStep === 0 && current > 0) setCoachStep(1);
  }, [coachStep, current, setCoachStep]);
  // However the profile opened (swipe, drag, the creator's name), the profile hint has been learnt.
  useEffect(() => {
    if (coachStep === 1 && panelOpen) setCoachStep(2);
  }, [coachStep, panelOpen, setCoachStep]);

  const [sheet, setSheet] = useState<{ kind: SlotAction | 'report'; video: Video } | null>(null);
  const showToast = useSetAtom(showToastAtom);
  const onAction = useCallback((kind: SlotAction, video: Video) => setSheet({ kind, video }), []);
  const closeSheet = () => setSheet(null);
  // Spec §9 toasts: a confirmation goes in 1.5 s; 'Report sent' closes a long form, so it stays 3 s.
  const done = (message: string | null, long = false) => {
    setSheet(null);
    if (message) showToast(message, { long });
  };
  const guest = useIsGuest();
  const selectVideo = useSetAtom(currentVideoAtom);
  const patchVideo = useSetAtom(patchVideoAtom);
  const rated = (video: Video, message: string) => {
    patchVideo(video.id, { isRated: true });
    done(message);
  };

  // Rating prompt, the first reading of spec §5: after a random 2 to 5 videos, if the one on screen is
  // unrated; the video pauses under the prompt and plays on after it.
  const promptAfter = useRef(2 + Math.floor(Math.random() * 4));
  const movedSincePrompt = useRef(0);
  const lastIndex = useRef(current);
  useEffect(() => {
    if (lastIndex.current === current) return;
    lastIndex.current = current;
    movedSincePrompt.current++;
    const video = videos[current];
    if (rating || adPlaying) return;
    if (movedSincePrompt.current >= promptAfter.current && video && !video.isRated && !sheet) {
      movedSincePrompt.current = 0;
      promptAfter.current = 2 + Math.floor(Math.random() * 4);
      setSheet({ kind: 'rate', video });
    }
  }, [current, videos, sheet, rating, adPlaying]);
  const held = sheet !== null || panelOpen;

  return (
    <div
      ref={stageRef}
      className={`feed-stage feed-player${drag?.axis ? ' is-dragging' : ''}`}
      onWheel={onWheel}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
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
              load={started || slot.offset === 0}
              onStarted={slot.offset === 0 ? onStarted : undefined}
              style={{
                transform: `translate3d(${slot.offset === 0 ? dragX : 0}px, calc(${slot.offset * 100}% + ${dragY}px), 0)`,
              }}
              instant={jumped[i] || drag?.axis === 'y'}
              tapSignal={slot.offset === 0 ? tapSignal : 0}
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
        <RatingBar
          key={onScreen.id}
          video={onScreen}
          guest={guest}
          onRated={(message) => {
            rated(onScreen, message);
            go(1);
          }}
        />
      )}
      {(coachStep === 0 || coachStep === 1) && (
        <CoachHint step={coachStep} onDismiss={() => setCoachStep(coachStep + 1)} />
      )}
      <Suspense fallback={null}>
        {sheet?.kind === 'more' && (
          <MoreSheet
            onClose={closeSheet}
            onChoose={(choice) => {
              const { video } = sheet;
              if (choice === 'report') setSheet({ kind: 'report', video });
              else if (choice === 'share') void shareVideo(video).then(done);
              else {
                selectVideo({ id: video.id, slug: video.slug });
                done('Video selected');
                navigate(`/video/${video.id}/${video.slug}`);
              }
            }}
          />
        )}
        {sheet?.kind === 'report' && (
          <ReportSheet
            videoId={sheet.video.id}
            guest={guest}
            onClose={closeSheet}
            onSent={(message) => done(message, true)}
          />
        )}
        {sheet?.kind === 'rate' && (
          <RateSheet
            video={sheet.video}
            guest={guest}
            onClose={closeSheet}
            onRated={(message) => rated(sheet.video, message)}
          />
        )}
        {sheet?.kind === 'settings' && <PreferencesSheet onClose={closeSheet} />}
      </Suspense>
      <div className="feed-nav">
        <button
          type="button"
          className="feed-nav-button"
          aria-label="Previous video"
          disabled={current === 0}
          onClick={() => go(-1)}
        >
          <span aria-hidden="true">▲</span>
        </button>
        <button
          type="button"
          className="feed-nav-button"
          aria-label="Next video"
          disabled={current >= videos.length - 1}
          onClick={() => go(1)}
        >
          <span aria-hidden="true">▼</span>
        </button>
      </div>
    </div>
  );
}

import {
  type DragEvent,
  type MouseEvent,
  type PointerEvent,
  type RefObject,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type WheelEvent,
} from 'react';
import { useEffectEvent } from '../../../state/effectEvent';
import { startedInDialog } from '../../../ui/Sheet';
import { classifyGesture, dragOffset, SEEK_STEP_S, SWIPE, shortcutFor, throttle } from './window';

interface Drag {
  pointerId: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
  axis: 'x' | 'y' | null;
  /** Started on a link or button (the author, a hashtag chip): a tap there is the control's, not the video's. */
  onControl: boolean;
}

/** The slot on screen and its controls, for the keys that act on them as a tap would. */
const currentSlot = (stage: HTMLElement | null) =>
  stage?.querySelector<HTMLElement>('article[aria-hidden=false]') ?? null;

/**
 * Turns the stage's pointer, wheel and key input into feed moves (spec §9 constants): a drag follows the
 * finger on one axis and ends as next, previous, profile or a tap; wheel and arrow/Page keys step, throttled.
 */
export function useFeedGestures({
  stageRef,
  current,
  count,
  go,
  onProfile,
  onHelp,
  keysOff,
}: {
  stageRef: RefObject<HTMLDivElement | null>;
  current: number;
  count: number;
  go: (direction: 1 | -1) => void;
  onProfile: () => void;
  /** "?": the list of shortcuts. */
  onHelp: () => void;
  /** The profile panel is open over the feed: keys are its own. */
  keysOff: boolean;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  // The gesture as the events tell it, read by the next event at once; the state only draws it. Read from the
  // state, a move or a lift that came before React re-rendered (a busy phone, a quick flick) saw no drag at
  // all, and the swipe was lost.
  const dragRef = useRef<Drag | null>(null);
  const track = (next: Drag | null) => {
    dragRef.current = next;
    setDrag(next);
  };
  const moved = (drag: Drag, event: PointerEvent, capture = true): Drag => {
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    let axis = drag.axis;
    if (!axis && Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE.tap) {
      axis = Math.abs(dy) >= Math.abs(dx) ? 'y' : 'x';
      // The rest of the drag is the stage's, wherever the finger goes (not on the lift: nothing follows it).
      if (capture) stageRef.current?.setPointerCapture(event.pointerId);
    }
    return { ...drag, dx, dy, axis };
  };
  const [tapSignal, setTapSignal] = useState(0);
  const stepAllowed = useMemo(() => throttle(SWIPE.throttleMs), []);

  // A drag that ended on a link or button must not also open it: its click is swallowed (see onClickCapture).
  const swallowClick = useRef(false);

  // Keys work wherever focus is (but not while typing or scrubbing): the feed is the whole screen.
  const onKeyDown = useEffectEvent((event: globalThis.KeyboardEvent) => {
    if (event.defaultPrevented || keysOff) return;
    const target = event.target as HTMLElement | null;
    const action = shortcutFor(
      event.key,
      { ctrl: event.ctrlKey, meta: event.metaKey, alt: event.altKey },
      {
        typing: Boolean(target?.closest?.('input, textarea, select, [contenteditable], dialog')),
        onControl: Boolean(target?.closest?.('a, button, [role=button]')),
      },
    );
    if (!action) return;
    event.preventDefault();
    const slot = currentSlot(stageRef.current);
    const video = slot?.querySelector('video');
    switch (action) {
      case 'next':
      case 'previous':
        if (stepAllowed()) go(action === 'next' ? 1 : -1);
        break;
      case 'toggle':
        setTapSignal((n) => n + 1);
        break;
      case 'back':
      case 'forward':
        if (video && Number.isFinite(video.duration)) {
          const delta = action === 'back' ? -SEEK_STEP_S : SEEK_STEP_S;
          video.currentTime = Math.min(Math.max(video.currentTime + delta, 0), video.duration - 0.1);
        }
        break;
      // The same buttons a tap uses: a guest's like, the outbox and the unmute gesture rules stay theirs.
      case 'mute':
      case 'like':
        slot?.querySelector<HTMLButtonElement>(`[data-shortcut=${action}]`)?.click();
        break;
      case 'help':
        onHelp();
        break;
    }
  });
  // Attached once, in the commit that shows the first video: a passive effect runs after the paint, and on
  // a slow phone a key pressed as soon as the video showed arrived before the listener and was lost.
  useLayoutEffect(() => {
    const listener = (event: globalThis.KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const handlers = {
    onWheel: (event: WheelEvent) => {
      if (startedInDialog(event) || Math.abs(event.deltaY) < 4 || !stepAllowed()) return;
      go(event.deltaY > 0 ? 1 : -1);
    },
    // A swipe may start anywhere on the video, the caption and its chips included; only the seek bar keeps
    // its drags (scrubbing).
    onPointerDown: (event: PointerEvent) => {
      swallowClick.current = false;
      const target = event.target as HTMLElement;
      if (event.button !== 0 || startedInDialog(event) || target.closest('input')) return;
      track({
        pointerId: event.pointerId,
        x: event.clientX,
        y: event.clientY,
        dx: 0,
        dy: 0,
        axis: null,
        onControl: target.closest('a, button') !== null,
      });
    },
    onPointerMove: (event: PointerEvent) => {
      const drag = dragRef.current;
      if (!drag || drag.pointerId !== event.pointerId) return;
      track(moved(drag, event));
    },
    onPointerUp: (event: PointerEvent) => {
      const start = dragRef.current;
      if (!start || start.pointerId !== event.pointerId) return;
      // Where the finger left the screen decides, not the last move React got round to drawing.
      const drag = moved(start, event, false);
      track(null);
      const gesture = classifyGesture(drag.axis === 'y' ? 0 : drag.dx, drag.axis === 'x' ? 0 : drag.dy);
      swallowClick.current = drag.axis !== null;
      if (gesture === 'tap') {
        if (!drag.onControl) setTapSignal((n) => n + 1);
      } else if (gesture === 'next') go(1);
      else if (gesture === 'previous') go(-1);
      else if (gesture === 'profile') onProfile();
    },
    onPointerCancel: () => track(null),
    // A mouse pressed on a link (the author, a chip) would start the browser's own drag of that link, which
    // cancels the pointer: the swipe is the feed's.
    onDragStart: (event: DragEvent) => event.preventDefault(),
    onClickCapture: (event: MouseEvent) => {
      if (!swallowClick.current) return;
      swallowClick.current = false;
      event.preventDefault();
      event.stopPropagation();
    },
  };

  return {
    handlers,
    axis: drag?.axis ?? null,
    /** How far the current video follows the finger. */
    dragY: drag?.axis === 'y' ? dragOffset(drag.dy, current, count) : 0,
    dragX: drag?.axis === 'x' ? Math.min(0, drag.dx) / 3 : 0,
    /** Increments on each tap on the stage: the current slot toggles play/pause. */
    tapSignal,
  };
}

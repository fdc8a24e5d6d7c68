import {
  type PointerEvent,
  type RefObject,
  useLayoutEffect,
  useMemo,
  useState,
  type WheelEvent,
} from 'react';
import { useEffectEvent } from '../../../state/effectEvent';
import { startedInDialog } from '../../../ui/Sheet';
import { classifyGesture, dragOffset, SWIPE, throttle } from './window';

interface Drag {
  pointerId: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
  axis: 'x' | 'y' | null;
}

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
  keysOff,
}: {
  stageRef: RefObject<HTMLDivElement | null>;
  current: number;
  count: number;
  go: (direction: 1 | -1) => void;
  onProfile: () => void;
  /** The profile panel is open over the feed: keys are its own. */
  keysOff: boolean;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const [tapSignal, setTapSignal] = useState(0);
  const stepAllowed = useMemo(() => throttle(SWIPE.throttleMs), []);

  // Keys work wherever focus is (but not while typing or scrubbing): the feed is the whole screen.
  const onKeyDown = useEffectEvent((event: globalThis.KeyboardEvent) => {
    const forward = event.key === 'ArrowDown' || event.key === 'PageDown';
    const backward = event.key === 'ArrowUp' || event.key === 'PageUp';
    if ((!forward && !backward) || event.defaultPrevented || keysOff) return;
    if ((event.target as HTMLElement | null)?.closest?.('input, textarea, select, [contenteditable]')) return;
    event.preventDefault();
    if (stepAllowed()) go(forward ? 1 : -1);
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
    onPointerDown: (event: PointerEvent) => {
      if (
        event.button !== 0 ||
        startedInDialog(event) ||
        (event.target as HTMLElement).closest('a, button, input')
      )
        return;
      setDrag({ pointerId: event.pointerId, x: event.clientX, y: event.clientY, dx: 0, dy: 0, axis: null });
    },
    onPointerMove: (event: PointerEvent) => {
      if (!drag || drag.pointerId !== event.pointerId) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      let axis = drag.axis;
      if (!axis && Math.max(Math.abs(dx), Math.abs(dy)) >= SWIPE.tap) {
        axis = Math.abs(dy) >= Math.abs(dx) ? 'y' : 'x';
        stageRef.current?.setPointerCapture(event.pointerId);
      }
      setDrag({ ...drag, dx, dy, axis });
    },
    onPointerUp: (event: PointerEvent) => {
      if (!drag || drag.pointerId !== event.pointerId) return;
      setDrag(null);
      const gesture = classifyGesture(drag.axis === 'y' ? 0 : drag.dx, drag.axis === 'x' ? 0 : drag.dy);
      if (gesture === 'tap') setTapSignal((n) => n + 1);
      else if (gesture === 'next') go(1);
      else if (gesture === 'previous') go(-1);
      else if (gesture === 'profile') onProfile();
    },
    onPointerCancel: () => setDrag(null),
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

import { type KeyboardEvent, type RefObject, useId } from 'react';
import { messages } from '../../contract';
import { PlusIcon } from '../../ui/icons';
import { MinusIcon, ResetIcon, RotateIcon } from '../../ui/more-icons';
import { fitCover, MAX_ZOOM, moveBy, rotateQuarter, zoomOf, zoomTo } from './cropMath';
import type { Cropper } from './useCropper';

const p = messages.profile;

/** Arrow keys move by this many pixels (with Shift, five times as far); + and − zoom by a tenth. */
const KEY_STEP = 10;
const ZOOM_STEP = 0.1;

/** The crop modal's first step: the image under its selection, the zoom and turn tools, Cancel and Next. */
export function CropStep({
  cropper,
  round,
  hidden,
  failure,
  focusRef,
  onCancel,
  onNext,
}: {
  cropper: Cropper;
  round: boolean;
  /** Kept in the page behind the preview: the cropper's elements must survive a look at the result. */
  hidden: boolean;
  failure: string | null;
  focusRef: RefObject<HTMLDivElement | null>;
  onCancel: () => void;
  onNext: () => void;
}) {
  const { hostRef, status, zoom, guide, apply } = cropper;
  const hintId = useId();
  const ready = status === 'ready';

  const zoomBy = (delta: number) =>
    apply((s, m) => zoomTo(m, s.natural, s.rect, zoomOf(m, s.natural, s.rect) + delta));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP * 5 : KEY_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      apply((s, m) => moveBy(m, s.natural, s.rect, move[0], move[1]));
    } else if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      zoomBy(ZOOM_STEP);
    } else if (event.key === '-' || event.key === '_') {
      event.preventDefault();
      zoomBy(-ZOOM_STEP);
    }
  };

  return (
    <div className="crop-body" hidden={hidden}>
      <div
        className={`crop-stage${round ? ' is-round' : ' is-wide'}`}
        role="application"
        aria-label="Image to crop"
        aria-describedby={hintId}
        aria-busy={status === 'loading'}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the crop area is a widget of its own: arrow keys move the image, + and − zoom it.
        tabIndex={0}
        onKeyDown={onKeyDown}
        ref={focusRef}
      >
        <div ref={hostRef} className="crop-host" aria-hidden="true" />
        {guide && (
          <div
            className="crop-guide"
            aria-hidden="true"
            style={{ left: guide.x, top: guide.y, width: guide.width, height: guide.height }}
          />
        )}
        {status === 'loading' && <span className="crop-loading spinner" aria-hidden="true" />}
        {status === 'unreadable' && (
          <p className="crop-unreadable" role="alert">
            {p.imageType}
          </p>
        )}
      </div>
      <p id={hintId} className="crop-hint">
        Drag to move, pinch or scroll to zoom. Arrow keys and + / − work too.
      </p>
      <div className="crop-tools">
        <button
          type="button"
          className="crop-tool"
          onClick={() => zoomBy(-0.25)}
          aria-label="Zoom out"
          disabled={!ready || zoom <= 1}
        >
          <MinusIcon />
        </button>
        <input
          type="range"
          className="crop-zoom"
          aria-label="Zoom"
          min={1}
          max={MAX_ZOOM}
          step={0.05}
          value={zoom}
          disabled={!ready}
          aria-valuetext={`${Math.round(zoom * 100)}%`}
          onChange={(event) => {
            const value = Number(event.target.value);
            apply((s, m) => zoomTo(m, s.natural, s.rect, value));
          }}
        />
        <button
          type="button"
          className="crop-tool"
          onClick={() => zoomBy(0.25)}
          aria-label="Zoom in"
          disabled={!ready || zoom >= MAX_ZOOM}
        >
          <PlusIcon />
        </button>
        <button
          type="button"
          className="crop-tool"
          onClick={() => apply((s, m) => rotateQuarter(m, s.natural, s.rect))}
          aria-label="Rotate"
          disabled={!ready}
        >
          <RotateIcon />
        </button>
        <button
          type="button"
          className="crop-tool"
          onClick={() => apply((s) => fitCover(s.natural, s.rect))}
          aria-label="Reset"
          disabled={!ready}
        >
          <ResetIcon />
        </button>
      </div>
      <div className="form-error-region" role="alert">
        {!hidden && failure && <p className="form-error">{failure}</p>}
      </div>
      <div className="crop-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" onClick={onNext} disabled={!ready}>
          Next
        </button>
      </div>
    </div>
  );
}

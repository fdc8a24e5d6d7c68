import type { RefObject } from 'react';
import type { Size } from './cropMath';

/** The crop modal's second step: the cropped image as it will be sent, with Update or Discard. */
export function CropPreview({
  url,
  alt,
  box,
  round,
  sending,
  failure,
  updateRef,
  onAdjust,
  onDiscard,
  onUpdate,
}: {
  url: string;
  alt: string;
  box: Size;
  round: boolean;
  sending: boolean;
  failure: string | null;
  updateRef: RefObject<HTMLButtonElement | null>;
  onAdjust: () => void;
  onDiscard: () => void;
  onUpdate: () => void;
}) {
  return (
    <div className="crop-body">
      <div className={`crop-preview${round ? ' is-round' : ' is-wide'}`}>
        <img src={url} alt={alt} width={box.width} height={box.height} />
      </div>
      <p className="crop-hint">
        {box.width} × {box.height}
      </p>
      <button type="button" className="crop-adjust" onClick={onAdjust} disabled={sending}>
        Adjust the crop
      </button>
      <div className="form-error-region" role="alert">
        {failure && <p className="form-error">{failure}</p>}
      </div>
      <div className="crop-actions">
        <button type="button" className="btn btn-ghost" onClick={onDiscard}>
          Discard
        </button>
        <button
          type="button"
          className="btn btn-primary form-submit"
          ref={updateRef}
          onClick={onUpdate}
          disabled={sending}
          aria-busy={sending}
        >
          {sending && <span className="form-submit-spinner" aria-hidden="true" />}
          <span>Update</span>
        </button>
      </div>
    </div>
  );
}

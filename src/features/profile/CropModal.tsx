// The crop modal (spec §2 'Image crop modal'): crop, then a preview with Update or Discard. This module is
// the only one that imports cropperjs, and the profile screen imports it dynamically once an image has been
// chosen, so the cropper's web components cost nothing to anyone who only looks at a profile.
// Importing cropperjs defines its <cropper-*> elements; the types describe what createElement returns.
import 'cropperjs';
import type { CropperCanvas, CropperHandle, CropperImage, CropperSelection, CropperShade } from 'cropperjs';
import { useSetAtom } from 'jotai';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorText, isAbort } from '../../api/errors';
import { updateProfileImage } from '../../api/profile';
import { messages, type OwnProfile, PROFILE_IMAGE_BOXES, type ProfileImageField } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { PlusIcon } from '../../ui/icons';
import { MinusIcon, ResetIcon, RotateIcon } from '../../ui/more-icons';
import { Sheet } from '../../ui/Sheet';
import {
  clampToCover,
  fitCover,
  MAX_ZOOM,
  type Matrix,
  moveBy,
  type Rect,
  rotateQuarter,
  type Size,
  selectionFor,
  zoomOf,
  zoomTo,
} from './cropMath';
// The form kit's error box and submit spinner, so the modal reads like every other form of the app.
import '../../ui/form/form.css';
import './crop.css';

const p = messages.profile;

const TEXTS: Record<ProfileImageField, { crop: string; done: string; alt: string }> = {
  profile_photo: { crop: 'Crop profile image', done: p.photoUpdated, alt: 'New profile image' },
  profile_cover: { crop: 'Crop cover image', done: p.coverUpdated, alt: 'New cover image' },
};

/** Arrow keys move by this many pixels (with Shift, five times as far); + and − zoom by a tenth. */
const KEY_STEP = 10;
const ZOOM_STEP = 0.1;

interface Stage {
  canvas: CropperCanvas;
  image: CropperImage;
  selection: CropperSelection;
  natural: Size;
  rect: Rect;
}

export default function CropModal({
  field,
  file,
  onClose,
  onSaved,
}: {
  field: ProfileImageField;
  file: File;
  onClose: () => void;
  onSaved: (user: OwnProfile) => void;
}) {
  const box = PROFILE_IMAGE_BOXES[field];
  const aspect = box.width / box.height;
  const texts = TEXTS[field];
  const showToast = useSetAtom(showToastAtom);
  const [step, setStep] = useState<'crop' | 'preview'>('crop');
  const [result, setResult] = useState<{ blob: Blob; url: string } | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'unreadable'>('loading');
  const [zoom, setZoom] = useState(1);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [guide, setGuide] = useState<Rect | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const cropFocusRef = useRef<HTMLDivElement>(null);
  const updateRef = useRef<HTMLButtonElement>(null);
  const stageRef = useRef<Stage | null>(null);
  const sendRef = useRef<AbortController | null>(null);
  const hintId = useId();

  const apply = useCallback((next: (stage: Stage, m: Matrix) => Matrix) => {
    const stage = stageRef.current;
    if (!stage) return;
    stage.image.$setTransform(next(stage, stage.image.$getTransform() as Matrix));
  }, []);

  // The cropper's elements are built by hand rather than rendered by React: they are web components with
  // imperative APIs, and React must never re-create them under a user's fingers.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const url = URL.createObjectURL(file);
    const canvas = document.createElement('cropper-canvas') as CropperCanvas;
    const image = document.createElement('cropper-image') as CropperImage;
    const shade = document.createElement('cropper-shade') as CropperShade;
    const selection = document.createElement('cropper-selection') as CropperSelection;
    // Over everything, transparent: a drag anywhere moves the image, two fingers zoom it.
    const handle = document.createElement('cropper-handle') as CropperHandle;
    canvas.className = 'crop-canvas';
    image.translatable = true;
    image.scalable = true;
    image.alt = '';
    image.src = url;
    shade.themeColor = 'rgba(6, 6, 10, 0.72)';
    selection.aspectRatio = aspect;
    selection.outlined = true;
    selection.themeColor = 'rgba(255, 255, 255, 0.9)';
    handle.action = 'move';
    handle.plain = true;
    canvas.append(image, shade, selection, handle);
    host.append(canvas);

    let settled = false;
    let adjusting = false;
    const layout = (stage: Stage) => {
      const rect = selectionFor({ width: host.clientWidth, height: host.clientHeight }, aspect);
      stage.rect = rect;
      stage.selection.$change(rect.x, rect.y, rect.width, rect.height);
      setGuide(rect);
    };
    // Every change, whatever made it (a drag, a pinch, the wheel, a key), is held to covering the selection.
    const onTransform = (event: Event) => {
      const stage = stageRef.current;
      if (!settled || adjusting || !stage) return;
      const { matrix } = (event as CustomEvent<{ matrix: Matrix }>).detail;
      const valid = clampToCover(matrix, stage.natural, stage.rect);
      if (valid.every((value, i) => Math.abs(value - (matrix[i] ?? Number.NaN)) < 1e-6)) {
        setZoom(zoomOf(valid, stage.natural, stage.rect));
        return;
      }
      event.preventDefault();
      adjusting = true;
      stage.image.$setTransform(valid);
      adjusting = false;
      setZoom(zoomOf(valid, stage.natural, stage.rect));
    };
    image.addEventListener('transform', onTransform);

    let cancelled = false;
    image
      .$ready()
      .then((img) => {
        if (cancelled) return;
        const stage: Stage = {
          canvas,
          image,
          selection,
          natural: { width: img.naturalWidth, height: img.naturalHeight },
          rect: { x: 0, y: 0, width: 0, height: 0 },
        };
        stageRef.current = stage;
        layout(stage);
        adjusting = true;
        image.$setTransform(fitCover(stage.natural, stage.rect));
        adjusting = false;
        settled = true;
        setZoom(1);
        setStatus('ready');
      })
      .catch(() => {
        if (!cancelled) setStatus('unreadable');
      });

    // A turned phone or a resized window: the selection follows the stage, at the zoom the user chose.
    let last = { width: host.clientWidth, height: host.clientHeight };
    const resize = new ResizeObserver(() => {
      const stage = stageRef.current;
      const now = { width: host.clientWidth, height: host.clientHeight };
      // Hidden behind the preview the stage measures 0: nothing to lay out until it shows again.
      if (!stage || now.width === 0 || (now.width === last.width && now.height === last.height)) return;
      last = now;
      const kept = zoomOf(stage.image.$getTransform() as Matrix, stage.natural, stage.rect);
      layout(stage);
      adjusting = true;
      stage.image.$setTransform(zoomTo(fitCover(stage.natural, stage.rect), stage.natural, stage.rect, kept));
      adjusting = false;
    });
    resize.observe(host);

    return () => {
      cancelled = true;
      resize.disconnect();
      image.removeEventListener('transform', onTransform);
      canvas.remove();
      stageRef.current = null;
      URL.revokeObjectURL(url);
    };
  }, [file, aspect]);

  useEffect(() => () => sendRef.current?.abort(), []);
  // Each step hides the other one's controls: the focus moves to where the next decision is, rather than
  // falling to the page behind.
  const firstStep = useRef(true);
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    (step === 'preview' ? updateRef.current : cropFocusRef.current)?.focus();
  }, [step]);
  useEffect(() => {
    if (!result) return;
    return () => URL.revokeObjectURL(result.url);
  }, [result]);

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
      apply((s, m) => zoomTo(m, s.natural, s.rect, zoomOf(m, s.natural, s.rect) + ZOOM_STEP));
    } else if (event.key === '-' || event.key === '_') {
      event.preventDefault();
      apply((s, m) => zoomTo(m, s.natural, s.rect, zoomOf(m, s.natural, s.rect) - ZOOM_STEP));
    }
  };

  const zoomBy = (delta: number) =>
    apply((s, m) => zoomTo(m, s.natural, s.rect, zoomOf(m, s.natural, s.rect) + delta));

  const crop = async () => {
    const stage = stageRef.current;
    if (!stage) return;
    setFailure(null);
    try {
      const drawn = await stage.selection.$toCanvas({
        width: box.width,
        height: box.height,
        beforeDraw: (context, target) => {
          // A transparent PNG gets the app's dark backdrop rather than JPEG's black.
          context.fillStyle = '#16161f';
          context.fillRect(0, 0, target.width, target.height);
          context.imageSmoothingEnabled = true;
          context.imageSmoothingQuality = 'high';
        },
      });
      const blob = await toJpeg(exactly(drawn, box));
      setResult({ blob, url: URL.createObjectURL(blob) });
      setStep('preview');
    } catch {
      setFailure(p.imageType);
    }
  };

  const update = async () => {
    if (!result || sending) return;
    const controller = new AbortController();
    sendRef.current = controller;
    setSending(true);
    setFailure(null);
    try {
      const answer = await updateProfileImage(field, result.blob, controller.signal);
      showToast(texts.done);
      onSaved(answer.user);
    } catch (error) {
      if (isAbort(error)) return;
      // Spec §8: one sentence for every failure of the upload, whatever the server or the network said.
      setFailure(errorText(error, { network: p.imageFailed, serverMessage: false, fallback: p.imageFailed }));
      setSending(false);
    }
  };

  const close = () => {
    sendRef.current?.abort();
    onClose();
  };

  const round = field === 'profile_photo';
  return (
    <Sheet
      title={step === 'crop' ? texts.crop : 'Preview'}
      onClose={close}
      className="crop-sheet"
      closeOnBackdrop={false}
    >
      <div className="crop-body" hidden={step !== 'crop'}>
        <div
          className={`crop-stage${round ? ' is-round' : ' is-wide'}`}
          role="application"
          aria-label="Image to crop"
          aria-describedby={hintId}
          aria-busy={status === 'loading'}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the crop area is a widget of its own: arrow keys move the image, + and − zoom it.
          tabIndex={0}
          onKeyDown={onKeyDown}
          ref={cropFocusRef}
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
            disabled={status !== 'ready' || zoom <= 1}
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
            disabled={status !== 'ready'}
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
            disabled={status !== 'ready' || zoom >= MAX_ZOOM}
          >
            <PlusIcon />
          </button>
          <button
            type="button"
            className="crop-tool"
            onClick={() => apply((s, m) => rotateQuarter(m, s.natural, s.rect))}
            aria-label="Rotate"
            disabled={status !== 'ready'}
          >
            <RotateIcon />
          </button>
          <button
            type="button"
            className="crop-tool"
            onClick={() => apply((s) => fitCover(s.natural, s.rect))}
            aria-label="Reset"
            disabled={status !== 'ready'}
          >
            <ResetIcon />
          </button>
        </div>
        <div className="form-error-region" role="alert">
          {step === 'crop' && failure && <p className="form-error">{failure}</p>}
        </div>
        <div className="crop-actions">
          <button type="button" className="btn btn-ghost" onClick={close}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={crop} disabled={status !== 'ready'}>
            Next
          </button>
        </div>
      </div>

      {step === 'preview' && result && (
        <div className="crop-body">
          <div className={`crop-preview${round ? ' is-round' : ' is-wide'}`}>
            <img src={result.url} alt={texts.alt} width={box.width} height={box.height} />
          </div>
          <p className="crop-hint">
            {box.width} × {box.height}
          </p>
          <button
            type="button"
            className="crop-adjust"
            onClick={() => {
              setFailure(null);
              setStep('crop');
            }}
            disabled={sending}
          >
            Adjust the crop
          </button>
          <div className="form-error-region" role="alert">
            {failure && <p className="form-error">{failure}</p>}
          </div>
          <div className="crop-actions">
            <button type="button" className="btn btn-ghost" onClick={close}>
              Discard
            </button>
            <button
              type="button"
              className="btn btn-primary form-submit"
              ref={updateRef}
              onClick={update}
              disabled={sending}
              aria-busy={sending}
            >
              {sending && <span className="form-submit-spinner" aria-hidden="true" />}
              <span>Update</span>
            </button>
          </div>
        </div>
      )}
    </Sheet>
  );
}

/** The export at exactly the box's size: the selection's own rounding may leave it a pixel short. */
function exactly(canvas: HTMLCanvasElement, box: Size): HTMLCanvasElement {
  if (canvas.width === box.width && canvas.height === box.height) return canvas;
  const out = document.createElement('canvas');
  out.width = box.width;
  out.height = box.height;
  const context = out.getContext('2d');
  if (!context) throw new Error('No 2D canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(canvas, 0, 0, box.width, box.height);
  return out;
}

function toJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('No image'))), 'image/jpeg', 0.92),
  );
}

// The only module that imports cropperjs; the profile screen imports the crop modal (and so this) dynamically
// once an image has been chosen, so the cropper's web components cost nothing to anyone who only looks at a
// profile. Importing cropperjs defines its <cropper-*> elements; the types describe what createElement returns.
import 'cropperjs';
import type { CropperCanvas, CropperHandle, CropperImage, CropperSelection, CropperShade } from 'cropperjs';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import {
  clampToCover,
  fitCover,
  type Matrix,
  type Rect,
  type Size,
  selectionFor,
  zoomOf,
  zoomTo,
} from './cropMath';

interface Stage {
  canvas: CropperCanvas;
  image: CropperImage;
  selection: CropperSelection;
  natural: Size;
  rect: Rect;
}

/** A change of the image's transform, from the stage (natural size, selection) and the current matrix. */
export type CropMove = (stage: { natural: Size; rect: Rect }, m: Matrix) => Matrix;

export interface Cropper {
  /** Where the cropper's elements are put: a box sized by CSS. */
  hostRef: RefObject<HTMLDivElement | null>;
  status: 'loading' | 'ready' | 'unreadable';
  zoom: number;
  /** The selection, in the host's pixels: the guide drawn over it. */
  guide: Rect | null;
  apply: (next: CropMove) => void;
  /** The selection as a JPEG of exactly `box`'s size; null before the image is ready. */
  exportJpeg: (box: Size) => Promise<Blob | null>;
}

/**
 * Builds cropperjs's stage for `file` in hostRef's box: a selection of `aspect` the image must always cover,
 * moved by drag, pinch, wheel or `apply`, and laid out again when the box changes size.
 */
export function useCropper(file: File, aspect: number): Cropper {
  const [status, setStatus] = useState<Cropper['status']>('loading');
  const [zoom, setZoom] = useState(1);
  const [guide, setGuide] = useState<Rect | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<Stage | null>(null);

  const apply = useCallback((next: CropMove) => {
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

  const exportJpeg = useCallback(async (box: Size) => {
    const stage = stageRef.current;
    if (!stage) return null;
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
    return toJpeg(exactly(drawn, box));
  }, []);

  return { hostRef, status, zoom, guide, apply, exportJpeg };
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

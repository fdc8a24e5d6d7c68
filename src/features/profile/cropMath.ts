// The geometry of the crop: the selection stays put in the middle of the stage and the image moves, zooms
// and turns under it, as in the phone's own photo editors. cropperjs lays the image out at the stage's
// top-left corner at its natural size and applies a CSS matrix about its centre; these functions work in that
// frame. Rotation comes in quarter turns only, so the image's box on screen stays axis-aligned and "the
// image covers the selection" is a check on four edges.

/** A CSS `matrix(a, b, c, d, e, f)`. */
export type Matrix = [number, number, number, number, number, number];

export interface Size {
  width: number;
  height: number;
}

export interface Rect extends Size {
  x: number;
  y: number;
}

/** How far past the smallest covering size the image may be enlarged. */
export const MAX_ZOOM = 6;

/** The selection: as large as `coverage` of the stage allows at `aspect` (width / height), centred. */
export function selectionFor(stage: Size, aspect: number, coverage = 0.86): Rect {
  let width = stage.width * coverage;
  let height = width / aspect;
  if (height > stage.height * coverage) {
    height = stage.height * coverage;
    width = height * aspect;
  }
  // Whole pixels: cropperjs rounds the selection it draws, and the image must cover exactly that.
  width = Math.round(width);
  height = Math.round(height);
  return {
    x: Math.round((stage.width - width) / 2),
    y: Math.round((stage.height - height) / 2),
    width,
    height,
  };
}

export const scaleOf = (m: Matrix) => Math.hypot(m[0], m[1]);

/** A quarter or three-quarter turn shows the image on its side. */
const turned = (m: Matrix) => Math.abs(m[1]) > Math.abs(m[0]);

/** The smallest scale at which the image, turned as `m` turns it, covers the selection. */
export function coverScale(m: Matrix, image: Size, selection: Size): number {
  const [w, h] = turned(m) ? [image.height, image.width] : [image.width, image.height];
  return Math.max(selection.width / w, selection.height / h);
}

/** The zoom the user sees: 1 when the image just covers the selection. */
export const zoomOf = (m: Matrix, image: Size, selection: Size) =>
  scaleOf(m) / coverScale(m, image, selection);

const centreOf = (m: Matrix, image: Size) => ({ x: image.width / 2 + m[4], y: image.height / 2 + m[5] });

function place(a: number, b: number, c: number, d: number, image: Size, cx: number, cy: number): Matrix {
  return [a, b, c, d, cx - image.width / 2, cy - image.height / 2];
}

/**
 * `m` made valid: scaled up to cover the selection (or down to the zoom limit), then moved, as little as
 * possible, until no edge of the image shows inside the selection.
 */
export function clampToCover(m: Matrix, image: Size, selection: Rect, maxZoom = MAX_ZOOM): Matrix {
  const scale = scaleOf(m);
  const min = coverScale(m, image, selection);
  const target = Math.min(Math.max(scale, min), min * maxZoom);
  const k = scale === 0 ? 0 : target / scale;
  const [a, b, c, d] = [m[0] * k, m[1] * k, m[2] * k, m[3] * k];
  const halfX = (Math.abs(a) * image.width + Math.abs(c) * image.height) / 2;
  const halfY = (Math.abs(b) * image.width + Math.abs(d) * image.height) / 2;
  const clamp = (value: number, start: number, size: number, half: number) => {
    const low = start + size - half;
    const high = start + half;
    // At exactly the covering size the range is a single point (or, by rounding, a hair inverted).
    return low > high ? (low + high) / 2 : Math.min(Math.max(value, low), high);
  };
  const centre = centreOf(m, image);
  return place(
    a,
    b,
    c,
    d,
    image,
    clamp(centre.x, selection.x, selection.width, halfX),
    clamp(centre.y, selection.y, selection.height, halfY),
  );
}

/** The starting point: upright, just covering the selection, centred on it. */
export function fitCover(image: Size, selection: Rect): Matrix {
  const s = Math.max(selection.width / image.width, selection.height / image.height);
  return place(s, 0, 0, s, image, selection.x + selection.width / 2, selection.y + selection.height / 2);
}

/** Zoom to `zoom` (1 = just covering) about the selection's centre, which keeps what is under it in place. */
export function zoomTo(m: Matrix, image: Size, selection: Rect, zoom: number, maxZoom = MAX_ZOOM): Matrix {
  const scale = scaleOf(m);
  const target = coverScale(m, image, selection) * Math.min(Math.max(zoom, 1), maxZoom);
  const r = target / scale;
  const px = selection.x + selection.width / 2;
  const py = selection.y + selection.height / 2;
  const centre = centreOf(m, image);
  return clampToCover(
    place(m[0] * r, m[1] * r, m[2] * r, m[3] * r, image, px + (centre.x - px) * r, py + (centre.y - py) * r),
    image,
    selection,
    maxZoom,
  );
}

/** Slide the image by (dx, dy) screen pixels, stopping where an edge would show. */
export function moveBy(m: Matrix, image: Size, selection: Rect, dx: number, dy: number): Matrix {
  const centre = centreOf(m, image);
  return clampToCover(place(m[0], m[1], m[2], m[3], image, centre.x + dx, centre.y + dy), image, selection);
}

/** A quarter turn clockwise about the selection's centre, keeping the zoom the user chose. */
export function rotateQuarter(m: Matrix, image: Size, selection: Rect): Matrix {
  const zoom = zoomOf(m, image, selection);
  // The turn (x, y) → (−y, x) in screen coordinates (y points down) applied after the current matrix.
  const [a, b, c, d] = [-m[1], m[0], -m[3], m[2]];
  const px = selection.x + selection.width / 2;
  const py = selection.y + selection.height / 2;
  const centre = centreOf(m, image);
  const turnedMatrix = place(a, b, c, d, image, px - (centre.y - py), py + (centre.x - px));
  return zoomTo(turnedMatrix, image, selection, zoom);
}

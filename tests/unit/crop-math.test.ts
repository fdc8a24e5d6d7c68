// The crop's geometry (src/features/profile/cropMath.ts): whatever the user does, the exported area is
// always filled by the image, and the controls move, zoom and turn it the way they say.
import { describe, expect, it } from 'vitest';
import {
  clampToCover,
  fitCover,
  MAX_ZOOM,
  type Matrix,
  moveBy,
  type Rect,
  rotateQuarter,
  type Size,
  scaleOf,
  selectionFor,
  zoomOf,
  zoomTo,
} from '../../src/features/profile/cropMath';

/** The image's box on screen, as cropperjs draws it: laid out at (0, 0), transformed about its centre. */
function boxOf(m: Matrix, image: Size): Rect {
  const [a, b, c, d, e, f] = m;
  const width = Math.abs(a) * image.width + Math.abs(c) * image.height;
  const height = Math.abs(b) * image.width + Math.abs(d) * image.height;
  const cx = image.width / 2 + e;
  const cy = image.height / 2 + f;
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

const EPS = 1e-6;
function expectCovers(m: Matrix, image: Size, selection: Rect) {
  const box = boxOf(m, image);
  expect(box.x).toBeLessThanOrEqual(selection.x + EPS);
  expect(box.y).toBeLessThanOrEqual(selection.y + EPS);
  expect(box.x + box.width).toBeGreaterThanOrEqual(selection.x + selection.width - EPS);
  expect(box.y + box.height).toBeGreaterThanOrEqual(selection.y + selection.height - EPS);
}

const landscape = { width: 1600, height: 1200 };
const portrait = { width: 900, height: 1400 };
const square = selectionFor({ width: 354, height: 354 }, 1);
const wide = selectionFor({ width: 354, height: 236 }, 2);

describe('crop geometry', () => {
  it('puts the selection in the middle of the stage at the aspect asked for, in whole pixels', () => {
    expect(square).toEqual({ x: 25, y: 25, width: 304, height: 304 });
    expect(wide.width / wide.height).toBeCloseTo(2, 1);
    expect(wide.x * 2 + wide.width).toBeCloseTo(354, 0);
    for (const value of Object.values(wide)) expect(Number.isInteger(value)).toBe(true);
    // A stage too low for the aspect: the height decides.
    const low = selectionFor({ width: 500, height: 150 }, 2);
    expect(low.height).toBe(129);
    expect(low.width).toBe(258);
  });

  it('starts upright, just covering the selection and centred on it', () => {
    for (const [image, selection] of [
      [landscape, square],
      [portrait, square],
      [landscape, wide],
      [portrait, wide],
    ] as const) {
      const m = fitCover(image, selection);
      expectCovers(m, image, selection);
      expect(zoomOf(m, image, selection)).toBeCloseTo(1);
      const box = boxOf(m, image);
      expect(box.x + box.width / 2).toBeCloseTo(selection.x + selection.width / 2);
      expect(box.y + box.height / 2).toBeCloseTo(selection.y + selection.height / 2);
      // One side exactly fits: nothing more of the picture is cut than the shape needs.
      const fits =
        Math.abs(box.width - selection.width) < EPS || Math.abs(box.height - selection.height) < EPS;
      expect(fits).toBe(true);
    }
  });

  it('never lets an edge of the image into the selection: a drag stops at the edge', () => {
    const m = fitCover(landscape, square);
    // The landscape image has room to move sideways only.
    const far = moveBy(m, landscape, square, 5000, 5000);
    expectCovers(far, landscape, square);
    expect(boxOf(far, landscape).x).toBeCloseTo(square.x);
    expect(boxOf(far, landscape).y).toBeCloseTo(square.y);
    const back = moveBy(m, landscape, square, -5000, 0);
    expect(boxOf(back, landscape).x + boxOf(back, landscape).width).toBeCloseTo(square.x + square.width);
    // A small move inside the room is taken exactly.
    const small = moveBy(m, landscape, square, 10, 0);
    expect(boxOf(small, landscape).x - boxOf(m, landscape).x).toBeCloseTo(10);
  });

  it('brings a pinch that went too small back to covering, and one that went too far back to the limit', () => {
    const m = fitCover(portrait, square);
    const tiny: Matrix = [m[0] / 3, 0, 0, m[3] / 3, m[4], m[5]];
    const fixed = clampToCover(tiny, portrait, square);
    expectCovers(fixed, portrait, square);
    expect(zoomOf(fixed, portrait, square)).toBeCloseTo(1);
    const huge: Matrix = [m[0] * 50, 0, 0, m[3] * 50, m[4], m[5]];
    expect(zoomOf(clampToCover(huge, portrait, square), portrait, square)).toBeCloseTo(MAX_ZOOM);
  });

  it('zooms about the middle of the selection, within 1 and the limit', () => {
    const m = fitCover(landscape, wide);
    const twice = zoomTo(m, landscape, wide, 2);
    expect(zoomOf(twice, landscape, wide)).toBeCloseTo(2);
    expect(scaleOf(twice) / scaleOf(m)).toBeCloseTo(2);
    expectCovers(twice, landscape, wide);
    const box = boxOf(twice, landscape);
    expect(box.x + box.width / 2).toBeCloseTo(wide.x + wide.width / 2);
    expect(zoomOf(zoomTo(m, landscape, wide, 0.2), landscape, wide)).toBeCloseTo(1);
    expect(zoomOf(zoomTo(m, landscape, wide, 99), landscape, wide)).toBeCloseTo(MAX_ZOOM);
  });

  it('turns a quarter at a time, keeping the zoom and the cover; four turns come back upright', () => {
    let m = zoomTo(fitCover(portrait, wide), portrait, wide, 1.5);
    const start = m;
    for (let turn = 1; turn <= 4; turn++) {
      m = rotateQuarter(m, portrait, wide);
      expectCovers(m, portrait, wide);
      expect(zoomOf(m, portrait, wide)).toBeCloseTo(1.5);
    }
    for (let i = 0; i < 4; i++) expect(m[i]).toBeCloseTo(start[i] ?? Number.NaN);
    // One turn: the image lies on its side (the x axis now points down).
    const once = rotateQuarter(start, portrait, wide);
    expect(once[0]).toBeCloseTo(0);
    expect(once[1]).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import {
  areaToPercent,
  areaToPixels,
  fitOnPage,
  MIN_AREA_SIDE,
  pixelsToArea,
  snapBox,
} from '../src/index.ts';

// Field areas (spec: Field area, fractions of the page, origin top left), shared by the signing
// page, the template editor and sealing.

describe('area geometry', () => {
  it('areaToPixels and pixelsToArea are inverses on a page of any size', () => {
    const a = { x: 0.125, y: 0.5, w: 0.25, h: 0.0625 };
    const px = areaToPixels(a, 816, 1056);
    expect(px).toEqual({ x: 102, y: 528, width: 204, height: 66 });
    expect(pixelsToArea(px, 816, 1056)).toEqual(a);
    expect(areaToPercent(a)).toEqual({ left: '12.5%', top: '50%', width: '25%', height: '6.25%' });
  });

  it('fitOnPage keeps a box on its page (x + w <= 1, y + h <= 1) with its size, and at least the smallest side', () => {
    expect(fitOnPage({ x: 0.9, y: -0.2, w: 0.3, h: 0.1 })).toEqual({ x: 0.7, y: 0, w: 0.3, h: 0.1 });
    expect(fitOnPage({ x: 0.5, y: 0.5, w: 0, h: -1 })).toEqual({
      x: 0.5,
      y: 0.5,
      w: MIN_AREA_SIDE,
      h: MIN_AREA_SIDE,
    });
    expect(fitOnPage({ x: 0, y: 0, w: 3, h: 2 })).toEqual({ x: 0, y: 0, w: 1, h: 1 });
    expect(fitOnPage({ x: 0.1234567891, y: 0.2, w: 0.3, h: 0.1 }).x).toBe(0.123457);
  });
});

describe('snapping to other fields (editor)', () => {
  const other = { x: 0.5, y: 0.4, w: 0.3, h: 0.05 };

  it('a moved box whose edge comes within the tolerance of another box\u2019s edge lines up with it', () => {
    expect(snapBox({ x: 0.504, y: 0.2, w: 0.2, h: 0.05 }, [other], 'move').x).toBe(0.5);
    // Its right edge to the other's right edge (0.8).
    expect(snapBox({ x: 0.597, y: 0.2, w: 0.2, h: 0.05 }, [other], 'move').x).toBeCloseTo(0.6, 6);
    // Its top to the other's bottom (0.45).
    expect(snapBox({ x: 0.1, y: 0.453, w: 0.2, h: 0.05 }, [other], 'move').y).toBeCloseTo(0.45, 6);
  });

  it('beyond the tolerance nothing moves; with no other boxes nothing moves', () => {
    const box = { x: 0.52, y: 0.2, w: 0.2, h: 0.05 };
    expect(snapBox(box, [other], 'move')).toEqual(box);
    expect(snapBox({ x: 0.504, y: 0.2, w: 0.2, h: 0.05 }, [], 'move').x).toBe(0.504);
  });

  it('resizing snaps the right and bottom edges only, keeping the top left corner', () => {
    const r = snapBox({ x: 0.1, y: 0.1, w: 0.697, h: 0.347 }, [other], 'resize');
    expect(r.x).toBe(0.1);
    expect(r.y).toBe(0.1);
    expect(r.w).toBeCloseTo(0.7, 6);
    expect(r.h).toBeCloseTo(0.35, 6);
  });
});

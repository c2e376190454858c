import type { Area, PageInfo } from './types.ts';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A field area (fractions of the page, origin top left) in pixels of a page drawn
 * `pageWidth` x `pageHeight`. Areas reaching past the page edge are cut at the edge.
 */
export function areaToPixels(area: Area, pageWidth: number, pageHeight: number): Box {
  const x = clamp(area.x, 0, 1);
  const y = clamp(area.y, 0, 1);
  const w = clamp(area.w, 0, 1 - x);
  const h = clamp(area.h, 0, 1 - y);
  return { x: x * pageWidth, y: y * pageHeight, width: w * pageWidth, height: h * pageHeight };
}

/** The same box as CSS percentages of the page element, so overlays scale with the page image. */
export function areaToPercent(area: Area): { left: string; top: string; width: string; height: string } {
  const b = areaToPixels(area, 100, 100);
  const pct = (v: number) => `${Math.round(v * 1000) / 1000}%`;
  return { left: pct(b.x), top: pct(b.y), width: pct(b.width), height: pct(b.height) };
}

/** Width over height of an area on its page (page sizes are in points). */
export function areaAspect(area: Area, page: Pick<PageInfo, 'width' | 'height'>): number {
  const b = areaToPixels(area, page.width, page.height);
  return b.height > 0 ? b.width / b.height : 1;
}

/** Scales (width, height) down to fit inside (maxWidth, maxHeight), keeping the ratio; never up. */
export function fitWithin(
  width: number,
  height: number,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Reading order of areas: document, page, then top to bottom, then left to right. */
export function compareAreas(a: Area, b: Area): number {
  return a.document - b.document || a.page - b.page || rowOrder(a, b) || a.x - b.x;
}

/** Areas whose tops are within half a line of each other count as one row. */
function rowOrder(a: Area, b: Area): number {
  return Math.abs(a.y - b.y) < Math.min(a.h, b.h) / 2 ? 0 : a.y - b.y;
}

/** Bounding box of strokes (points as fractions of the drawing surface), or null when empty. */
export function strokeBounds(strokes: ReadonlyArray<ReadonlyArray<readonly [number, number]>>): Box | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const s of strokes)
    for (const [x, y] of s) {
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  return minX === Infinity ? null : { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

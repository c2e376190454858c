/**
 * Where fields stand on pages, shared by the signing page and the template editor (so a field is
 * drawn where it was placed, and sealing's areaRect in packages/pdf reads the same numbers): an area
 * is fractions of its page, origin top left (spec: Field area), over the service's page images.
 */
export interface AreaBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A field area: its box, its 1-based page and 0-based document index. */
export interface Area extends AreaBox {
  page: number;
  document: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * A field area (fractions of the page, origin top left) in pixels of a page drawn
 * `pageWidth` x `pageHeight`. Areas reaching past the page edge are cut at the edge.
 */
export function areaToPixels(area: AreaBox, pageWidth: number, pageHeight: number): Box {
  const x = clamp(area.x, 0, 1);
  const y = clamp(area.y, 0, 1);
  const w = clamp(area.w, 0, 1 - x);
  const h = clamp(area.h, 0, 1 - y);
  return { x: x * pageWidth, y: y * pageHeight, width: w * pageWidth, height: h * pageHeight };
}

/** The same box as CSS percentages of the page element, so overlays scale with the page image. */
export function areaToPercent(area: AreaBox): { left: string; top: string; width: string; height: string } {
  const b = areaToPixels(area, 100, 100);
  const pct = (v: number) => `${Math.round(v * 1000) / 1000}%`;
  return { left: pct(b.x), top: pct(b.y), width: pct(b.width), height: pct(b.height) };
}

/** The inverse of areaToPixels: a box in pixels of a page drawn `pageWidth` x `pageHeight`. */
export function pixelsToArea(box: Box, pageWidth: number, pageHeight: number): AreaBox {
  return fitOnPage({
    x: box.x / pageWidth,
    y: box.y / pageHeight,
    w: box.width / pageWidth,
    h: box.height / pageHeight,
  });
}

/** Smallest field side the editor makes, as a fraction of the page (about 5 pt on a letter page). */
export const MIN_AREA_SIDE = 0.008;

/**
 * The box kept on its page and at least MIN_AREA_SIDE on each side; a box moved past an edge stops
 * at it, keeping its size (spec: x, y in 0..1; w, h in (0, 1]; x + w and y + h at most 1).
 */
export function fitOnPage(a: AreaBox): AreaBox {
  const w = clamp(a.w, MIN_AREA_SIDE, 1);
  const h = clamp(a.h, MIN_AREA_SIDE, 1);
  return { x: round(clamp(a.x, 0, 1 - w)), y: round(clamp(a.y, 0, 1 - h)), w: round(w), h: round(h) };
}

/** Six decimals: a millionth of a page is far below a pixel and keeps saved numbers short. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** Width over height of an area on its page (page sizes are in points). */
export function areaAspect(area: AreaBox, page: { width: number; height: number }): number {
  const b = areaToPixels(area, page.width, page.height);
  return b.height > 0 ? b.width / b.height : 1;
}

/** Reading order of areas: document, page, then top to bottom, then left to right. */
export function compareAreas(a: Area, b: Area): number {
  return a.document - b.document || a.page - b.page || rowOrder(a, b) || a.x - b.x;
}

/** Areas whose tops are within half a line of each other count as one row. */
function rowOrder(a: Area, b: Area): number {
  return Math.abs(a.y - b.y) < Math.min(a.h, b.h) / 2 ? 0 : a.y - b.y;
}

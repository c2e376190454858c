/**
 * Page geometry: the visible box (CropBox ∩ MediaBox), /Rotate, and the mapping from PDF user
 * space (origin bottom-left, y up) to the displayed page (rotation applied, origin top-left,
 * y down) that field areas are expressed in.
 */
import type { PdfDict } from '@libpdf/core';
import { asDict, get, numbers, type ObjCtx } from './pdf-objects.ts';
import type { FieldArea } from './types.ts';

export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 × m2 in PDF's row-vector convention (apply m1 first, then m2). */
export function mul(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];
}

export interface PageGeometry {
  /** Visible region in user space: [x0, y0, x1, y1], normalised. */
  view: [number, number, number, number];
  rotate: 0 | 90 | 180 | 270;
  /** Displayed size in points (rotation applied). */
  width: number;
  height: number;
}

const LETTER: [number, number, number, number] = [0, 0, 612, 792];
const MAX_INHERIT_DEPTH = 64;

/** An inheritable page attribute (ISO 32000-1 §7.7.3.4): looks up the /Parent chain. */
export function inherited(ctx: ObjCtx, page: PdfDict, key: string) {
  let node: PdfDict | undefined = page;
  for (let i = 0; node && i < MAX_INHERIT_DEPTH; i++) {
    const v = get(ctx, node, key);
    if (v !== undefined) return v;
    node = asDict(get(ctx, node, 'Parent'));
  }
  return undefined;
}

function readBox(ctx: ObjCtx, page: PdfDict, key: string): [number, number, number, number] | undefined {
  const v = inherited(ctx, page, key);
  const n = v && v.type === 'array' ? numbers(ctx, v) : undefined;
  if (n?.length !== 4) return undefined;
  const box: [number, number, number, number] = [
    Math.min(n[0]!, n[2]!),
    Math.min(n[1]!, n[3]!),
    Math.max(n[0]!, n[2]!),
    Math.max(n[1]!, n[3]!),
  ];
  return box[2] - box[0] > 0 && box[3] - box[1] > 0 ? box : undefined;
}

export function pageGeometry(ctx: ObjCtx, page: PdfDict): PageGeometry {
  const media = readBox(ctx, page, 'MediaBox') ?? LETTER;
  const crop = readBox(ctx, page, 'CropBox');
  let view = media;
  if (crop) {
    const x0 = Math.max(media[0], crop[0]);
    const y0 = Math.max(media[1], crop[1]);
    const x1 = Math.min(media[2], crop[2]);
    const y1 = Math.min(media[3], crop[3]);
    // Viewers fall back to the MediaBox when the CropBox does not overlap it.
    if (x1 > x0 && y1 > y0) view = [x0, y0, x1, y1];
  }
  const r = inherited(ctx, page, 'Rotate');
  let rot = r && r.type === 'number' && Number.isFinite(r.value) ? Math.round(r.value) : 0;
  rot = ((rot % 360) + 360) % 360;
  const rotate = (rot % 90 === 0 ? rot : 0) as 0 | 90 | 180 | 270;
  const w = view[2] - view[0];
  const h = view[3] - view[1];
  const swap = rotate === 90 || rotate === 270;
  return { view, rotate, width: swap ? h : w, height: swap ? w : h };
}

/** User-space point → displayed page point (points from the top-left corner). */
function toDisplay(g: PageGeometry, x: number, y: number): [number, number] {
  const [x0, y0, x1, y1] = g.view;
  switch (g.rotate) {
    case 90:
      return [y - y0, x - x0];
    case 180:
      return [x1 - x, y - y0];
    case 270:
      return [y1 - y, x1 - x];
    default:
      return [x - x0, y1 - y];
  }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * Axis-aligned displayed rectangle (points, top-left origin) → area fractions, clipped to the
 * page. Returns null when nothing of it is visible.
 */
export function displayRectToArea(
  g: PageGeometry,
  page: number,
  left: number,
  top: number,
  right: number,
  bottom: number,
): FieldArea | null {
  const l = Math.max(0, Math.min(left, right));
  const t = Math.max(0, Math.min(top, bottom));
  const r = Math.min(g.width, Math.max(left, right));
  const b = Math.min(g.height, Math.max(top, bottom));
  if (!(r > l) || !(b > t)) return null;
  return {
    page,
    x: round6(l / g.width),
    y: round6(t / g.height),
    w: round6((r - l) / g.width),
    h: round6((b - t) / g.height),
  };
}

/** Bounding box, in displayed points, of user-space points given as [x, y, x, y, ...]. */
export function displayBounds(g: PageGeometry, pts: number[]): [number, number, number, number] {
  let l = Number.POSITIVE_INFINITY;
  let t = Number.POSITIVE_INFINITY;
  let r = Number.NEGATIVE_INFINITY;
  let b = Number.NEGATIVE_INFINITY;
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const [u, v] = toDisplay(g, pts[i]!, pts[i + 1]!);
    l = Math.min(l, u);
    r = Math.max(r, u);
    t = Math.min(t, v);
    b = Math.max(b, v);
  }
  return [l, t, r, b];
}

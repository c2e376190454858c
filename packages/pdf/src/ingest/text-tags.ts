/**
 * Finds text tags in the glyphs of one page, turns each into a field area and marks its glyphs
 * for removal.
 *
 * Glyphs are taken in content-stream order and cut into lines wherever the next glyph does not
 * continue the previous one on the same baseline (see `continuesLine`), so a tag split over
 * several operations, fonts or text objects is still found, while text from different lines is
 * never joined into one tag.
 */

import { addRemoval, type OpRemoval } from './content/rewrite.ts';
import {
  type ContentTarget,
  emSize,
  type Glyph,
  type GlyphSeq,
  glyphBaseline,
  glyphCorners,
} from './content/text-scan.ts';
import { DocumentInputError } from './errors.ts';
import { displayBounds, displayRectToArea, type PageGeometry } from './geometry.ts';
import { parseTag, type TagSpec } from './tags.ts';
import type { FieldArea } from './types.ts';

export interface TagOccurrence {
  spec: TagSpec;
  area: FieldArea;
  /** The tag as written, for messages. */
  text: string;
}

export type Removals = Map<ContentTarget, Map<number, OpRemoval>>;

export interface FindTagsOptions {
  page: number;
  geometry: PageGeometry;
  strict: boolean;
  warn: (message: string) => void;
  removals: Removals;
}

/** How far a glyph may sit off the previous glyph's baseline, in ems, and still be on its line. */
const MAX_BASELINE_SHIFT_EM = 0.5;
/** Largest backward step (overlap) and forward gap, in ems, between consecutive glyphs of a line. */
const MAX_BACKSTEP_EM = 1;
const MAX_GAP_EM = 25;

function continuesLine(prev: Glyph, g: Glyph): boolean {
  const size = Math.max(emSize(prev.run), emSize(g.run));
  if (!(size > 0)) return false;
  const [pa, pb] = [prev.run.m[0], prev.run.m[1]];
  const [ga, gb] = [g.run.m[0], g.run.m[1]];
  const pl = Math.hypot(pa, pb);
  const gl = Math.hypot(ga, gb);
  if (!(pl > 0) || !(gl > 0)) return false;
  const dx = pa / pl;
  const dy = pb / pl;
  if ((dx * ga + dy * gb) / gl < 0.98) return false; // direction changed
  const [, , ex, ey] = glyphBaseline(prev);
  const [ox, oy] = glyphBaseline(g);
  const deltaX = ox - ex;
  const deltaY = oy - ey;
  const along = deltaX * dx + deltaY * dy;
  const perp = Math.abs(dx * deltaY - dy * deltaX);
  return (
    perp <= MAX_BASELINE_SHIFT_EM * size && along >= -MAX_BACKSTEP_EM * size && along <= MAX_GAP_EM * size
  );
}

export function splitLines(seq: GlyphSeq): Glyph[][] {
  const lines: Glyph[][] = [];
  let cur: Glyph[] = [];
  let prev: Glyph | null = null;
  for (const g of seq) {
    if (g === null || (prev && !continuesLine(prev, g))) {
      if (cur.length > 0) lines.push(cur);
      cur = [];
    }
    if (g) cur.push(g);
    prev = g;
  }
  if (cur.length > 0) lines.push(cur);
  return lines;
}

const shorten = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Quick check before building line strings: does the page show "{{" at all? */
function mayHaveTags(seq: GlyphSeq): boolean {
  let prevBrace = false;
  for (const g of seq) {
    const ch = g?.ch ?? '';
    const isBrace = ch.includes('{');
    if (isBrace && (prevBrace || ch.includes('{{'))) return true;
    prevBrace = isBrace;
  }
  return false;
}

export function findTags(seq: GlyphSeq, o: FindTagsOptions): TagOccurrence[] {
  if (!mayHaveTags(seq)) return [];
  const found: TagOccurrence[] = [];
  const problem = (message: string) => {
    if (o.strict) throw new DocumentInputError('invalid_field', message);
    o.warn(message);
  };
  for (const line of splitLines(seq)) {
    let text = '';
    const owner: number[] = [];
    line.forEach((g, i) => {
      const ch = g.ch === '' ? '\uFFFD' : g.ch;
      text += ch;
      for (let k = 0; k < ch.length; k++) owner.push(i);
    });
    let from = 0;
    for (;;) {
      const open = text.indexOf('{{', from);
      if (open < 0) break;
      const close = text.indexOf('}}', open + 2);
      if (close < 0) {
        problem(
          `Page ${o.page}: text tag "${shorten(text.slice(open))}" has no closing "}}" and was left as text`,
        );
        break;
      }
      const raw = text.slice(open, close + 2);
      from = close + 2;
      if (raw.includes('\uFFFD')) {
        problem(
          `Page ${o.page}: text tag "${shorten(raw)}" was skipped: its font does not say which characters it shows`,
        );
        continue;
      }
      const parsed = parseTag(text.slice(open + 2, close));
      for (const note of parsed.notes) o.warn(`Page ${o.page}: text tag "${shorten(raw)}": ${note}`);
      if (!parsed.ok) {
        problem(`Page ${o.page}: text tag "${shorten(raw)}" was skipped: ${parsed.error}`);
        continue;
      }
      const glyphs = line.slice(owner[open]!, owner[close + 1]! + 1);
      const pts: number[] = [];
      for (const g of glyphs) pts.push(...glyphCorners(g));
      const [l, t, r, b] = displayBounds(o.geometry, pts);
      const spec = parsed.tag;
      const area = displayRectToArea(
        o.geometry,
        o.page,
        l,
        t,
        spec.width !== undefined ? l + spec.width : r,
        spec.height !== undefined ? t + spec.height : b,
      );
      if (!area) {
        o.warn(`Page ${o.page}: text tag "${shorten(raw)}" lies outside the visible page and was skipped`);
        continue;
      }
      let removable = true;
      for (const g of glyphs) if (!Number.isFinite(g.adj)) removable = false;
      if (removable) {
        for (const g of glyphs) {
          let m = o.removals.get(g.site.target);
          if (!m) {
            m = new Map();
            o.removals.set(g.site.target, m);
          }
          addRemoval(m, g);
        }
      } else {
        o.warn(`Page ${o.page}: text tag "${shorten(raw)}" is drawn at font size 0 and could not be removed`);
      }
      if (glyphs.every((g) => g.run.invisible))
        o.warn(
          `Page ${o.page}: text tag "${shorten(raw)}" is invisible text (an OCR layer?); the field was added, but a tag visible in a scanned image stays visible`,
        );
      found.push({ spec, area, text: raw });
    }
  }
  return found;
}

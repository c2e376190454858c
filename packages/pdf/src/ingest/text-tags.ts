/**
 * Finds text tags in the glyphs of one page, turns each into a field area and marks its glyphs
 * for removal.
 *
 * Glyphs are taken in content-stream order and cut into lines wherever the next glyph does not
 * continue the previous one on the same baseline (see `continuesLine`), so a tag split over
 * several operations, fonts or text objects is still found, while text from different lines is
 * never joined into one tag, except a tag a PDF producer wrapped onto the next lines (see
 * `wrapEnd`), which is joined back.
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
import { type GrowthSpec, growInto, type Rect } from './tag-space.ts';
import { parseTag, TAG_DEFAULT_SIZES, TAG_MIN_HEIGHTS, type TagSpec } from './tags.ts';
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

function splitLines(seq: GlyphSeq): Glyph[][] {
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

/** A line's text with, for each UTF-16 unit, the index of the glyph that shows it. */
interface LineText {
  glyphs: Glyph[];
  text: string;
  owner: number[];
  /** glyph indexes where a wrapped continuation line starts */
  breaks: number[];
}

function appendGlyphs(line: LineText, glyphs: Glyph[]): void {
  for (const g of glyphs) {
    const ch = g.ch === '' ? '\uFFFD' : g.ch;
    line.text += ch;
    for (let k = 0; k < ch.length; k++) line.owner.push(line.glyphs.length);
    line.glyphs.push(g);
  }
}

/** Index of a `{{` on the line that has no `}}` after it, or -1. */
function unclosedOpen(text: string): number {
  const open = text.lastIndexOf('{{');
  return open >= 0 && text.indexOf('}}', open + 2) < 0 ? open : -1;
}

/** How many following lines a wrapped tag may continue on, and its longest joined length. */
const MAX_WRAPPED_LINES = 2;
const MAX_WRAPPED_CHARS = 300;

/**
 * Where a tag left open at the end of `line` (physical line `i`) closes: a PDF producer wrapped it
 * (Chromium breaks `{{Full name;role=Tenant}}` at the space when the column is narrow). Each
 * following line must start right below the previous one, open no other tag first, and one of the
 * next MAX_WRAPPED_LINES must close it. Returns that line's index, or -1.
 */
function wrapEnd(lines: Glyph[][], i: number, line: LineText): number {
  const open = unclosedOpen(line.text);
  if (open < 0) return -1;
  let length = line.text.length - open;
  let prev = lines[i]!;
  for (let j = i + 1; j <= i + MAX_WRAPPED_LINES && j < lines.length; j++) {
    const next = lines[j]!;
    if (!next.length || !isNextLine(prev[prev.length - 1]!, next[0]!)) return -1;
    const text = next.map((g) => g.ch).join('');
    length += text.length;
    if (length > MAX_WRAPPED_CHARS) return -1;
    const close = text.indexOf('}}');
    const nextOpen = text.indexOf('{{');
    if (nextOpen >= 0 && (close < 0 || nextOpen < close)) return -1;
    if (close >= 0) return j;
    prev = next;
  }
  return -1;
}

/** `g` starts the line right below `prev`'s (same direction, 0.5 to 3 ems further down). */
function isNextLine(prev: Glyph, g: Glyph): boolean {
  const size = Math.max(emSize(prev.run), emSize(g.run));
  const [pa, pb] = [prev.run.m[0], prev.run.m[1]];
  const pl = Math.hypot(pa, pb);
  if (!(size > 0) || !(pl > 0)) return false;
  const [dx, dy] = [pa / pl, pb / pl];
  const [, , ex, ey] = glyphBaseline(prev);
  const [ox, oy] = glyphBaseline(g);
  const down = -(dx * (oy - ey) - dy * (ox - ex));
  return down >= 0.5 * size && down <= 3 * size;
}

/** The lines to search, with each tag a producer wrapped joined back into one line. */
function logicalLines(seq: GlyphSeq): LineText[] {
  const lines = splitLines(seq);
  const out: LineText[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line: LineText = { glyphs: [], text: '', owner: [], breaks: [] };
    appendGlyphs(line, lines[i]!);
    for (let end = wrapEnd(lines, i, line); end > i; end = wrapEnd(lines, i, line)) {
      while (i < end) {
        // The break was a space the producer did not draw (or a hyphen it kept).
        if (!/[\s-]$/.test(line.text)) {
          line.text += ' ';
          line.owner.push(line.glyphs.length - 1);
        }
        line.breaks.push(line.glyphs.length);
        appendGlyphs(line, lines[++i]!);
      }
    }
    out.push(line);
  }
  return out;
}

/** Types drawn as one picture (or typed name) in the box: a tag gets TAG_DEFAULT_SIZES for them. */
const noText = (spec: TagSpec) => TAG_DEFAULT_SIZES[spec.type] !== undefined || spec.type === 'checkbox';

/**
 * The box a tag's field wants, before what is around it is looked at: the tag's own box (a
 * wrapped tag: from where it starts on its first line down to its last line, so the label before
 * it stays uncovered); `width`/`height` from its top-left corner; signature, initials, image and
 * stamp fields without them at least TAG_DEFAULT_SIZES; a field holding text tall enough for a
 * line at the tag's font size (the seal draws it at that size); a checkbox without `width` a
 * square as tall as the box.
 */
function tagGrowth(o: FindTagsOptions, spec: TagSpec, glyphs: Glyph[], firstLine: Glyph[]): GrowthSpec {
  const corners = (gs: Glyph[]) => gs.flatMap((g) => glyphCorners(g));
  const [, t, r, b] = displayBounds(o.geometry, corners(glyphs));
  const [l] = displayBounds(o.geometry, corners(firstLine));
  const size = TAG_DEFAULT_SIZES[spec.type];
  let right = spec.width !== undefined ? l + spec.width : size ? Math.max(r, l + size.width) : r;
  const textHeight = noText(spec) ? 0 : TEXT_LINE_EM * tagFontSize(glyphs);
  const bottom = t + (spec.height ?? Math.max(b - t, size?.height ?? 0, textHeight));
  // A checkbox is a square as tall as its tag's line, at the tag's start (not the tag's width).
  if (spec.type === 'checkbox' && spec.width === undefined) right = l + (bottom - t);
  const own: Rect = [l, t, Math.min(r, right), Math.min(b, bottom)];
  const min = spec.height === undefined ? TAG_MIN_HEIGHTS[spec.type] : undefined;
  return {
    own,
    want: [l, t, right, bottom],
    fixedRight: spec.width !== undefined || spec.type === 'checkbox',
    fixedBottom: spec.height !== undefined || spec.type === 'checkbox',
    ...(min !== undefined && { minBottom: t + min }),
  };
}

/**
 * Height of a line of text, in ems, that a field holding text wants: what the seal needs to draw
 * one line at the tag's font size (its ascent and descent, 1.2 em).
 */
const TEXT_LINE_EM = 1.2;

/** The font size the tag is written at: its largest glyph's em, in points. */
function tagFontSize(glyphs: Glyph[]): number {
  return Math.max(0, ...glyphs.map((g) => emSize(g.run)));
}

/** Marks a tag's glyphs for removal from the page; false when they cannot be cut out. */
function removeTag(o: FindTagsOptions, glyphs: Glyph[]): boolean {
  if (!glyphs.every((g) => Number.isFinite(g.adj))) return false;
  for (const g of glyphs) {
    let m = o.removals.get(g.site.target);
    if (!m) {
      m = new Map();
      o.removals.set(g.site.target, m);
    }
    addRemoval(m, g);
  }
  return true;
}

/** One tag found at [open, close] of the line: parsed, placed, marked for removal. */
function takeTag(
  o: FindTagsOptions,
  line: LineText,
  open: number,
  close: number,
  problem: (m: string) => void,
) {
  const raw = line.text.slice(open, close + 2);
  if (raw.includes('\uFFFD')) {
    problem(
      `Page ${o.page}: text tag "${shorten(raw)}" was skipped: its font does not say which characters it shows`,
    );
    return null;
  }
  const parsed = parseTag(line.text.slice(open + 2, close));
  for (const note of parsed.notes) o.warn(`Page ${o.page}: text tag "${shorten(raw)}": ${note}`);
  if (!parsed.ok) {
    problem(`Page ${o.page}: text tag "${shorten(raw)}" was skipped: ${parsed.error}`);
    return null;
  }
  const first = line.owner[open]!;
  const last = line.owner[close + 1]!;
  const glyphs = line.glyphs.slice(first, last + 1);
  const wrapAt = line.breaks.find((at) => at > first && at <= last);
  const firstLine = wrapAt === undefined ? glyphs : line.glyphs.slice(first, wrapAt);
  const growth = tagGrowth(o, parsed.tag, glyphs, firstLine);
  if (!displayRectToArea(o.geometry, o.page, ...growth.want)) {
    o.warn(`Page ${o.page}: text tag "${shorten(raw)}" lies outside the visible page and was skipped`);
    return null;
  }
  if (!removeTag(o, glyphs))
    o.warn(`Page ${o.page}: text tag "${shorten(raw)}" is drawn at font size 0 and could not be removed`);
  if (glyphs.every((g) => g.run.invisible))
    o.warn(
      `Page ${o.page}: text tag "${shorten(raw)}" is invisible text (an OCR layer?); the field was added, but a tag visible in a scanned image stays visible`,
    );
  const fontSize = noText(parsed.tag) ? undefined : tagFontSize(glyphs);
  return { spec: parsed.tag, text: raw, glyphs, growth, fontSize };
}

/** A tag found on the page, waiting for its field's box. */
type FoundTag = NonNullable<ReturnType<typeof takeTag>>;

/** What a field may not cover: the page's other text (each glyph's box but white space). */
function textObstacles(seq: GlyphSeq, o: FindTagsOptions, tags: FoundTag[]): Rect[] {
  const inTags = new Set(tags.flatMap((t) => t.glyphs));
  const out: Rect[] = [];
  for (const g of seq) {
    if (!g || inTags.has(g) || (g.ch !== '' && g.ch.trim() === '')) continue;
    const box = displayBounds(o.geometry, glyphCorners(g));
    if (box[2] > box[0] && box[3] > box[1]) out.push(box);
  }
  return out;
}

/**
 * Every tag's field box (issue 33 item 2), in reading order: each grows from its tag into the
 * space it has, never over the page's other text, over a later tag, or over an earlier field.
 */
function placeTags(seq: GlyphSeq, o: FindTagsOptions, tags: FoundTag[]): TagOccurrence[] {
  if (tags.length === 0) return [];
  const text = textObstacles(seq, o, tags);
  const order = [...tags].sort(
    (a, b) => a.growth.own[1] - b.growth.own[1] || a.growth.own[0] - b.growth.own[0],
  );
  const boxes = new Map<FoundTag, Rect>();
  order.forEach((tag, i) => {
    const later = order.slice(i + 1).map((t) => t.growth.own);
    boxes.set(tag, growInto(tag.growth, [...boxes.values(), ...later], text));
  });
  return tags.map((tag) => {
    // Never null: the box holds the tag's own box, which takeTag found visible.
    const area = displayRectToArea(o.geometry, o.page, ...boxes.get(tag)!)!;
    if (tag.fontSize) area.fontSize = Math.round(tag.fontSize * 100) / 100;
    return { spec: tag.spec, area, text: tag.text };
  });
}

export function findTags(seq: GlyphSeq, o: FindTagsOptions): TagOccurrence[] {
  if (!mayHaveTags(seq)) return [];
  const found: FoundTag[] = [];
  const problem = (message: string) => {
    if (o.strict) throw new DocumentInputError('invalid_field', message);
    o.warn(message);
  };
  for (const line of logicalLines(seq)) {
    let from = 0;
    for (;;) {
      const open = line.text.indexOf('{{', from);
      if (open < 0) break;
      const close = line.text.indexOf('}}', open + 2);
      if (close < 0) {
        problem(
          `Page ${o.page}: text tag "${shorten(line.text.slice(open))}" has no closing "}}" and was left as text`,
        );
        break;
      }
      from = close + 2;
      const tag = takeTag(o, line, open, close, problem);
      if (tag) found.push(tag);
    }
  }
  return placeTags(seq, o, found);
}

import bidiModule, { type Bidi } from 'bidi-js';
import type * as fontkit from 'fontkit';
import { type FaceId, faceForCodePoint, faceWithGlyph, loadFace } from './fonts.ts';

/**
 * Text shaping and line layout.
 *
 * A string is split into runs by bidi embedding level (Unicode Bidirectional Algorithm via bidi-js)
 * and by font face (chosen per character by script, with neutrals such as spaces and digits joining
 * the surrounding run). Each run is shaped by fontkit with the run's direction, which applies the
 * font's OpenType features: Arabic joining forms and ligatures, GPOS kerning and mark placement.
 * Runs are then put in visual order (rule L2); mirrored characters such as brackets are swapped in
 * right-to-left runs.
 *
 * Widths are kept in em (font size 1) so that fitting a text to a box at another size is arithmetic.
 */

export type TextStyle = 'regular' | 'bold' | 'italic';

interface ShapedGlyph {
  glyph: fontkit.Glyph;
  /** em */
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}

interface ShapedRun {
  face: FaceId;
  glyphs: ShapedGlyph[];
}

export interface ShapedLine {
  runs: ShapedRun[];
  /** em */
  width: number;
  /** Resolved paragraph direction: right-to-left lines align right by default. */
  rtl: boolean;
}

// bidi-js ships CommonJS with ESM-style typings: the factory is the module itself at run time.
const bidiFactory = ((bidiModule as unknown as { default?: () => Bidi }).default ??
  bidiModule) as unknown as () => Bidi;
const bidi = bidiFactory();

const latinFace: Record<TextStyle, FaceId> = { regular: 'sans', bold: 'sansBold', italic: 'sansItalic' };

interface LogicalRun {
  face: FaceId;
  level: number;
  text: string;
}

function logicalRuns(text: string, style: TextStyle): { runs: LogicalRun[]; rtl: boolean } {
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text);
  const rtl = (paragraphs[0]?.level ?? 0) % 2 === 1;
  const latin = latinFace[style];

  // Face per code point; neutrals take the face of the previous (or next) character.
  const units: { index: number; cp: number; face: FaceId | null }[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    units.push({ index: i, cp, face: faceForCodePoint(cp, latin) });
    i += cp > 0xffff ? 2 : 1;
  }
  let prev: FaceId | null = null;
  for (const u of units) {
    if (u.face === null) u.face = prev;
    else prev = u.face;
  }
  let next: FaceId = latin;
  for (let k = units.length - 1; k >= 0; k--) {
    const u = units[k]!;
    if (u.face === null) u.face = next;
    else next = u.face;
  }

  const runs: LogicalRun[] = [];
  for (const u of units) {
    const face = faceWithGlyph(u.cp, u.face!);
    const level = levels[u.index] ?? 0;
    let ch = String.fromCodePoint(u.cp);
    if (level % 2 === 1) ch = bidi.getMirroredCharacter(ch) ?? ch;
    const last = runs[runs.length - 1];
    if (last && last.face === face && last.level === level) last.text += ch;
    else runs.push({ face, level, text: ch });
  }
  return { runs, rtl };
}

/** Orders runs visually: from the highest level down to the lowest odd level, reverse every sequence at or above it. */
function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  const out = runs.slice();
  if (out.length < 2) return out;
  const maxLevel = Math.max(...out.map((r) => r.level));
  const minOdd = Math.min(...out.map((r) => (r.level % 2 === 1 ? r.level : r.level + 1)));
  for (let level = maxLevel; level >= minOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level >= level) {
        let j = i;
        while (j + 1 < out.length && out[j + 1]!.level >= level) j++;
        const reversed = out.slice(i, j + 1).reverse();
        out.splice(i, reversed.length, ...reversed);
        i = j + 1;
      } else {
        i++;
      }
    }
  }
  return out;
}

/** Shapes one line of text (no line breaks) into visually ordered runs. */
export function shapeLine(text: string, style: TextStyle = 'regular'): ShapedLine {
  const { runs, rtl } = logicalRuns(text, style);
  const shaped: (ShapedRun & { level: number })[] = [];
  let width = 0;
  for (const run of runs) {
    const face = loadFace(run.face);
    const upm = face.unitsPerEm;
    const result = face.layout(
      run.text,
      undefined,
      undefined,
      undefined,
      run.level % 2 === 1 ? 'rtl' : 'ltr',
    );
    const glyphs: ShapedGlyph[] = result.glyphs.map((glyph, i) => {
      const pos = result.positions[i]!;
      return {
        glyph,
        xAdvance: pos.xAdvance / upm,
        xOffset: pos.xOffset / upm,
        yOffset: pos.yOffset / upm,
      };
    });
    for (const g of glyphs) width += g.xAdvance;
    shaped.push({ face: run.face, glyphs, level: run.level });
  }
  return { runs: visualOrder(shaped).map(({ face, glyphs }) => ({ face, glyphs })), width, rtl };
}

const shapedCache = new Map<string, ShapedLine>();

/**
 * shapeLine, remembered: measuring a text (to wrap or fit it) and then drawing it shape it once,
 * and words repeat a lot in the audit trail. Shaped lines are read-only once made.
 */
function shaped(text: string, style: TextStyle): ShapedLine {
  const key = `${style}\u0000${text}`;
  let line = shapedCache.get(key);
  if (line === undefined) {
    line = latinLine(text, style) ?? shapeLine(text, style);
    if (shapedCache.size > 5000) shapedCache.clear();
    shapedCache.set(key, line);
  }
  return line;
}

/** Advance widths (em) of the Latin faces' glyphs by code point; null when the face has none. */
const advances = new Map<TextStyle, Map<number, number | null>>();

/**
 * The width in em of a text made only of Latin-1 and Latin Extended-A letters, digits and
 * punctuation (no bidi, no combining marks, one face), as the sum of its glyphs' advances;
 * undefined for any other text. Shaping is what costs in a seal (fontkit's layout for every word
 * and line measured while wrapping and fitting); for these texts it changes a width only by
 * kerning, which narrows a line by a few hundredths of an em, so a text measured this way still
 * fits once drawn shaped.
 */
function latinWidth(text: string, style: TextStyle): number | undefined {
  let table = advances.get(style);
  if (!table) {
    table = new Map();
    advances.set(style, table);
  }
  let face: fontkit.Font | undefined;
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.charCodeAt(i);
    if (cp < 0x20 || (cp > 0x7e && cp < 0xa0) || cp > 0x17f) return undefined;
    let advance = table.get(cp);
    if (advance === undefined) {
      face ??= loadFace(latinFace[style]);
      advance = face.hasGlyphForCodePoint(cp)
        ? face.glyphForCodePoint(cp).advanceWidth / face.unitsPerEm
        : null;
      table.set(cp, advance);
    }
    if (advance === null) return undefined;
    width += advance;
  }
  return width;
}

/**
 * A line of the texts latinWidth measures, laid out glyph by glyph from the Latin face: their
 * shaping by fontkit would add only pair kerning and ligatures, and costs about 0.1 ms a line, the
 * largest part of drawing a seal's values. Any other text is shaped (see shapeLine).
 */
function latinLine(text: string, style: TextStyle): ShapedLine | undefined {
  const width = text.length > 0 ? latinWidth(text, style) : undefined;
  if (width === undefined) return undefined;
  const face = loadFace(latinFace[style]);
  const glyphs: ShapedGlyph[] = [];
  for (let i = 0; i < text.length; i++) {
    const glyph = face.glyphForCodePoint(text.charCodeAt(i));
    glyphs.push({ glyph, xAdvance: glyph.advanceWidth / face.unitsPerEm, xOffset: 0, yOffset: 0 });
  }
  return { runs: [{ face: latinFace[style], glyphs }], width, rtl: false };
}

/** Width of a text in em. */
export function measure(text: string, style: TextStyle = 'regular'): number {
  return latinWidth(text, style) ?? shaped(text, style).width;
}

/** Line ascent/descent of the faces in em, for vertical placement. */
export const ASCENT = 0.95;
export const DESCENT = 0.25;
export const LINE_HEIGHT = 1.25;

/**
 * Breaks text into lines no wider than `maxWidth` points at `size`. Explicit newlines are kept;
 * words wider than a line are broken between characters (CJK text has no spaces to break at).
 */
export function wrapText(
  text: string,
  size: number,
  maxWidth: number,
  style: TextStyle = 'regular',
): string[] {
  const limit = maxWidth / size;
  const lines: string[] = [];
  const space = measure(' ', style);
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    const words = paragraph.split(/ +/).filter((w, _i, all) => w.length > 0 || all.length === 1);
    let line = '';
    let lineWidth = 0;
    for (const word of words) {
      const w = measure(word, style);
      if (line && lineWidth + space + w <= limit) {
        line += ` ${word}`;
        lineWidth += space + w;
        continue;
      }
      if (line) lines.push(line);
      if (w <= limit) {
        line = word;
        lineWidth = w;
        continue;
      }
      // Break an over-long word between characters (graphemes).
      line = '';
      lineWidth = 0;
      for (const { segment } of graphemes(word)) {
        const cw = measure(segment, style);
        if (line && lineWidth + cw > limit) {
          lines.push(line);
          line = '';
          lineWidth = 0;
        }
        line += segment;
        lineWidth += cw;
      }
    }
    lines.push(line);
  }
  return lines;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function graphemes(text: string): Intl.SegmentData[] {
  return Array.from(segmenter.segment(text));
}

export interface FittedText {
  lines: ShapedLine[];
  size: number;
}

/**
 * Largest font size (<= maxSize) at which the text fits the box, wrapping when `multiline`.
 * Below minSize the text is laid out at minSize anyway (and clipped by the caller).
 */
export function fitText(
  text: string,
  box: { w: number; h: number },
  opts: { maxSize: number; minSize?: number; multiline?: boolean; style?: TextStyle },
): FittedText {
  const style = opts.style ?? 'regular';
  const minSize = Math.min(opts.minSize ?? 4, opts.maxSize);
  let size = opts.maxSize;
  for (;;) {
    const raw = opts.multiline ? wrapText(text, size, box.w, style) : [text.replace(/\s*[\r\n]+\s*/g, ' ')];
    const height = size * (ASCENT + DESCENT) + (raw.length - 1) * size * LINE_HEIGHT;
    const widest = Math.max(...raw.map((l) => measure(l, style))) * size;
    if ((height <= box.h && widest <= box.w + 0.01) || size <= minSize) {
      return { lines: raw.map((l) => shaped(l, style)), size };
    }
    const byWidth = widest > box.w ? (size * box.w) / widest : size;
    size = Math.max(minSize, Math.min(size * 0.92, opts.multiline ? size * 0.92 : byWidth));
  }
}

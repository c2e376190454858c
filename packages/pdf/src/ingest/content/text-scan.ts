/**
 * Content-stream interpreter that records every shown glyph with its Unicode text, its position
 * in user space and the exact operation and bytes that drew it (ISO 32000-1 §8.4, §9.3, §9.4).
 *
 * pdf.js text content (the obvious tool) cannot be mapped back to content-stream operations and
 * only gives whole-item widths, so it can neither remove a tag's text nor place a tag that sits
 * in the middle of a run precisely. Interpreting the stream once gives both.
 */
import type { PdfDict, PdfStream } from '@libpdf/core';
import { apply, IDENTITY, type Matrix, mul } from '../geometry.ts';
import {
  asDict,
  asNumber,
  asStream,
  decodeStream,
  get,
  getArray,
  getDict,
  getName,
  items,
  numbers,
  type ObjCtx,
} from '../pdf-objects.ts';
import { type FontInfo, loadFont, UNUSABLE_FONT } from './fonts.ts';
import { type CsOp, type CsValue, parseOperations } from './lexer.ts';

/** A content stream being scanned: the page's contents, or a form XObject (shared by all uses). */
export interface ContentTarget {
  kind: 'page' | 'form';
  bytes: Uint8Array;
  stream?: PdfStream;
}

/** One text-showing operation (Tj, TJ, ' or ") in a target, with the text state it ran under. */
export interface ShowSite {
  target: ContentTarget;
  op: CsOp;
}

/** Geometry shared by the glyphs of one shown string. */
export interface TextRun {
  /** Text matrix × CTM at the start of the string. */
  m: Matrix;
  tfs: number;
  th: number;
  rise: number;
  font: FontInfo;
  /** Text rendering mode 3 or 7: drawn invisibly (typically an OCR layer over a scanned image). */
  invisible: boolean;
}

export interface Glyph {
  /** Unicode text ('' when the font gives none). */
  ch: string;
  run: TextRun;
  /** Glyph origin, as an offset along the run in text space units. */
  ox: number;
  /** Advance (width, character and word spacing, horizontal scaling) in text space units. */
  adv: number;
  /** Glyph box width in text space units. */
  w: number;
  site: ShowSite;
  /** Index of the string within a TJ array (0 for the other operators). */
  elem: number;
  byteStart: number;
  byteLen: number;
  /** The TJ adjustment that advances exactly as far as this glyph; NaN when none can (Tfs = 0). */
  adj: number;
}

/** `null` entries mark a break in the glyph sequence (unreadable text, a new text block elsewhere). */
export type GlyphSeq = (Glyph | null)[];

interface GState {
  ctm: Matrix;
  font: FontInfo | null;
  tfs: number;
  tc: number;
  tw: number;
  th: number;
  tl: number;
  rise: number;
  tr: number;
}

const MAX_FORM_DEPTH = 12;

export interface ScanEnv {
  ctx: ObjCtx;
  /** Fonts by dictionary, shared across pages. */
  fonts: WeakMap<PdfDict, FontInfo>;
  /** Form XObject targets by stream, shared across pages so edits are made once. */
  forms: Map<PdfStream, ContentTarget>;
  warn: (message: string) => void;
}

const num = (v: CsValue | undefined): number => (v && v.t === 'num' ? v.v : 0);

export class TextScanner {
  readonly glyphs: GlyphSeq = [];
  private formStack = new Set<PdfStream>();

  private readonly env: ScanEnv;

  constructor(env: ScanEnv) {
    this.env = env;
  }

  scan(target: ContentTarget, resources: PdfDict | undefined, ctm: Matrix = IDENTITY): void {
    const gs: GState = { ctm, font: null, tfs: 0, tc: 0, tw: 0, th: 1, tl: 0, rise: 0, tr: 0 };
    this.run(target, resources, gs, 0);
  }

  private font(resources: PdfDict | undefined, name: string): FontInfo | null {
    const { ctx } = this.env;
    const fontDict = asDict(get(ctx, getDict(ctx, resources, 'Font'), name));
    return fontDict ? this.fontFromDict(fontDict) : null;
  }

  private fontFromDict(fontDict: PdfDict): FontInfo {
    let f = this.env.fonts.get(fontDict);
    if (!f) {
      f = loadFont(this.env.ctx, fontDict);
      this.env.fonts.set(fontDict, f);
    }
    return f;
  }

  private run(target: ContentTarget, resources: PdfDict | undefined, start: GState, depth: number): void {
    const { ctx } = this.env;
    const stack: GState[] = [];
    let gs: GState = { ...start };
    let tm: Matrix = IDENTITY;
    let tlm: Matrix = IDENTITY;

    const nextLine = (tx: number, ty: number) => {
      tlm = mul([1, 0, 0, 1, tx, ty], tlm);
      tm = tlm;
    };

    const show = (bytes: Uint8Array, site: ShowSite, elem: number) => {
      const font = gs.font;
      if (!font?.decodable || font.vertical) {
        this.glyphs.push(null);
        return;
      }
      const run: TextRun = {
        m: mul(tm, gs.ctm),
        tfs: gs.tfs,
        th: gs.th,
        rise: gs.rise,
        font,
        invisible: gs.tr === 3 || gs.tr === 7,
      };
      let ox = 0;
      for (let pos = 0; pos < bytes.length; ) {
        const { code, len } = font.readCode(bytes, pos);
        const w0 = font.width(code);
        const spacing = gs.tc + (len === 1 && code === 32 ? gs.tw : 0);
        const adv = ((w0 / 1000) * gs.tfs + spacing) * gs.th;
        this.glyphs.push({
          ch: font.unicode(code) ?? '',
          run,
          ox,
          adv,
          w: (w0 / 1000) * gs.tfs * gs.th,
          site,
          elem,
          byteStart: pos,
          byteLen: len,
          adj: gs.tfs !== 0 ? -(w0 + (spacing * 1000) / gs.tfs) : Number.NaN,
        });
        ox += adv;
        pos += len;
      }
      tm = mul([1, 0, 0, 1, ox, 0], tm);
    };

    for (const op of parseOperations(target.bytes)) {
      const a = op.args;
      switch (op.op) {
        case 'q':
          if (stack.length < 256) stack.push({ ...gs });
          break;
        case 'Q':
          gs = stack.pop() ?? gs;
          break;
        case 'cm':
          if (a.length === 6) gs.ctm = mul(a.map(num) as Matrix, gs.ctm);
          break;
        case 'BT':
          tm = IDENTITY;
          tlm = IDENTITY;
          break;
        case 'Tf': {
          const n = a[0];
          gs.font = n && n.t === 'name' ? (this.font(resources, n.v) ?? UNUSABLE_FONT) : UNUSABLE_FONT;
          gs.tfs = num(a[1]);
          break;
        }
        case 'Tc':
          gs.tc = num(a[0]);
          break;
        case 'Tw':
          gs.tw = num(a[0]);
          break;
        case 'Tz':
          gs.th = num(a[0]) / 100;
          break;
        case 'TL':
          gs.tl = num(a[0]);
          break;
        case 'Ts':
          gs.rise = num(a[0]);
          break;
        case 'Tr':
          gs.tr = num(a[0]);
          break;
        case 'Td':
          nextLine(num(a[0]), num(a[1]));
          break;
        case 'TD':
          gs.tl = -num(a[1]);
          nextLine(num(a[0]), num(a[1]));
          break;
        case 'Tm':
          if (a.length === 6) {
            tm = a.map(num) as Matrix;
            tlm = tm;
          }
          break;
        case 'T*':
          nextLine(0, -gs.tl);
          break;
        case 'Tj':
          if (a[0]?.t === 'str') show(a[0].v, { target, op }, 0);
          break;
        case "'":
          nextLine(0, -gs.tl);
          if (a[0]?.t === 'str') show(a[0].v, { target, op }, 0);
          break;
        case '"':
          gs.tw = num(a[0]);
          gs.tc = num(a[1]);
          nextLine(0, -gs.tl);
          if (a[2]?.t === 'str') show(a[2].v, { target, op }, 0);
          break;
        case 'TJ': {
          const arr = a[0];
          if (arr?.t !== 'arr') break;
          const site: ShowSite = { target, op };
          arr.v.forEach((el, i) => {
            if (el.t === 'str') show(el.v, site, i);
            else if (el.t === 'num') tm = mul([1, 0, 0, 1, (-el.v / 1000) * gs.tfs * gs.th, 0], tm);
          });
          break;
        }
        case 'gs': {
          const n = a[0];
          if (n?.t !== 'name') break;
          const ext = getDict(ctx, getDict(ctx, resources, 'ExtGState'), n.v);
          const f = items(ctx, getArray(ctx, ext, 'Font'));
          const fd = asDict(f[0]);
          const size = asNumber(f[1]);
          if (fd && size !== undefined) {
            gs.font = this.fontFromDict(fd);
            gs.tfs = size;
          }
          break;
        }
        case 'Do': {
          const n = a[0];
          if (n?.t === 'name') this.form(resources, n.v, gs, depth);
          break;
        }
      }
    }
  }

  private form(resources: PdfDict | undefined, name: string, gs: GState, depth: number): void {
    const { ctx } = this.env;
    const stream = asStream(get(ctx, getDict(ctx, resources, 'XObject'), name));
    if (!stream || getName(ctx, stream, 'Subtype') !== 'Form') return;
    if (depth >= MAX_FORM_DEPTH || this.formStack.has(stream)) return;
    let target = this.env.forms.get(stream);
    if (!target) {
      let bytes: Uint8Array;
      try {
        bytes = decodeStream(stream);
      } catch {
        this.env.warn(`A form XObject could not be decoded; text tags inside it were not looked for`);
        bytes = new Uint8Array(0);
      }
      target = { kind: 'form', bytes, stream };
      this.env.forms.set(stream, target);
    }
    const matrix = numbers(ctx, getArray(ctx, stream, 'Matrix'));
    const m: Matrix = matrix && matrix.length === 6 ? (matrix as Matrix) : IDENTITY;
    const formResources = getDict(ctx, stream, 'Resources') ?? resources;
    this.formStack.add(stream);
    this.glyphs.push(null);
    this.run(target, formResources, { ...gs, ctm: mul(m, gs.ctm) }, depth + 1);
    this.glyphs.push(null);
    this.formStack.delete(stream);
  }
}

/** User-space corners [x, y, ...] of a glyph box (font ascent to descent). */
export function glyphCorners(g: Glyph): number[] {
  const { m, tfs, rise, font } = g.run;
  const lo = rise + (font.descent / 1000) * tfs;
  const hi = rise + (font.ascent / 1000) * tfs;
  const x0 = g.ox;
  const x1 = g.ox + (g.w !== 0 ? g.w : g.adv);
  return [...apply(m, x0, lo), ...apply(m, x1, lo), ...apply(m, x1, hi), ...apply(m, x0, hi)];
}

/** Glyph origin and end of advance in user space. */
export function glyphBaseline(g: Glyph): [number, number, number, number] {
  const { m, rise } = g.run;
  const [x0, y0] = apply(m, g.ox, rise);
  const [x1, y1] = apply(m, g.ox + g.adv, rise);
  return [x0, y0, x1, y1];
}

/** Size of an em in user space along the run's vertical axis. */
export function emSize(r: TextRun): number {
  return Math.hypot(r.m[2], r.m[3]) * Math.abs(r.tfs);
}

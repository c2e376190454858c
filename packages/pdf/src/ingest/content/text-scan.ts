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

/** The interpreter's state while one content stream runs. */
interface RunState {
  target: ContentTarget;
  resources: PdfDict | undefined;
  depth: number;
  gs: GState;
  stack: GState[];
  /** The text matrix and the text line matrix (ISO 32000-1 §9.4.2). */
  tm: Matrix;
  tlm: Matrix;
}

/** Starts a new line offset from the start of the current one. */
function nextLine(st: RunState, tx: number, ty: number): void {
  st.tlm = mul([1, 0, 0, 1, tx, ty], st.tlm);
  st.tm = st.tlm;
}

/** BT, Td, TD, Tm, T*: where text goes (ISO 32000-1 §9.4.2). */
function textPositionOp(st: RunState, op: CsOp): boolean {
  const a = op.args;
  switch (op.op) {
    case 'BT':
      st.tm = IDENTITY;
      st.tlm = IDENTITY;
      return true;
    case 'Td':
      nextLine(st, num(a[0]), num(a[1]));
      return true;
    case 'TD':
      st.gs.tl = -num(a[1]);
      nextLine(st, num(a[0]), num(a[1]));
      return true;
    case 'Tm':
      if (a.length === 6) {
        st.tm = a.map(num) as Matrix;
        st.tlm = st.tm;
      }
      return true;
    case 'T*':
      nextLine(st, 0, -st.gs.tl);
      return true;
    default:
      return false;
  }
}

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
    const st: RunState = {
      target,
      resources,
      depth,
      gs: { ...start },
      stack: [],
      tm: IDENTITY,
      tlm: IDENTITY,
    };
    for (const op of parseOperations(target.bytes)) {
      if (this.textStateOp(st, op) || textPositionOp(st, op) || this.showOp(st, op)) continue;
      this.graphicsOp(st, op);
    }
  }

  /** Tf, Tc, Tw, Tz, TL, Ts, Tr: the text state (ISO 32000-1 §9.3). */
  private textStateOp(st: RunState, op: CsOp): boolean {
    const { gs } = st;
    const a = op.args;
    switch (op.op) {
      case 'Tf': {
        const n = a[0];
        gs.font = n && n.t === 'name' ? (this.font(st.resources, n.v) ?? UNUSABLE_FONT) : UNUSABLE_FONT;
        gs.tfs = num(a[1]);
        return true;
      }
      case 'Tc':
        gs.tc = num(a[0]);
        return true;
      case 'Tw':
        gs.tw = num(a[0]);
        return true;
      case 'Tz':
        gs.th = num(a[0]) / 100;
        return true;
      case 'TL':
        gs.tl = num(a[0]);
        return true;
      case 'Ts':
        gs.rise = num(a[0]);
        return true;
      case 'Tr':
        gs.tr = num(a[0]);
        return true;
      default:
        return false;
    }
  }

  /** Tj, ', ", TJ: text shown (ISO 32000-1 §9.4.3). */
  private showOp(st: RunState, op: CsOp): boolean {
    const a = op.args;
    const site: ShowSite = { target: st.target, op };
    switch (op.op) {
      case 'Tj':
        if (a[0]?.t === 'str') this.show(st, a[0].v, site, 0);
        return true;
      case "'":
        nextLine(st, 0, -st.gs.tl);
        if (a[0]?.t === 'str') this.show(st, a[0].v, site, 0);
        return true;
      case '"':
        st.gs.tw = num(a[0]);
        st.gs.tc = num(a[1]);
        nextLine(st, 0, -st.gs.tl);
        if (a[2]?.t === 'str') this.show(st, a[2].v, site, 0);
        return true;
      case 'TJ': {
        const arr = a[0];
        if (arr?.t !== 'arr') return true;
        arr.v.forEach((el, i) => {
          if (el.t === 'str') this.show(st, el.v, site, i);
          else if (el.t === 'num') st.tm = mul([1, 0, 0, 1, (-el.v / 1000) * st.gs.tfs * st.gs.th, 0], st.tm);
        });
        return true;
      }
      default:
        return false;
    }
  }

  /** q, Q, cm, gs (its font), Do (form XObjects): the graphics state and nested streams. */
  private graphicsOp(st: RunState, op: CsOp): void {
    const { ctx } = this.env;
    const a = op.args;
    switch (op.op) {
      case 'q':
        if (st.stack.length < 256) st.stack.push({ ...st.gs });
        break;
      case 'Q':
        st.gs = st.stack.pop() ?? st.gs;
        break;
      case 'cm':
        if (a.length === 6) st.gs.ctm = mul(a.map(num) as Matrix, st.gs.ctm);
        break;
      case 'gs': {
        const n = a[0];
        if (n?.t !== 'name') break;
        const ext = getDict(ctx, getDict(ctx, st.resources, 'ExtGState'), n.v);
        const f = items(ctx, getArray(ctx, ext, 'Font'));
        const fd = asDict(f[0]);
        const size = asNumber(f[1]);
        if (fd && size !== undefined) {
          st.gs.font = this.fontFromDict(fd);
          st.gs.tfs = size;
        }
        break;
      }
      case 'Do': {
        const n = a[0];
        if (n?.t === 'name') this.form(st.resources, n.v, st.gs, st.depth);
        break;
      }
    }
  }

  /** Records each glyph of one shown string and advances the text matrix past it. */
  private show(st: RunState, bytes: Uint8Array, site: ShowSite, elem: number): void {
    const { gs } = st;
    const font = gs.font;
    if (!font?.decodable || font.vertical) {
      this.glyphs.push(null);
      return;
    }
    const run: TextRun = {
      m: mul(st.tm, gs.ctm),
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
    st.tm = mul([1, 0, 0, 1, ox, 0], st.tm);
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

/**
 * Just enough of a PDF font model for locating and removing text (ISO 32000-1 §9.6–9.10):
 * how a shown string splits into character codes, each code's Unicode text and advance width,
 * and the font's ascent/descent for glyph boxes. Glyph outlines are never parsed.
 */
import type { PdfDict } from '@libpdf/core';
import { Standard14Font, type Standard14FontName } from '@libpdf/core';
import {
  asDict,
  asName,
  asNumber,
  asStream,
  decodeStream,
  get,
  getArray,
  getDict,
  getName,
  getNumber,
  items,
  numbers,
  type ObjCtx,
} from '../pdf-objects.ts';
import { CMap } from './cmap.ts';
import { baseEncodingTable, glyphNameToUnicode } from './encodings.ts';

export interface FontInfo {
  readonly baseName: string;
  /** Vertical writing (WMode 1): glyphs advance downwards; tag detection skips these fonts. */
  readonly vertical: boolean;
  /** False when codes cannot be split or measured (e.g. predefined CJK CMaps); the text is skipped. */
  readonly decodable: boolean;
  readCode(bytes: Uint8Array, pos: number): { code: number; len: number };
  unicode(code: number): string | undefined;
  /** Horizontal advance in thousandths of text space units (glyph width × 1000 / em). */
  width(code: number): number;
  /** Ascent and descent in thousandths of an em (descent is negative). */
  readonly ascent: number;
  readonly descent: number;
}

const DEFAULT_ASCENT = 800;
const DEFAULT_DESCENT = -200;

const STD14_VERTICAL: Record<string, [number, number]> = {
  Helvetica: [718, -207],
  Times: [683, -217],
  Courier: [629, -157],
  Symbol: [1010, -293],
  ZapfDingbats: [820, -143],
};

/** Drops a subset tag (`ABCDEF+Arial`) from a BaseFont name. */
const stripSubset = (n: string) => (/^[A-Z]{6}\+/.test(n) ? n.slice(7) : n);

/** Maps a base font name to the standard-14 font whose metrics stand in when a font has no /Widths. */
function standard14For(baseName: string): Standard14FontName | undefined {
  const n = stripSubset(baseName).replace(/[\s_]/g, '');
  const lower = n.toLowerCase();
  const bold = /bold|black|heavy|semibold|demi/.test(lower);
  const italic = /italic|oblique/.test(lower);
  if (lower.startsWith('symbol')) return 'Symbol';
  if (lower.startsWith('zapfdingbats') || lower.startsWith('dingbats')) return 'ZapfDingbats';
  if (lower.startsWith('courier'))
    return bold ? (italic ? 'Courier-BoldOblique' : 'Courier-Bold') : italic ? 'Courier-Oblique' : 'Courier';
  if (
    lower.startsWith('times') ||
    lower.includes('roman') ||
    (lower.includes('serif') && !lower.includes('sans'))
  )
    return bold ? (italic ? 'Times-BoldItalic' : 'Times-Bold') : italic ? 'Times-Italic' : 'Times-Roman';
  if (lower.startsWith('helvetica') || lower.startsWith('arial') || lower.length > 0)
    return bold
      ? italic
        ? 'Helvetica-BoldOblique'
        : 'Helvetica-Bold'
      : italic
        ? 'Helvetica-Oblique'
        : 'Helvetica';
  return undefined;
}

function std14Vertical(name: Standard14FontName | undefined): [number, number] | undefined {
  if (!name) return undefined;
  const family = name.split('-')[0]!;
  return STD14_VERTICAL[family];
}

/** Ascent/descent (thousandths of an em) from a font descriptor, its FontBBox, or defaults. */
function verticalMetrics(
  ctx: ObjCtx,
  descriptor: PdfDict | undefined,
  fallback: [number, number] | undefined,
  scale = 1,
): [number, number] {
  let asc = getNumber(ctx, descriptor, 'Ascent');
  let desc = getNumber(ctx, descriptor, 'Descent');
  if (!asc) {
    const bbox = numbers(ctx, getArray(ctx, descriptor, 'FontBBox'));
    if (bbox && bbox.length === 4 && bbox[3]! > bbox[1]!) {
      asc = bbox[3]!;
      desc = bbox[1]!;
    }
  }
  if (!asc && fallback) [asc, desc] = fallback;
  asc = (asc ?? DEFAULT_ASCENT) * scale;
  desc = (desc ?? DEFAULT_DESCENT) * scale;
  if (desc > 0) desc = -desc;
  if (!(asc > desc) || asc > 3000 || desc < -3000) return [DEFAULT_ASCENT, DEFAULT_DESCENT];
  return [asc, desc];
}

function loadCMap(o: ReturnType<typeof get>): CMap | undefined {
  const s = asStream(o);
  if (!s) return undefined;
  try {
    return CMap.parse(decodeStream(s));
  } catch {
    return undefined;
  }
}

class SimpleFont implements FontInfo {
  readonly vertical = false;
  readonly decodable = true;
  readonly baseName: string;
  readonly ascent: number;
  readonly descent: number;
  private readonly toUni: CMap | undefined;
  private readonly codeToUni: (string | undefined)[];
  private readonly widths = new Float64Array(256).fill(Number.NaN);

  constructor(
    baseName: string,
    toUni: CMap | undefined,
    codeToUni: (string | undefined)[],
    widths: (number | undefined)[],
    std14: Standard14FontName | undefined,
    ascent: number,
    descent: number,
  ) {
    this.baseName = baseName;
    this.toUni = toUni;
    this.codeToUni = codeToUni;
    this.ascent = ascent;
    this.descent = descent;
    const std = std14 ? Standard14Font.of(std14) : undefined;
    for (let c = 0; c < 256; c++) {
      let w = widths[c];
      if (w === undefined && std) {
        const ch = codeToUni[c];
        w = ch ? std.widthOfTextAtSize(ch, 1000) : undefined;
      }
      this.widths[c] = w ?? 0;
    }
  }

  readCode(bytes: Uint8Array, pos: number) {
    return { code: bytes[pos]!, len: 1 };
  }

  unicode(code: number): string | undefined {
    return this.toUni?.toUnicode(code) ?? this.codeToUni[code];
  }

  width(code: number): number {
    return this.widths[code] ?? 0;
  }
}

function loadSimpleFont(ctx: ObjCtx, font: PdfDict, subtype: string): FontInfo {
  const baseName = stripSubset(getName(ctx, font, 'BaseFont') ?? (subtype === 'Type3' ? 'Type3' : 'Unknown'));
  const descriptor = getDict(ctx, font, 'FontDescriptor');
  const flags = getNumber(ctx, descriptor, 'Flags') ?? 0;
  const symbolic = (flags & 4) !== 0 && (flags & 32) === 0;

  // Encoding: a base table plus /Differences.
  const enc = get(ctx, font, 'Encoding');
  let baseName0 = asName(enc);
  const encDict = asDict(enc);
  if (encDict) baseName0 = getName(ctx, encDict, 'BaseEncoding');
  const std14 = standard14For(baseName);
  const isStd14Name = std14 !== undefined && /^(Helvetica|Times|Courier|Symbol|ZapfDingbats)/.test(baseName);
  if (!baseName0 && !symbolic && subtype !== 'Type3') baseName0 = 'StandardEncoding';
  const table: (string | undefined)[] = baseEncodingTable(baseName0).slice();
  const diffs = items(ctx, getArray(ctx, encDict, 'Differences'));
  let code = 0;
  for (const d of diffs) {
    const n = asNumber(d);
    if (n !== undefined) {
      code = n;
      continue;
    }
    const g = asName(d);
    if (g !== undefined && code >= 0 && code < 256) {
      const u = glyphNameToUnicode(g);
      if (u !== undefined) table[code] = u;
      code++;
    }
  }

  // Widths (Type 3 widths are in glyph space and scale with the FontMatrix).
  let scale = 1;
  let vfallback: [number, number] | undefined = std14Vertical(isStd14Name ? std14 : undefined);
  if (subtype === 'Type3') {
    const fm = numbers(ctx, getArray(ctx, font, 'FontMatrix'));
    scale = fm && fm.length === 6 && fm[0] ? Math.abs(fm[0]) * 1000 : 1;
    const bbox = numbers(ctx, getArray(ctx, font, 'FontBBox'));
    const vscale = fm && fm.length === 6 && fm[3] ? Math.abs(fm[3]) * 1000 : 1;
    if (bbox && bbox.length === 4 && bbox[3]! > bbox[1]!) vfallback = [bbox[3]! * vscale, bbox[1]! * vscale];
  }
  const widths: (number | undefined)[] = new Array(256).fill(undefined);
  const first = getNumber(ctx, font, 'FirstChar') ?? 0;
  const ws = items(ctx, getArray(ctx, font, 'Widths'));
  const missing = getNumber(ctx, descriptor, 'MissingWidth');
  if (ws.length > 0) {
    for (let c = 0; c < 256; c++) {
      const w = asNumber(ws[c - first]);
      widths[c] = w !== undefined ? w * scale : missing !== undefined ? missing * scale : undefined;
    }
  }
  const needStd = ws.length === 0 ? std14 : undefined;
  const [ascent, descent] =
    subtype === 'Type3' && vfallback
      ? vfallback
      : verticalMetrics(ctx, descriptor, vfallback ?? std14Vertical(needStd));
  const toUni = loadCMap(get(ctx, font, 'ToUnicode'));
  return new SimpleFont(baseName, toUni, table, widths, needStd, ascent, descent);
}

interface CompositeFontParts {
  baseName: string;
  vertical: boolean;
  decodable: boolean;
  encoding: CMap | 'identity';
  toUni: CMap | undefined;
  cidWidths: Map<number, number>;
  cidWidthRanges: { lo: number; hi: number; w: number }[];
  dw: number;
  metrics: [number, number];
}

class CompositeFont implements FontInfo {
  readonly baseName: string;
  readonly vertical: boolean;
  readonly decodable: boolean;
  readonly ascent: number;
  readonly descent: number;
  private readonly encoding: CMap | 'identity';
  private readonly toUni: CMap | undefined;
  private readonly cidWidths: Map<number, number>;
  private readonly cidWidthRanges: { lo: number; hi: number; w: number }[];
  private readonly dw: number;

  constructor(p: CompositeFontParts) {
    this.baseName = p.baseName;
    this.vertical = p.vertical;
    this.decodable = p.decodable;
    this.encoding = p.encoding;
    this.toUni = p.toUni;
    this.cidWidths = p.cidWidths;
    this.cidWidthRanges = p.cidWidthRanges;
    this.dw = p.dw;
    [this.ascent, this.descent] = p.metrics;
  }

  readCode(bytes: Uint8Array, pos: number) {
    if (this.encoding === 'identity') {
      if (pos + 1 < bytes.length) return { code: (bytes[pos]! << 8) | bytes[pos + 1]!, len: 2 };
      return { code: bytes[pos]!, len: 1 };
    }
    return this.encoding.readCode(bytes, pos, 2);
  }

  private cid(code: number): number {
    if (this.encoding === 'identity') return code;
    return this.encoding.toCid(code) ?? code;
  }

  unicode(code: number): string | undefined {
    return this.toUni?.toUnicode(code);
  }

  width(code: number): number {
    const cid = this.cid(code);
    const w = this.cidWidths.get(cid);
    if (w !== undefined) return w;
    for (const r of this.cidWidthRanges) if (cid >= r.lo && cid <= r.hi) return r.w;
    return this.dw;
  }
}

function loadCompositeFont(ctx: ObjCtx, font: PdfDict): FontInfo {
  const baseName = stripSubset(getName(ctx, font, 'BaseFont') ?? 'Unknown');
  const descendant = asDict(items(ctx, getArray(ctx, font, 'DescendantFonts'))[0]);
  const encObj = get(ctx, font, 'Encoding');
  const encName = asName(encObj);
  let encoding: CMap | 'identity' = 'identity';
  let vertical = false;
  let decodable = true;
  if (encName !== undefined) {
    vertical = encName.endsWith('-V');
    // Predefined CJK CMaps would need Adobe's CMap files to map codes to CIDs (for widths).
    decodable = encName === 'Identity-H' || encName === 'Identity-V';
  } else {
    const cmap = loadCMap(encObj);
    const wmode = getNumber(ctx, asDict(encObj), 'WMode');
    if (!cmap) {
      decodable = false;
    } else {
      encoding = cmap;
      vertical = (wmode ?? cmap.wmode) === 1;
      if (!cmap.hasCidMappings && cmap.useCMap && !/^Identity-[HV]$/.test(cmap.useCMap)) decodable = false;
      if (!cmap.hasCodespaces && !cmap.hasCidMappings) encoding = 'identity';
    }
  }

  const cidWidths = new Map<number, number>();
  const ranges: { lo: number; hi: number; w: number }[] = [];
  const w = items(ctx, getArray(ctx, descendant, 'W'));
  for (let i = 0; i < w.length; ) {
    const first = asNumber(w[i]);
    const second = w[i + 1];
    if (first === undefined || second === undefined) break;
    if (second.type === 'array') {
      items(ctx, second).forEach((v, k) => {
        const n = asNumber(v);
        if (n !== undefined) cidWidths.set(first + k, n);
      });
      i += 2;
    } else {
      const last = asNumber(second);
      const width = asNumber(w[i + 2]);
      if (last !== undefined && width !== undefined && last >= first)
        ranges.push({ lo: first, hi: last, w: width });
      i += 3;
    }
  }
  const dw = getNumber(ctx, descendant, 'DW') ?? 1000;
  const metrics = verticalMetrics(ctx, getDict(ctx, descendant, 'FontDescriptor'), undefined);
  const toUni = loadCMap(get(ctx, font, 'ToUnicode'));
  return new CompositeFont({
    baseName,
    vertical,
    decodable,
    encoding,
    toUni,
    cidWidths,
    cidWidthRanges: ranges,
    dw,
    metrics,
  });
}

/** Builds the font model for a font dictionary; never throws (unusable fonts are non-decodable). */
export function loadFont(ctx: ObjCtx, font: PdfDict): FontInfo {
  const subtype = getName(ctx, font, 'Subtype') ?? 'Type1';
  try {
    return subtype === 'Type0' ? loadCompositeFont(ctx, font) : loadSimpleFont(ctx, font, subtype);
  } catch {
    return UNUSABLE_FONT;
  }
}

export const UNUSABLE_FONT: FontInfo = {
  baseName: 'Unusable',
  vertical: false,
  decodable: false,
  readCode: (bytes, pos) => ({ code: bytes[pos] ?? 0, len: 1 }),
  unicode: () => undefined,
  width: () => 0,
  ascent: DEFAULT_ASCENT,
  descent: DEFAULT_DESCENT,
};

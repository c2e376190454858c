import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type PDF, PdfArray, PdfDict, PdfName, PdfNumber, type PdfRef, PdfString } from '@libpdf/core';
import * as fontkit from 'fontkit';
import { flateStream } from './flate.ts';

/**
 * Fonts used to draw values, the test mark and the audit trail.
 *
 * All faces are Noto fonts from npm packages (SIL OFL 1.1):
 * - `@embedpdf/fonts-latin`: Noto Sans (Latin, Cyrillic, Greek), regular, bold and italic
 * - `@embedpdf/fonts-arabic`: Noto Naskh Arabic
 * - `@embedpdf/fonts-hebrew`: Noto Sans Hebrew
 * - `@embedpdf/fonts-sc`: Noto Sans Hans (Chinese ideographs, kana)
 * - `@embedpdf/fonts-kr`: Noto Sans KR (Hangul)
 *
 * Shaping (ligatures, Arabic joining forms, GPOS placement) and subsetting are done by fontkit;
 * each face used in a document is embedded once as a Type0/Identity-H font holding only the glyphs
 * drawn, with a ToUnicode map so text stays extractable and searchable.
 */

export type FaceId = 'sans' | 'sansBold' | 'sansItalic' | 'arabic' | 'hebrew' | 'cjk' | 'korean';

const FACE_FILES: Record<FaceId, { pkg: string; file: string }> = {
  sans: { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Regular.ttf' },
  sansBold: { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Bold.ttf' },
  sansItalic: { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Italic.ttf' },
  arabic: { pkg: '@embedpdf/fonts-arabic', file: 'NotoNaskhArabic-Regular.ttf' },
  hebrew: { pkg: '@embedpdf/fonts-hebrew', file: 'NotoSansHebrew-Regular.ttf' },
  cjk: { pkg: '@embedpdf/fonts-sc', file: 'NotoSansHans-Regular.otf' },
  korean: { pkg: '@embedpdf/fonts-kr', file: 'NotoSansKR-Regular.otf' },
};

const require = createRequire(import.meta.url);
const faceCache = new Map<FaceId, fontkit.Font>();

/** Parsed font face, loaded once per process (the CJK faces are several MB). */
export function loadFace(id: FaceId): fontkit.Font {
  let face = faceCache.get(id);
  if (!face) {
    const { pkg, file } = FACE_FILES[id];
    const entry = require.resolve(pkg);
    const bytes = readFileSync(path.join(path.dirname(entry), '..', 'fonts', file));
    face = fontkit.create(bytes) as fontkit.Font;
    faceCache.set(id, face);
  }
  return face;
}

/** Which face a character wants, by script; null for characters any face can carry (spaces, digits). */
export function faceForCodePoint(cp: number, latin: FaceId): FaceId | null {
  if (
    (cp >= 0x0600 && cp <= 0x06ff) ||
    (cp >= 0x0750 && cp <= 0x077f) ||
    (cp >= 0x08a0 && cp <= 0x08ff) ||
    (cp >= 0xfb50 && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfeff)
  ) {
    return 'arabic';
  }
  if ((cp >= 0x0590 && cp <= 0x05ff) || (cp >= 0xfb1d && cp <= 0xfb4f)) return 'hebrew';
  if (
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3130 && cp <= 0x318f) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xac00 && cp <= 0xd7ff)
  ) {
    return 'korean';
  }
  if (
    (cp >= 0x2e80 && cp <= 0x2fdf) ||
    (cp >= 0x3000 && cp <= 0x312f) ||
    (cp >= 0x3190 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x20000 && cp <= 0x3ffff)
  ) {
    return 'cjk';
  }
  // Digits, spaces and common punctuation join whatever run surrounds them.
  if (cp < 0x80 && !/[A-Za-z]/.test(String.fromCodePoint(cp))) return null;
  if (cp === 0x00a0 || (cp >= 0x2000 && cp <= 0x206f)) return null;
  return latin;
}

const FALLBACK_ORDER: FaceId[] = ['sans', 'cjk', 'korean', 'arabic', 'hebrew'];

/** A face that has a glyph for `cp`, preferring `wanted`; falls back to `wanted` (drawn as .notdef). */
export function faceWithGlyph(cp: number, wanted: FaceId): FaceId {
  if (loadFace(wanted).hasGlyphForCodePoint(cp)) return wanted;
  for (const id of FALLBACK_ORDER) {
    if (id !== wanted && loadFace(id).hasGlyphForCodePoint(cp)) return id;
  }
  return wanted;
}

interface UsedGlyph {
  cid: number;
  width: number;
  text: string;
}

/** What fontkit 2's TrueType subset (TTFSubset) holds while it encodes; see rawGlyphCopy. */
interface TtfSubsetState {
  font: {
    loca: { offsets: number[] };
    hmtx: {
      metrics: { length: number; get(i: number): { advance: number; bearing: number } | undefined };
      bearings: { get(i: number): number | undefined };
    };
    _getTableStream(tag: string): { pos: number; readBuffer(n: number): Uint8Array } | null;
    _variationProcessor?: unknown;
    directory: { tables: Record<string, unknown> };
  };
  glyf: Uint8Array[];
  loca: { offsets: number[] };
  hmtx: { metrics: { advance: number; bearing: number }[] };
  offset: number;
  includeGlyph(gid: number): number;
  _addGlyph(gid: number): number;
}

/** TrueType composite glyph flags (ISO/IEC 14496-22, 'glyf'). */
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/**
 * fontkit's TrueType subset decodes every glyph it copies (its outline, and its bounding box for
 * the metrics) only to learn whether it is a composite, then copies the glyph's bytes as they are:
 * for the 60 or so glyphs of a seal that was two thirds of `encode()`, about 2 ms per face and a
 * quarter of a 10-page seal's CPU (bench/README.md, Sealing). This copies the same bytes reading
 * only numberOfContours and, for a composite, its component records (whose glyph ids it renumbers,
 * as fontkit does), with the metrics straight from 'hmtx': the subset is byte for byte the one
 * fontkit writes (packages/pdf/test/seal-text.test.ts compares them). Variable fonts keep
 * fontkit's own path (it re-encodes their outlines).
 */
function rawGlyphCopy(subset: fontkit.Subset): void {
  const s = subset as unknown as TtfSubsetState;
  const font = s.font;
  if (typeof s._addGlyph !== 'function' || font._variationProcessor || !font.directory.tables.glyf) return;
  s._addGlyph = function addGlyph(this: TtfSubsetState, gid: number): number {
    const start = font.loca.offsets[gid]!;
    const end = font.loca.offsets[gid + 1]!;
    const stream = font._getTableStream('glyf')!;
    stream.pos += start;
    let bytes = stream.readBuffer(end - start);
    if (bytes.length >= 10 && ((bytes[0]! << 24) >> 16) + bytes[1]! < 0) {
      bytes = new Uint8Array(bytes);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
      for (let pos = 10; ; ) {
        const flags = view.getUint16(pos);
        view.setUint16(pos + 2, this.includeGlyph(view.getUint16(pos + 2)));
        pos += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
        pos +=
          flags & WE_HAVE_A_SCALE
            ? 2
            : flags & WE_HAVE_AN_X_AND_Y_SCALE
              ? 4
              : flags & WE_HAVE_A_TWO_BY_TWO
                ? 8
                : 0;
        if (!(flags & MORE_COMPONENTS)) break;
      }
    }
    this.glyf.push(bytes);
    this.loca.offsets.push(this.offset);
    const { metrics, bearings } = font.hmtx;
    const own = gid < metrics.length ? metrics.get(gid) : undefined;
    this.hmtx.metrics.push(
      own
        ? { advance: own.advance, bearing: own.bearing }
        : {
            advance: metrics.get(metrics.length - 1)?.advance ?? 0,
            bearing: bearings.get(gid - metrics.length) ?? 0,
          },
    );
    this.offset += bytes.length;
    return this.glyf.length - 1;
  };
}

/** A subset of `face` written with rawGlyphCopy (exported for the test that compares it with fontkit's). */
export function createFaceSubset(face: fontkit.Font): fontkit.Subset {
  const subset = face.createSubset();
  rawGlyphCopy(subset);
  return subset;
}

/** One face embedded into one document: collects the glyphs drawn, written as a subset on finish(). */
class EmbeddedFace {
  readonly ref: PdfRef;
  private readonly subset: fontkit.Subset;
  private readonly used = new Map<number, UsedGlyph>();

  private readonly pdf: PDF;
  readonly face: fontkit.Font;

  constructor(pdf: PDF, face: fontkit.Font) {
    this.pdf = pdf;
    this.face = face;
    this.subset = createFaceSubset(face);
    this.ref = pdf.register(new PdfDict([['Type', PdfName.of('Font')]]));
  }

  /** Adds a glyph to the subset; returns its CID (index in the subset) and its /W width. */
  cidFor(glyph: fontkit.Glyph): UsedGlyph {
    let used = this.used.get(glyph.id);
    if (!used) {
      const cid = this.subset.includeGlyph(glyph) as unknown as number;
      const text = String.fromCodePoint(...(glyph.codePoints ?? []));
      used = { cid, width: Math.round((glyph.advanceWidth * 1000) / this.face.unitsPerEm), text };
      this.used.set(glyph.id, used);
    }
    return used;
  }

  finish(): void {
    const face = this.face;
    const { isCff, descriptor: metrics, postscriptName } = faceConstants(face);
    const fontBytes = this.subset.encode();
    const tag = Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join('');
    const baseName = `${tag}+${postscriptName}`;
    const fileRef = isCff
      ? flateStream(this.pdf, { Subtype: PdfName.of('CIDFontType0C') }, fontBytes)
      : flateStream(this.pdf, { Length1: PdfNumber.of(fontBytes.length) }, fontBytes);
    const descriptor = this.pdf.createDict({
      Type: PdfName.of('FontDescriptor'),
      FontName: PdfName.of(baseName),
      Flags: PdfNumber.of(4),
      FontBBox: new PdfArray(metrics.bbox.map((v) => PdfNumber.of(v))),
      ItalicAngle: PdfNumber.of(metrics.italicAngle),
      Ascent: PdfNumber.of(metrics.ascent),
      Descent: PdfNumber.of(metrics.descent),
      CapHeight: PdfNumber.of(metrics.capHeight),
      StemV: PdfNumber.of(80),
      [isCff ? 'FontFile3' : 'FontFile2']: fileRef,
    });
    const sorted = [...this.used.values()].sort((a, b) => a.cid - b.cid);
    const widths: (PdfNumber | PdfArray)[] = [];
    for (const g of sorted) widths.push(PdfNumber.of(g.cid), new PdfArray([PdfNumber.of(g.width)]));
    const cidFont = this.pdf.createDict({
      Type: PdfName.of('Font'),
      Subtype: PdfName.of(isCff ? 'CIDFontType0' : 'CIDFontType2'),
      BaseFont: PdfName.of(baseName),
      CIDSystemInfo: new PdfDict([
        ['Registry', PdfString.fromString('Adobe')],
        ['Ordering', PdfString.fromString('Identity')],
        ['Supplement', PdfNumber.of(0)],
      ]),
      FontDescriptor: descriptor,
      W: new PdfArray(widths),
      DW: PdfNumber.of(0),
      ...(isCff ? {} : { CIDToGIDMap: PdfName.of('Identity') }),
    });
    const toUnicode = flateStream(this.pdf, {}, new TextEncoder().encode(toUnicodeCMap(sorted)));
    const dict = this.pdf.getObject(this.ref) as PdfDict;
    dict.set('Subtype', PdfName.of('Type0'));
    dict.set('BaseFont', PdfName.of(baseName));
    dict.set('Encoding', PdfName.of('Identity-H'));
    dict.set('DescendantFonts', new PdfArray([cidFont]));
    dict.set('ToUnicode', toUnicode);
  }
}

interface FaceConstants {
  isCff: boolean;
  postscriptName: string;
  /** FontDescriptor values, in the PDF's 1000-unit em. */
  descriptor: { bbox: number[]; italicAngle: number; ascent: number; descent: number; capHeight: number };
}

/**
 * What every embedding of a face writes the same: fontkit decodes the table behind a getter such
 * as italicAngle again on every read.
 */
const constants = new WeakMap<fontkit.Font, FaceConstants>();
function faceConstants(face: fontkit.Font): FaceConstants {
  let c = constants.get(face);
  if (!c) {
    const scale = 1000 / face.unitsPerEm;
    const bbox = face.bbox;
    c = {
      isCff: readTag(face) === 'OTTO',
      postscriptName: face.postscriptName.replace(/[^A-Za-z0-9-]/g, ''),
      descriptor: {
        bbox: [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => Math.round(v * scale)),
        italicAngle: face.italicAngle || 0,
        ascent: Math.round(face.ascent * scale),
        descent: Math.round(face.descent * scale),
        capHeight: Math.round((face.capHeight || face.ascent) * scale),
      },
    };
    constants.set(face, c);
  }
  return c;
}

function readTag(face: fontkit.Font): string {
  const stream = (face as unknown as { stream: { buffer: Uint8Array } }).stream;
  return String.fromCharCode(...stream.buffer.subarray(0, 4));
}

function utf16Hex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += text.charCodeAt(i).toString(16).padStart(4, '0');
  return out || '0020';
}

function toUnicodeCMap(glyphs: UsedGlyph[]): string {
  const lines = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
  ];
  const mapped = glyphs.filter((g) => g.text.length > 0);
  for (let i = 0; i < mapped.length; i += 100) {
    const chunk = mapped.slice(i, i + 100);
    lines.push(`${chunk.length} beginbfchar`);
    for (const g of chunk) lines.push(`<${g.cid.toString(16).padStart(4, '0')}> <${utf16Hex(g.text)}>`);
    lines.push('endbfchar');
  }
  lines.push('endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end');
  return lines.join('\n');
}

/** The faces embedded into one document. Call finish() once, after the last text is drawn. */
export class DocumentFonts {
  private readonly faces = new Map<FaceId, EmbeddedFace>();
  private readonly pdf: PDF;
  constructor(pdf: PDF) {
    this.pdf = pdf;
  }

  get(id: FaceId): EmbeddedFace {
    let face = this.faces.get(id);
    if (!face) {
      face = new EmbeddedFace(this.pdf, loadFace(id));
      this.faces.set(id, face);
    }
    return face;
  }

  finish(): void {
    for (const face of this.faces.values()) face.finish();
    this.faces.clear();
  }
}

export type { EmbeddedFace };

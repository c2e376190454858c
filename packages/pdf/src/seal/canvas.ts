import { type PDF, PdfArray, PdfDict, PdfName, PdfNumber, type PdfRef } from '@libpdf/core';
import { flateStream } from './flate.ts';
import type { DocumentFonts, FaceId } from './fonts.ts';
import type { ShapedLine } from './text.ts';

export type Rgb = readonly [number, number, number];

function fmt(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const r = Math.round(n * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
}

/**
 * Builds one Form XObject of drawing operators with its own resources (fonts, images, opacity
 * states). Drawing into a form keeps the page's own content and resources untouched apart from one
 * XObject entry, whatever graphics state the original content leaves behind.
 */
export class Canvas {
  private readonly ops: string[] = [];
  private readonly fontNames = new Map<FaceId, string>();
  private readonly xobjects = new Map<string, PdfRef>();
  private readonly gstates = new Map<string, PdfDict>();

  private readonly pdf: PDF;
  private readonly fonts: DocumentFonts;

  constructor(pdf: PDF, fonts: DocumentFonts) {
    this.pdf = pdf;
    this.fonts = fonts;
  }

  get isEmpty(): boolean {
    return this.ops.length === 0;
  }

  raw(op: string): this {
    this.ops.push(op);
    return this;
  }

  save(): this {
    return this.raw('q');
  }

  restore(): this {
    return this.raw('Q');
  }

  transform(a: number, b: number, c: number, d: number, e: number, f: number): this {
    return this.raw(`${[a, b, c, d, e, f].map(fmt).join(' ')} cm`);
  }

  fillColor([r, g, b]: Rgb): this {
    return this.raw(`${fmt(r)} ${fmt(g)} ${fmt(b)} rg`);
  }

  strokeColor([r, g, b]: Rgb): this {
    return this.raw(`${fmt(r)} ${fmt(g)} ${fmt(b)} RG`);
  }

  lineWidth(w: number): this {
    return this.raw(`${fmt(w)} w`);
  }

  rect(x: number, y: number, w: number, h: number): this {
    return this.raw(`${fmt(x)} ${fmt(y)} ${fmt(w)} ${fmt(h)} re`);
  }

  clipRect(x: number, y: number, w: number, h: number): this {
    return this.rect(x, y, w, h).raw('W n');
  }

  /** Sets fill and stroke opacity (0..1) through an ExtGState resource. */
  opacity(alpha: number): this {
    const name = `GS${Math.round(alpha * 100)}`;
    if (!this.gstates.has(name)) {
      this.gstates.set(
        name,
        new PdfDict([
          ['Type', PdfName.of('ExtGState')],
          ['ca', PdfNumber.of(alpha)],
          ['CA', PdfNumber.of(alpha)],
        ]),
      );
    }
    return this.raw(`/${name} gs`);
  }

  /** Draws an image XObject stretched to the rectangle. */
  image(ref: PdfRef, x: number, y: number, w: number, h: number): this {
    let name = [...this.xobjects].find(([, r]) => r === ref)?.[0];
    if (!name) {
      name = `Im${this.xobjects.size}`;
      this.xobjects.set(name, ref);
    }
    return this.save().transform(w, 0, 0, h, x, y).raw(`/${name} Do`).restore();
  }

  /** Draws a shaped line with its left end of the baseline at (x, y). */
  text(line: ShapedLine, x: number, y: number, size: number, color: Rgb = [0, 0, 0]): this {
    if (line.runs.length === 0) return this;
    this.fillColor(color).raw('BT');
    let pen = x;
    for (const run of line.runs) {
      const face = this.fonts.get(run.face);
      let fontName = this.fontNames.get(run.face);
      if (!fontName) {
        fontName = `F${this.fontNames.size}`;
        this.fontNames.set(run.face, fontName);
      }
      this.raw(`/${fontName} ${fmt(size)} Tf`);
      let pending: string[] = [];
      const flush = () => {
        if (pending.length) this.raw(`[${pending.join(' ')}] TJ`);
        pending = [];
      };
      let positioned = false;
      for (const g of run.glyphs) {
        const { cid, width } = face.cidFor(g.glyph);
        const hex = `<${cid.toString(16).padStart(4, '0')}>`;
        if (g.xOffset !== 0 || g.yOffset !== 0) {
          flush();
          this.raw(`1 0 0 1 ${fmt(pen + g.xOffset * size)} ${fmt(y + g.yOffset * size)} Tm ${hex} Tj`);
          positioned = false;
        } else {
          if (!positioned) {
            flush();
            this.raw(`1 0 0 1 ${fmt(pen)} ${fmt(y)} Tm`);
            positioned = true;
          }
          pending.push(hex);
          const adjust = width - g.xAdvance * 1000;
          if (Math.abs(adjust) > 0.01) pending.push(fmt(adjust));
        }
        pen += g.xAdvance * size;
      }
      flush();
    }
    return this.raw('ET');
  }

  /** Writes the form and returns its reference; coordinates inside are 0..width × 0..height. */
  finish(width: number, height: number): PdfRef {
    const resources = new PdfDict();
    if (this.fontNames.size) {
      const fonts = new PdfDict();
      for (const [face, name] of this.fontNames) fonts.set(name, this.fonts.get(face).ref);
      resources.set('Font', fonts);
    }
    if (this.xobjects.size) resources.set('XObject', new PdfDict([...this.xobjects]));
    if (this.gstates.size) resources.set('ExtGState', new PdfDict([...this.gstates]));
    return flateStream(
      this.pdf,
      {
        Type: PdfName.of('XObject'),
        Subtype: PdfName.of('Form'),
        BBox: new PdfArray([0, 0, width, height].map((v) => PdfNumber.of(v))),
        Resources: resources,
      },
      new TextEncoder().encode(this.ops.join('\n')),
    );
  }
}

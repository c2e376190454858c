import type { FieldType } from '@esign/domain';
import type { PDF, PdfRef } from '@libpdf/core';
import type { Canvas, Rgb } from './canvas.ts';
import { embedImage } from './png.ts';
import {
  ASCENT,
  DESCENT,
  fitText,
  graphemes,
  LINE_HEIGHT,
  type ShapedLine,
  shapeLine,
  type TextStyle,
} from './text.ts';

/** The field types the seal draws: every type of the vocabulary. */
export type SealValueType = FieldType;

export interface SealArea {
  /** 1-based page number. */
  page: number;
  /** Fractions of the displayed page (after CropBox and /Rotate), origin top-left. */
  x: number;
  y: number;
  w: number;
  h: number;
  /**
   * Font size (points) text values are drawn at here, e.g. the text tag's own size (issue 33
   * item 2); smaller only when the value is wider than the box. Unset: fitted to the box.
   */
  fontSize?: number;
}

export interface SealValue {
  type: SealValueType;
  areas: SealArea[];
  /**
   * signature/initials/image/stamp: a `data:` URI (PNG or JPEG) or a typed name;
   * checkbox: boolean; multiple: string[]; date: `YYYY-MM-DD` (or an ISO date-time);
   * cells: the characters to spread over the box. null draws nothing.
   */
  value: string | number | boolean | string[] | null;
  /** cells: number of cells in the box (default: one per character). */
  cellCount?: number;
}

const INK: Rgb = [0.05, 0.1, 0.35];
const STAMP: Rgb = [0.1, 0.25, 0.7];

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Decodes a base64 `data:` URI holding a PNG or JPEG; null when the value is not one. */
export function decodeImageDataUri(value: string): Uint8Array | null {
  const m = /^data:image\/(png|jpe?g);base64,/i.exec(value.trim());
  if (!m) return null;
  return new Uint8Array(Buffer.from(value.trim().slice(m[0].length), 'base64'));
}

/** Caches embedded images by their data URI so a signature drawn in many areas is stored once. */
export class ImageCache {
  private readonly refs = new Map<string, { ref: PdfRef; width: number; height: number }>();
  private readonly pdf: PDF;
  constructor(pdf: PDF) {
    this.pdf = pdf;
  }

  get(dataUri: string): { ref: PdfRef; width: number; height: number } | null {
    let img = this.refs.get(dataUri);
    if (!img) {
      const bytes = decodeImageDataUri(dataUri);
      if (!bytes) return null;
      img = embedImage(this.pdf, bytes);
      this.refs.set(dataUri, img);
    }
    return img;
  }
}

function isChecked(value: SealValue['value']): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return /^(true|yes|on|1|checked|x)$/i.test(value.trim());
  return Array.isArray(value) && value.length > 0;
}

function formatDate(value: SealValue['value']): string {
  if (typeof value === 'number') return new Date(value).toISOString().slice(0, 10);
  const s = String(value ?? '').trim();
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(s);
  return m ? m[1]! : s;
}

/** The text a non-picture value is drawn as. */
function valueText(v: SealValue): string {
  const value = v.value;
  if (value === null || value === undefined) return '';
  if (v.type === 'date') return formatDate(value);
  if (Array.isArray(value)) {
    return v.type === 'file' ? value.map(fileLabel).join(', ') : value.join(', ');
  }
  if (v.type === 'file' && typeof value === 'string') return fileLabel(value);
  return String(value);
}

function fileLabel(value: string): string {
  if (value.startsWith('data:')) return 'attached file';
  try {
    const url = new URL(value);
    return decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? url.hostname);
  } catch {
    return value;
  }
}

function inset(box: Box, pad: number): Box {
  return { x: box.x + pad, y: box.y + pad, w: Math.max(1, box.w - 2 * pad), h: Math.max(1, box.h - 2 * pad) };
}

/** Draws a block of shaped lines vertically centred in the box, aligned left (right for RTL text). */
function drawLines(
  canvas: Canvas,
  lines: ShapedLine[],
  size: number,
  box: Box,
  color: Rgb,
  align: 'start' | 'center' = 'start',
): void {
  const blockHeight = size * (ASCENT + DESCENT) + (lines.length - 1) * size * LINE_HEIGHT;
  let baseline = box.y + box.h / 2 + blockHeight / 2 - size * ASCENT;
  canvas.save().clipRect(box.x - 1, box.y - 1, box.w + 2, box.h + 2);
  for (const line of lines) {
    const w = line.width * size;
    const x =
      align === 'center' ? box.x + (box.w - w) / 2 : line.rtl ? box.x + Math.max(0, box.w - w) : box.x;
    canvas.text(line, x, baseline, size, color);
    baseline -= size * LINE_HEIGHT;
  }
  canvas.restore();
}

function drawFittedText(
  canvas: Canvas,
  text: string,
  box: Box,
  opts: { maxSize: number; multiline: boolean; style?: TextStyle; color?: Rgb; align?: 'start' | 'center' },
): void {
  if (!text) return;
  const fitted = fitText(text, box, { maxSize: opts.maxSize, multiline: opts.multiline, style: opts.style });
  drawLines(canvas, fitted.lines, fitted.size, box, opts.color ?? [0, 0, 0], opts.align);
}

function drawPicture(canvas: Canvas, img: { ref: PdfRef; width: number; height: number }, box: Box): void {
  const scale = Math.min(box.w / img.width, box.h / img.height);
  const w = img.width * scale;
  const h = img.height * scale;
  canvas.image(img.ref, box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h);
}

function drawCheck(canvas: Canvas, box: Box): void {
  const s = Math.min(box.w, box.h) * 0.9;
  const x = box.x + (box.w - s) / 2;
  const y = box.y + (box.h - s) / 2;
  const p = (fx: number, fy: number) => `${(x + fx * s).toFixed(2)} ${(y + fy * s).toFixed(2)}`;
  canvas
    .save()
    .strokeColor([0, 0, 0])
    .lineWidth(Math.max(0.8, s * 0.12))
    .raw('1 J 1 j')
    .raw(`${p(0.12, 0.52)} m ${p(0.4, 0.22)} l ${p(0.9, 0.82)} l S`)
    .restore();
}

function drawCells(canvas: Canvas, text: string, box: Box, cellCount: number | undefined): void {
  const chars = graphemes(text).map((g) => g.segment);
  const cells = Math.max(1, cellCount ?? chars.length);
  const cellW = box.w / cells;
  const size = Math.min(box.h * 0.7, cellW * 0.9, 14);
  chars.slice(0, cells).forEach((ch, i) => {
    if (!ch.trim()) return;
    const line = shapeLine(ch);
    const fitSize = Math.min(size, (cellW * 0.95) / Math.max(line.width, 0.01));
    const cell = { x: box.x + i * cellW, y: box.y, w: cellW, h: box.h };
    drawLines(canvas, [line], fitSize, cell, [0, 0, 0], 'center');
  });
}

/** Where the glyphs of a line sit around their baseline, in em: cap height and descender depth. */
const CAP_HEIGHT = 0.72;
const DESCENDER = 0.22;

/**
 * Text at a given font size (issue 33 item 2): one line at that size (smaller only when wider than
 * the box), its glyphs centred in the box; wrapped lines when the box holds two lines at that size.
 */
function drawTextAtSize(canvas: Canvas, text: string, box: Box, fontSize: number): void {
  if (!text) return;
  const pad = Math.min(1, box.w * 0.04);
  const inner = { x: box.x + pad, y: box.y, w: Math.max(1, box.w - 2 * pad), h: box.h };
  const multiline = box.h >= fontSize * (ASCENT + DESCENT + LINE_HEIGHT);
  const fitted = fitText(text, multiline ? inner : { ...inner, h: Infinity }, {
    maxSize: fontSize,
    multiline,
  });
  if (multiline) {
    drawLines(canvas, fitted.lines, fitted.size, inner, [0, 0, 0]);
    return;
  }
  const line = fitted.lines[0]!;
  const size = fitted.size;
  const baseline = box.y + box.h / 2 - ((CAP_HEIGHT - DESCENDER) / 2) * size;
  const x = line.rtl ? inner.x + Math.max(0, inner.w - line.width * size) : inner.x;
  canvas.save().clipRect(box.x - 1, box.y - 1, box.w + 2, box.h + 2);
  canvas.text(line, x, baseline, size, [0, 0, 0]);
  canvas.restore();
}

/**
 * Draws one value in one area (box in display points, y up). `fontSize`: the size text values are
 * drawn at in this area (SealArea.fontSize).
 */
export function drawValue(
  canvas: Canvas,
  images: ImageCache,
  v: SealValue,
  box: Box,
  fontSize?: number,
): void {
  const value = v.value;
  if (value === null || value === undefined || value === '') return;
  const pad = Math.min(2, box.h * 0.08, box.w * 0.08);
  const inner = inset(box, pad);
  switch (v.type) {
    case 'checkbox':
      if (isChecked(value)) drawCheck(canvas, inner);
      return;
    case 'signature':
    case 'initials':
    case 'image':
    case 'stamp': {
      if (typeof value === 'string') {
        const img = value.startsWith('data:') ? images.get(value) : null;
        if (img) {
          drawPicture(canvas, img, inner);
          return;
        }
        if (value.startsWith('data:'))
          throw new Error(`${v.type} value is a data: URI that is not a PNG or JPEG image`);
      }
      const text = valueText(v);
      if (v.type === 'stamp') {
        canvas
          .save()
          .strokeColor(STAMP)
          .lineWidth(1)
          .rect(inner.x, inner.y, inner.w, inner.h)
          .raw('S')
          .restore();
        drawFittedText(canvas, text, inset(inner, 2), {
          maxSize: 24,
          multiline: true,
          style: 'bold',
          color: STAMP,
          align: 'center',
        });
        return;
      }
      const typed = v.type === 'signature' || v.type === 'initials';
      drawFittedText(canvas, text, inner, {
        maxSize: typed ? Math.max(6, inner.h * 0.75) : 12,
        multiline: !typed,
        style: typed ? 'italic' : 'regular',
        color: typed ? INK : [0, 0, 0],
        align: typed ? 'center' : 'start',
      });
      return;
    }
    case 'cells':
      drawCells(canvas, valueText(v), box, v.cellCount);
      return;
    default:
      if (fontSize && fontSize > 0) {
        drawTextAtSize(canvas, valueText(v), box, fontSize);
        return;
      }
      drawFittedText(canvas, valueText(v), inner, {
        maxSize: Math.min(12, Math.max(5, inner.h * 0.8)),
        multiline: true,
      });
  }
}

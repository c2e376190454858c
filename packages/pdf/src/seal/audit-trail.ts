import {
  CATALOGUES,
  direction,
  formatDateTime,
  type Locale,
  type MessageKey,
  type Translate,
  translator,
} from '@esign/i18n';
import { PDF, type PDFPage, type PdfRef } from '@libpdf/core';
import QRCode from 'qrcode';
import type { AuditTrailInput } from './audit-trail-input.ts';
import { Canvas, type Rgb } from './canvas.ts';
import { decodeImageDataUri, ImageCache } from './draw-values.ts';
import { DocumentFonts } from './fonts.ts';
import type { SigningIdentity } from './identity.ts';
import { displayPage, paintOnPage } from './page.ts';
import { drawTestMark, type SealTrust, signPdf } from './sign.ts';
import { ASCENT, DESCENT, LINE_HEIGHT, shapeLine, type TextStyle, wrapText } from './text.ts';

export type { AuditTrailInput };

type Signer = AuditTrailInput['signers'][number];

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN_X = 50;
const MARGIN_TOP = 60;
const MARGIN_BOTTOM = 56;
const CONTENT_W = PAGE_W - 2 * MARGIN_X;
const GREY: Rgb = [0.38, 0.38, 0.42];
const BLACK: Rgb = [0, 0, 0];

function isoTimestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The labels and times of one audit trail, in its language. */
interface Words {
  locale: Locale;
  tr: Translate;
  /** a time as its readers write it, with the ISO time (English: the ISO time alone) */
  time(d: Date | null): string;
}

function wordsFor(locale: Locale): Words {
  const tr = translator(locale);
  return {
    locale,
    tr,
    time: (d) => {
      if (!d) return '—';
      if (locale === 'en') return isoTimestamp(d);
      return tr('audit.time', { local: formatDateTime(locale, d), iso: isoTimestamp(d) });
    },
  };
}

interface Cell {
  text: string;
  width: number;
  style?: TextStyle;
  color?: Rgb;
}

/** A top-to-bottom text flow over as many A4 pages as needed. */
class Flow {
  readonly pages: { page: PDFPage; canvas: Canvas }[] = [];
  private y = 0;

  private readonly pdf: PDF;
  private readonly fonts: DocumentFonts;
  /**
   * A right-to-left trail (Arabic; issue 42.7): rows run from the right margin leftwards, so a
   * label stands right of its value, and every line starts at its cell's right edge.
   */
  private readonly rtl: boolean;

  constructor(pdf: PDF, fonts: DocumentFonts, rtl = false) {
    this.pdf = pdf;
    this.fonts = fonts;
    this.rtl = rtl;
    this.newPage();
  }

  /**
   * Where a line `width` points wide starts in the cell whose text area runs from `x` (left to
   * right reading) for `room` points: mirrored in a right-to-left trail.
   */
  private lineX(x: number, room: number, line: { rtl: boolean; width: number }): number {
    if (this.rtl) return PAGE_W - x - line.width;
    return line.rtl ? x + Math.max(0, room - line.width) : x;
  }

  private get canvas(): Canvas {
    return this.pages[this.pages.length - 1]!.canvas;
  }

  newPage(): void {
    const page = this.pdf.addPage({ width: PAGE_W, height: PAGE_H });
    this.pages.push({ page, canvas: new Canvas(this.pdf, this.fonts) });
    this.y = PAGE_H - MARGIN_TOP;
  }

  ensure(height: number): void {
    if (this.y - height < MARGIN_BOTTOM) this.newPage();
  }

  space(h: number): void {
    this.y -= h;
  }

  /** One row of cells side by side, each wrapped within its width. */
  row(cells: Cell[], size: number, gap = 10): void {
    const wrapped = cells.map((c) => wrapText(c.text || ' ', size, c.width - gap, c.style));
    const lineCount = Math.max(...wrapped.map((w) => w.length));
    const lineStep = size * LINE_HEIGHT;
    // Rows taller than a page are split line by line.
    for (let i = 0; i < lineCount; ) {
      this.ensure(size * (ASCENT + DESCENT));
      const fit = Math.max(
        1,
        Math.floor((this.y - MARGIN_BOTTOM - size * (ASCENT + DESCENT)) / lineStep) + 1,
      );
      const take = Math.min(lineCount - i, fit);
      let x = MARGIN_X;
      cells.forEach((cell, k) => {
        let baseline = this.y - size * ASCENT;
        for (const text of wrapped[k]!.slice(i, i + take)) {
          const line = shapeLine(text, cell.style);
          const lx = this.lineX(x, cell.width - gap, { rtl: line.rtl, width: line.width * size });
          this.canvas.text(line, lx, baseline, size, cell.color ?? BLACK);
          baseline -= lineStep;
        }
        x += cell.width;
      });
      this.y -= size * (ASCENT + DESCENT) + (take - 1) * lineStep + size * 0.3;
      i += take;
      if (i < lineCount) this.newPage();
    }
  }

  text(text: string, size: number, style: TextStyle = 'regular', color: Rgb = BLACK): void {
    this.row([{ text, width: CONTENT_W + 10, style, color }], size);
  }

  heading(text: string): void {
    this.ensure(60);
    this.space(10);
    this.text(text, 13, 'bold');
    this.rule();
  }

  rule(): void {
    this.canvas
      .save()
      .strokeColor([0.75, 0.75, 0.8])
      .lineWidth(0.6)
      .raw(`${MARGIN_X} ${this.y.toFixed(2)} m ${PAGE_W - MARGIN_X} ${this.y.toFixed(2)} l S`)
      .restore();
    this.space(6);
  }

  keyValues(rows: [string, string][], size = 9): void {
    for (const [label, value] of rows) {
      this.row(
        [
          { text: label, width: 140, color: GREY },
          { text: value, width: CONTENT_W - 140 + 10 },
        ],
        size,
      );
    }
  }

  /**
   * A QR code (drawn as vector squares, with its quiet zone) at the left margin, and `lines`
   * beside it.
   */
  qr(text: string, lines: string[], size = 84): void {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const quiet = 4;
    const cell = size / (modules.size + 2 * quiet);
    this.ensure(size + 6);
    const top = this.y;
    const x0 = MARGIN_X + quiet * cell;
    const y0 = top - quiet * cell;
    const path: string[] = [];
    for (let r = 0; r < modules.size; r++) {
      for (let c = 0; c < modules.size; c++) {
        if (!modules.get(r, c)) continue;
        const x = x0 + c * cell;
        const y = y0 - (r + 1) * cell;
        path.push(`${x.toFixed(3)} ${y.toFixed(3)} ${cell.toFixed(3)} ${cell.toFixed(3)} re`);
      }
    }
    this.canvas
      .save()
      .fillColor([1, 1, 1])
      .rect(MARGIN_X, top - size, size, size)
      .raw('f');
    this.canvas
      .fillColor(BLACK)
      .raw(`${path.join('\n')}\nf`)
      .restore();
    let baseline = top - 14;
    for (const [i, line] of lines.entries()) {
      for (const wrapped of wrapText(line, 9, CONTENT_W - size - 14, i === 0 ? 'bold' : 'regular')) {
        this.canvas.text(
          shapeLine(wrapped, i === 0 ? 'bold' : 'regular'),
          MARGIN_X + size + 12,
          baseline,
          9,
          i === 0 ? BLACK : GREY,
        );
        baseline -= 9 * LINE_HEIGHT;
      }
    }
    this.y = Math.min(top - size, baseline) - 6;
  }

  /** A brand's logo at the start of the line (the right end right to left), at most 40 pt high. */
  logo(img: { ref: PdfRef; width: number; height: number }): void {
    const scale = Math.min(160 / img.width, 40 / img.height);
    const w = img.width * scale;
    const h = img.height * scale;
    this.ensure(h + 6);
    const x = this.rtl ? PAGE_W - MARGIN_X - w : MARGIN_X;
    this.canvas.image(img.ref, x, this.y - h, w, h);
    this.y -= h + 6;
  }

  picture(label: string, img: { ref: PdfRef; width: number; height: number }): void {
    const maxW = 180;
    const maxH = 50;
    const scale = Math.min(maxW / img.width, maxH / img.height);
    const w = img.width * scale;
    const h = img.height * scale;
    this.ensure(h + 6);
    const labelLine = shapeLine(label);
    const labelX = this.lineX(MARGIN_X, 130, { rtl: labelLine.rtl, width: labelLine.width * 9 });
    this.canvas.text(labelLine, labelX, this.y - 9 * ASCENT, 9, GREY);
    // The picture in the value column: right of the label, or left of it right to left.
    const x = this.rtl ? PAGE_W - MARGIN_X - 140 - w : MARGIN_X + 140;
    this.canvas
      .save()
      .strokeColor([0.85, 0.85, 0.88])
      .lineWidth(0.5)
      .rect(x, this.y - h, w, h)
      .raw('S');
    this.canvas.restore().image(img.ref, x, this.y - h, w, h);
    this.y -= h + 6;
  }
}

function valueToText(value: unknown, w: Words): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map((v) => valueToText(v, w)).join(', ');
  if (typeof value === 'boolean') return value ? w.tr('audit.yes') : w.tr('audit.no');
  if (typeof value === 'number') return new Intl.NumberFormat(w.locale).format(value);
  if (typeof value === 'object') return JSON.stringify(value);
  const s = String(value);
  if (s.startsWith('data:')) return `[${s.slice(5, s.indexOf(';') > 0 ? s.indexOf(';') : 30)} data]`;
  return s;
}

/**
 * Builds the audit trail of a signature request: the request and how it was sealed, every
 * document's SHA-256 as uploaded, as stored (after text-tag removal) and as signed, each signer's
 * identity evidence and how they were authenticated, their consent, timestamps and values (with
 * pictures of signatures and how each was made), and the event log. Sealed like the documents.
 */
export async function buildAuditTrail(
  input: AuditTrailInput,
  identity: SigningIdentity,
  trust?: SealTrust,
): Promise<Uint8Array> {
  const pdf = PDF.create();
  const fonts = new DocumentFonts(pdf);
  const images = new ImageCache(pdf);
  const w = wordsFor(input.locale ?? 'en');
  const flow = new Flow(pdf, fonts, direction(w.locale) === 'rtl');
  writeBrand(flow, images, input.brand);
  writeHeader(flow, w, { input, identity });
  if (input.verifyUrl) writeVerify(flow, w, input.verifyUrl);
  writeDocuments(flow, w, input.documents);
  flow.heading(w.tr('audit.signers'));
  for (const [i, signer] of input.signers.entries()) writeSigner(flow, w, { images, signer, i });
  writeEvents(flow, w, input.events);
  finishPages(pdf, flow, { input, w });
  fonts.finish();
  pdf.setTitle(w.tr('audit.doc_title', { title: input.title }));
  pdf.setCreationDate(input.completedAt ?? new Date());
  const bytes = await pdf.save();
  const signed = await signPdf(await PDF.load(bytes), identity, {
    reason: `Audit trail of signature request #${input.requestId}`,
    contactInfo: input.verifyUrl,
    trust,
  });
  return signed.bytes;
}

/** The brand's logo and name above the title (issue 44), or nothing. */
function writeBrand(flow: Flow, images: ImageCache, brand: AuditTrailInput['brand']): void {
  if (!brand) return;
  const img = brand.logo && decodeImageDataUri(brand.logo) ? images.get(brand.logo) : null;
  if (img) flow.logo(img);
  flow.text(brand.name, 13, 'bold', GREY);
  flow.space(4);
}

function writeHeader(flow: Flow, w: Words, o: { input: AuditTrailInput; identity: SigningIdentity }): void {
  const { input, identity } = o;
  flow.text(w.tr('audit.title'), 20, 'bold');
  flow.text(input.title, 12, 'regular', GREY);
  flow.space(8);
  flow.keyValues([
    [w.tr('audit.request'), `#${input.requestId}`],
    [w.tr('audit.created'), w.time(input.createdAt)],
    [w.tr('audit.completed'), w.time(input.completedAt)],
    [w.tr('audit.environment'), input.testMode ? w.tr('audit.env_test') : w.tr('audit.env_live')],
    [w.tr('audit.sealed_by'), identity.subject],
    [w.tr('audit.certificate'), identity.fingerprintSha256],
    ...sealingRows(w, input.sealing),
  ]);
}

function sealingRows(w: Words, sealing: AuditTrailInput['sealing']): [string, string][] {
  if (!sealing) return [];
  return [
    [w.tr('audit.sealed'), w.time(sealing.at)],
    [w.tr('audit.seal_level'), `PAdES ${sealing.level}`],
    [w.tr('audit.tsa'), sealing.timestampAuthority ?? w.tr('audit.tsa_none')],
    [w.tr('audit.trusted_time'), sealing.timestampTime ? w.time(sealing.timestampTime) : '—'],
  ];
}

function writeVerify(flow: Flow, w: Words, url: string): void {
  flow.space(6);
  flow.qr(url, [w.tr('audit.verify_at', { url }), w.tr('audit.verify_text')]);
}

function writeDocuments(flow: Flow, w: Words, documents: AuditTrailInput['documents']): void {
  flow.heading(w.tr('audit.documents'));
  for (const doc of documents) {
    flow.row([{ text: `${doc.name} (#${doc.id})`, width: CONTENT_W + 10, style: 'bold' }], 10);
    flow.keyValues([
      [w.tr('audit.sha_uploaded'), doc.uploadedSha256 ?? w.tr('audit.not_recorded')],
      [w.tr('audit.sha_original'), doc.originalSha256],
      [w.tr('audit.sha_signed'), doc.sealedSha256],
    ]);
    flow.space(4);
  }
}

function signerRows(signer: Signer, w: Words): [string, string][] {
  const { tr, time } = w;
  const kind = signer.kind ?? 'signer';
  const rows: [string, string][] = [
    [tr('audit.part'), tr(`audit.part_${kind}`)],
    [tr('audit.signer_id'), `#${signer.id}`],
    [tr('audit.email'), signer.email ?? '—'],
    [tr('audit.phone'), signer.phone ?? '—'],
    [tr('audit.ip'), signer.ip ?? '—'],
    [tr('audit.user_agent'), signer.userAgent ?? '—'],
    [tr('audit.authentication'), signer.authentication?.length ? signer.authentication.join('; ') : '—'],
    [tr('audit.invited'), time(signer.sentAt)],
    [tr('audit.viewed'), time(signer.viewedAt)],
  ];
  if (signer.otpVerifiedAt) rows.push([tr('audit.code_verified'), time(signer.otpVerifiedAt)]);
  if (signer.consent) {
    rows.push([tr('audit.consent'), time(signer.consent.at)]);
    rows.push([tr('audit.consent_text'), signer.consent.text ?? tr('audit.not_recorded')]);
  }
  const finished = {
    signer: 'audit.signed',
    approver: 'audit.approved',
    viewer: 'audit.acknowledged',
  } as const;
  if (signer.signedAt) rows.push([tr(finished[kind]), time(signer.signedAt)]);
  if (signer.declinedAt) {
    rows.push([tr(kind === 'approver' ? 'audit.rejected' : 'audit.declined'), time(signer.declinedAt)]);
    rows.push([tr('audit.decline_reason'), signer.declineReason ?? '—']);
  }
  return rows;
}

function writeSigner(flow: Flow, w: Words, o: { images: ImageCache; signer: Signer; i: number }): void {
  const { images, signer, i } = o;
  flow.ensure(80);
  const who = signer.name ?? signer.email ?? signer.phone ?? w.tr('audit.signer', { id: signer.id });
  const title = `${i + 1}. ${who}${signer.role ? ` — ${signer.role}` : ''}`;
  flow.row([{ text: title, width: CONTENT_W + 10, style: 'bold' }], 11);
  flow.keyValues(signerRows(signer, w));
  if (signer.values.length) {
    flow.space(2);
    flow.row([{ text: w.tr('audit.values'), width: CONTENT_W + 10, style: 'bold', color: GREY }], 9);
    for (const { field, value, method } of signer.values) {
      const label = method ? `${field} (${w.tr('audit.method', { method })})` : field;
      const img = typeof value === 'string' && decodeImageDataUri(value) ? images.get(value) : null;
      if (img) flow.picture(label, img);
      else flow.keyValues([[label, valueToText(value, w)]]);
    }
  }
  flow.space(8);
}

/**
 * An event in the trail's words (`signer.signed` → `audit.event.signer_signed`); the recorded type
 * stays beside it, as the API's timeline names it. A type without words is shown as recorded.
 */
function eventLabel(type: string, w: Words): string {
  const key = `audit.event.${type.replace(/\./g, '_')}`;
  return key in CATALOGUES.en ? w.tr(key as MessageKey) : type;
}

function writeEvents(flow: Flow, w: Words, events: AuditTrailInput['events']): void {
  flow.heading(w.tr('audit.events'));
  for (const event of events) {
    flow.row(
      [
        { text: w.time(event.at), width: 125, color: GREY },
        { text: eventLabel(event.type, w), width: 135, style: 'bold' },
        { text: `${event.type} · ${event.detail}`, width: CONTENT_W - 260 + 10 },
      ],
      8.5,
    );
  }
}

/** Footer with page numbers, and the test mark, on every page; then the drawings are written. */
function finishPages(pdf: PDF, flow: Flow, o: { input: AuditTrailInput; w: Words }): void {
  const { input, w } = o;
  const total = flow.pages.length;
  flow.pages.forEach(({ page, canvas }, i) => {
    const verify = input.verifyUrl ? ` · ${w.tr('audit.footer_verify', { url: input.verifyUrl })}` : '';
    const footer = shapeLine(
      `${w.tr('audit.footer', { id: input.requestId, page: i + 1, pages: total })}${verify}`,
    );
    canvas.text(footer, MARGIN_X, 30, 8, GREY);
    if (input.testMode) drawTestMark(canvas, PAGE_W, PAGE_H);
    const display = displayPage(page);
    paintOnPage(pdf, page, canvas.finish(display.width, display.height), display);
  });
}

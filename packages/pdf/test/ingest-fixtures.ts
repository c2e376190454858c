/**
 * Fixture generators for document-ingest tests. Every file is generated (pdf-lib, @libpdf/core,
 * @napi-rs/canvas, qpdf when asked); nothing is read from disk except the Liberation Sans font
 * that ships inside pdfjs-dist. Reusable from other packages' tests:
 *
 *   import { makeTaggedPdf } from '../../../packages/pdf/test/ingest-fixtures.ts';
 *
 * Importing this module starts no process; qpdf is only spawned by `makeEncryptedPdf(…, { via: 'qpdf' })`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { PDF } from '@libpdf/core';
import { createCanvas } from '@napi-rs/canvas';
import {
  degrees,
  PDFArray,
  PDFDocument,
  type PDFFont,
  PDFName,
  type PDFPage,
  PDFString,
  rgb,
  StandardFonts,
} from 'pdf-lib';

const run = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// Plain PDFs

export interface PlainPdfOptions {
  /** Page size in points (default US Letter). */
  size?: [number, number];
  /** Text drawn on page i (0-based); default `Page <n>`. */
  text?: (index: number) => string;
}

/** A PDF with `pages` pages, each showing one line of text near the top. */
export async function makePlainPdf(pages = 1, opts: PlainPdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const [w, h] = opts.size ?? [612, 792];
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([w, h]);
    page.drawText(opts.text?.(i) ?? `Page ${i + 1}`, { x: 50, y: h - 60, size: 14, font });
  }
  return doc.save();
}

/**
 * Pages exercising displayed sizes: page 1 plain 612×792, page 2 /Rotate 90, page 3 /Rotate 180,
 * page 4 /Rotate 270, page 5 a CropBox [50 100 550 700] (500×600), page 6 /Rotate 90 with that
 * CropBox, page 7 landscape 842×595. Each page shows a tag `{{p<n>;type=text}}` at user-space
 * (100, 500) so areas can be checked under every rotation.
 */
export async function makeRotatedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const specs: { size: [number, number]; rotate?: number; crop?: [number, number, number, number] }[] = [
    { size: [612, 792] },
    { size: [612, 792], rotate: 90 },
    { size: [612, 792], rotate: 180 },
    { size: [612, 792], rotate: 270 },
    { size: [612, 792], crop: [50, 100, 550, 700] },
    { size: [612, 792], rotate: 90, crop: [50, 100, 550, 700] },
    { size: [842, 595] },
  ];
  specs.forEach((s, i) => {
    const page = doc.addPage(s.size);
    if (s.rotate) page.setRotation(degrees(s.rotate));
    if (s.crop) page.setCropBox(s.crop[0], s.crop[1], s.crop[2] - s.crop[0], s.crop[3] - s.crop[1]);
    page.drawText(`{{p${i + 1};type=text}}`, { x: 100, y: 500, size: 12, font });
  });
  return doc.save();
}

// ---------------------------------------------------------------------------------------------
// Text tags

export interface TagLine {
  /** Text runs drawn one after another on one baseline (a tag may be split across runs). */
  runs: string[];
  x?: number;
  y: number;
  size?: number;
  /** Draw every other run in Helvetica-Bold (a tag split across fonts). */
  alternateBold?: boolean;
}

/**
 * A PDF whose pages show the given lines (default: `makeTaggedPdf.sample`). Runs are drawn by
 * separate text operations, each placed exactly where the previous one ended.
 */
export async function makeTaggedPdf(pages: TagLine[][] = makeTaggedPdf.sample): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    for (const line of lines) drawRuns(page, line, regular, bold);
  }
  return doc.save();
}

makeTaggedPdf.sample = [
  [
    { runs: ['Agreement between the parties'], y: 740 },
    { runs: ['Name: {{Full name;role=Client}}'], y: 600 },
    { runs: ['Sign here: {{signature;role=Client}} thank you'], y: 500 },
    { runs: ['Date: {{da', 'te;ro', 'le=Client}}'], y: 450 },
    { runs: ['Plan: {{Plan;type=select;options=Basic,Pro;role=Client;required=false}}'], y: 400 },
  ],
  [
    { runs: ['Page two text'], y: 740 },
    { runs: ['Initials: {{initials;role=Client}}'], y: 300 },
    { runs: ['Landlord: {{signature;role=Landlord;width=150;height=40}}'], y: 200 },
    { runs: ['Again: {{signature;role=Client}}'], y: 100, alternateBold: true },
  ],
] satisfies TagLine[][];

function drawRuns(page: PDFPage, line: TagLine, regular: PDFFont, bold: PDFFont): void {
  const size = line.size ?? 12;
  let x = line.x ?? 50;
  line.runs.forEach((text, i) => {
    const font = line.alternateBold && i % 2 === 1 ? bold : regular;
    page.drawText(text, { x, y: line.y, size, font, color: rgb(0, 0, 0) });
    // Advance by the glyph widths (pdf-lib's widthOfTextAtSize adds pair kerning, drawText does not).
    x += [...text].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0);
  });
}

/**
 * One page whose content stream is written by hand to exercise the text operators pdf-lib never
 * emits: TJ with kerning inside a tag, character and word spacing, horizontal scaling, the `'`
 * and `"` operators, and a tag inside a form XObject that is drawn twice.
 */
export async function makeHandWrittenTagPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const f1 = page.node.newFontDictionary('F1', font.ref);
  const formContent = `BT /${f1.asString().slice(1)} 10 Tf 0 0 Td (Form {{Witness;role=Witness}} end) Tj ET`;
  const form = doc.context.stream(formContent, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, 300, 20],
    Resources: { Font: { [f1.asString().slice(1)]: font.ref } },
  });
  const formRef = doc.context.register(form);
  const x1 = page.node.newXObject('Fm1', formRef);
  const F = f1.asString();
  const content = [
    'BT',
    `${F} 12 Tf`,
    '1 0 0 1 50 700 Tm',
    '[(Kerned: {{Ker) -250 (ned;role=Client}}) 120 ( tail)] TJ',
    '14 TL',
    '0.5 Tc 2 Tw',
    "(Spaced {{Spaced}} words after) '",
    '0 Tc 0 Tw',
    '3 1 (Quote {{Quoted}} after) "',
    '0 Tw 0 Tc 80 Tz',
    '1 0 0 1 50 600 Tm (Scaled {{Scaled}} after) Tj',
    '100 Tz',
    'ET',
    `q 1 0 0 1 50 500 cm ${x1.asString()} Do Q`,
    `q 0 1 -1 0 400 300 cm ${x1.asString()} Do Q`,
  ].join('\n');
  const contentRef = doc.context.register(doc.context.stream(content));
  page.node.set(PDFName.of('Contents'), contentRef);
  return doc.save();
}

/** A page using an embedded TrueType font (Type0, Identity-H) for its tags, written by @libpdf/core. */
export async function makeType0TagPdf(): Promise<Uint8Array> {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const ttf = await readFile(join(root, 'standard_fonts', 'LiberationSans-Regular.ttf'));
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 612, height: 792 });
  const font = pdf.embedFont(new Uint8Array(ttf));
  page.drawText('Client signature: {{signature;role=Client}} — merci', { x: 50, y: 700, size: 12, font });
  page.drawText('Nom : {{Prénom;role=Client}}', { x: 50, y: 650, size: 12, font });
  return pdf.save();
}

// ---------------------------------------------------------------------------------------------
// AcroForm

/**
 * Two pages of fillable fields, one of each kind:
 * `name` (text, required, widgets on pages 1 and 2), `agree` (checkbox), `color` (radio: red,
 * green, blue), `country` (dropdown: France, Germany, Spain), `toppings` (multi-select list:
 * Cheese, Ham), `sig` (signature, hand-built: pdf-lib has no API for it), `locked` (read-only
 * text, skipped), `go` (push button, skipped), and `person.email` (a child field, text).
 */
export async function makeFormPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const p1 = doc.addPage([612, 792]);
  const p2 = doc.addPage([612, 792]);
  const form = doc.getForm();
  const name = form.createTextField('name');
  name.enableRequired();
  name.addToPage(p1, { x: 50, y: 700, width: 200, height: 20, borderWidth: 0 });
  name.addToPage(p2, { x: 50, y: 700, width: 200, height: 20, borderWidth: 0 });
  form.createCheckBox('agree').addToPage(p1, { x: 50, y: 650, width: 15, height: 15 });
  const color = form.createRadioGroup('color');
  color.addOptionToPage('red', p1, { x: 50, y: 600, width: 15, height: 15, borderWidth: 0 });
  color.addOptionToPage('green', p1, { x: 80, y: 600, width: 15, height: 15, borderWidth: 0 });
  color.addOptionToPage('blue', p1, { x: 110, y: 600, width: 15, height: 15, borderWidth: 0 });
  const country = form.createDropdown('country');
  country.addOptions(['France', 'Germany', 'Spain']);
  country.addToPage(p1, { x: 50, y: 550, width: 120, height: 20 });
  const toppings = form.createOptionList('toppings');
  toppings.addOptions(['Cheese', 'Ham']);
  toppings.enableMultiselect();
  toppings.addToPage(p1, { x: 50, y: 480, width: 120, height: 50 });
  const locked = form.createTextField('locked');
  locked.enableReadOnly();
  locked.addToPage(p1, { x: 300, y: 700, width: 100, height: 20 });
  form.createButton('go').addToPage('Go', p1, { x: 300, y: 650, width: 50, height: 20 });
  form.createTextField('person.email').addToPage(p2, { x: 50, y: 600, width: 200, height: 20 });

  const sig = doc.context.obj({
    FT: 'Sig',
    T: PDFString.of('sig'),
    Type: 'Annot',
    Subtype: 'Widget',
    Rect: [300, 100, 500, 150],
    F: 4,
    P: p2.ref,
  });
  const sigRef = doc.context.register(sig);
  const annots = p2.node.lookup(PDFName.of('Annots'));
  if (annots instanceof PDFArray) annots.push(sigRef);
  else p2.node.set(PDFName.of('Annots'), doc.context.obj([sigRef]));
  form.acroForm.addField(sigRef);
  return doc.save();
}

// ---------------------------------------------------------------------------------------------
// Encryption

export type EncryptionKind = 'rc4-40' | 'rc4-128' | 'aes-128' | 'aes-256';

export interface EncryptOptions {
  userPassword?: string;
  ownerPassword?: string;
  /**
   * qpdf (an independent implementation; needs the qpdf binary) or @libpdf/core, which writes
   * AES-256 only. Default: libpdf for `aes-256`, qpdf for the others.
   */
  via?: 'qpdf' | 'libpdf';
  /** Forbid modification (and so removal of the protection with the user password). */
  forbidModify?: boolean;
  /** The PDF to encrypt (default: a tagged two-page PDF). */
  base?: Uint8Array;
}

export const FIXTURE_USER_PASSWORD = 'user-secret';
export const FIXTURE_OWNER_PASSWORD = 'owner-secret';

/** Whether the qpdf binary is available (for `via: 'qpdf'`). */
export async function hasQpdf(): Promise<boolean> {
  try {
    await run('qpdf', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** An encrypted copy of `base`. User password `user-secret`, owner password `owner-secret` by default. */
export async function makeEncryptedPdf(kind: EncryptionKind, opts: EncryptOptions = {}): Promise<Uint8Array> {
  const base = opts.base ?? (await makeTaggedPdf());
  const user = opts.userPassword ?? FIXTURE_USER_PASSWORD;
  const owner = opts.ownerPassword ?? FIXTURE_OWNER_PASSWORD;
  const via = opts.via ?? (kind === 'aes-256' ? 'libpdf' : 'qpdf');
  if (via === 'qpdf') {
    const dir = await mkdtemp(join(tmpdir(), 'esign-ingest-'));
    try {
      const input = join(dir, 'in.pdf');
      const output = join(dir, 'out.pdf');
      await writeFile(input, base);
      const bits = kind === 'rc4-40' ? '40' : kind === 'aes-256' ? '256' : '128';
      const args = ['--allow-weak-crypto', '--encrypt', user, owner, bits];
      if (kind === 'aes-128') args.push('--use-aes=y');
      if (kind === 'rc4-128') args.push('--use-aes=n');
      if (opts.forbidModify) args.push(bits === '40' ? '--modify=n' : '--modify=none');
      args.push('--', input, output);
      await run('qpdf', args);
      return new Uint8Array(await readFile(output));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (kind !== 'aes-256') throw new Error(`@libpdf/core only writes AES-256; use via: 'qpdf' for ${kind}`);
  const pdf = await PDF.load(base);
  pdf.setProtection({
    userPassword: user,
    ownerPassword: owner,
    algorithm: 'AES-256',
    permissions: opts.forbidModify ? { modify: false } : {},
  });
  return pdf.save();
}

// ---------------------------------------------------------------------------------------------
// Images

function drawTestPattern(width: number, height: number, transparent: boolean) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  if (!transparent) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
  }
  // Red top-left quadrant, blue bottom-right quadrant: shows orientation after conversion.
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, width / 2, height / 2);
  ctx.fillStyle = '#0000ff';
  ctx.fillRect(width / 2, height / 2, width / 2, height / 2);
  return canvas;
}

export async function makePngImage(
  width = 400,
  height = 300,
  opts: { transparent?: boolean } = {},
): Promise<Uint8Array> {
  return new Uint8Array(await drawTestPattern(width, height, opts.transparent ?? false).encode('png'));
}

/**
 * The test pattern as a PNG written byte by byte, in the layouts a canvas never writes:
 * `bitDepth` 4 (indexed colour, two pixels a byte) or 16 (RGB), and optionally Adam7 interlaced.
 */
export function makeRawPng(
  width: number,
  height: number,
  opts: { bitDepth: 4 | 8 | 16; interlace?: boolean },
): Uint8Array {
  const colors = [
    [255, 255, 255],
    [255, 0, 0],
    [0, 0, 255],
  ] as const;
  const index = (x: number, y: number) =>
    x < width / 2 && y < height / 2 ? 1 : x >= width / 2 && y >= height / 2 ? 2 : 0;
  const indexed = opts.bitDepth === 4;
  const scanline = (xs: number[], y: number): number[] => {
    const line = [0]; // filter type None
    if (indexed) {
      for (let i = 0; i < xs.length; i += 2)
        line.push((index(xs[i]!, y) << 4) | (i + 1 < xs.length ? index(xs[i + 1]!, y) : 0));
      return line;
    }
    for (const x of xs)
      for (const c of colors[index(x, y)]!) line.push(...(opts.bitDepth === 16 ? [c, c] : [c]));
    return line;
  };
  // Adam7 passes as [x0, y0, dx, dy]; a plain PNG is one pass over every pixel.
  const passes = opts.interlace
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ]
    : [[0, 0, 1, 1]];
  const raw: number[] = [];
  for (const [x0, y0, dx, dy] of passes as [number, number, number, number][]) {
    const xs: number[] = [];
    for (let x = x0; x < width; x += dx) xs.push(x);
    if (xs.length === 0) continue;
    for (let y = y0; y < height; y += dy) raw.push(...scanline(xs, y));
  }
  const chunk = (type: string, data: Uint8Array) => {
    const body = concat(new TextEncoder().encode(type), data);
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(body, 4);
    view.setUint32(8 + data.length, crc32(body));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([opts.bitDepth, indexed ? 3 : 2, 0, 0, opts.interlace ? 1 : 0], 8);
  return concat(
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(indexed ? [chunk('PLTE', Uint8Array.from(colors.flat()))] : []),
    chunk('IDAT', new Uint8Array(deflateSync(Uint8Array.from(raw)))),
    chunk('IEND', new Uint8Array(0)),
  );
}

export async function makeWebpImage(
  width = 400,
  height = 300,
  opts: { transparent?: boolean } = {},
): Promise<Uint8Array> {
  return new Uint8Array(await drawTestPattern(width, height, opts.transparent ?? false).encode('webp', 90));
}

export async function makeAvifImage(width = 64, height = 48): Promise<Uint8Array> {
  return new Uint8Array(await drawTestPattern(width, height, false).encode('avif'));
}

export function makeGifImage(width = 40, height = 30): Uint8Array {
  return new Uint8Array(drawTestPattern(width, height, false).toBuffer('image/gif'));
}

/**
 * A JPEG, optionally with an EXIF orientation tag (1..8) and a JFIF density in dpi. With an
 * orientation, the stored pixels are what a camera stores: the scene rotated back, so that
 * applying the orientation shows the test pattern upright.
 */
export async function makeJpegImage(
  width = 400,
  height = 300,
  opts: { orientation?: number; dpi?: number } = {},
): Promise<Uint8Array> {
  let canvas = drawTestPattern(width, height, false);
  if (opts.orientation === 6 || opts.orientation === 8) {
    // Store the upright pattern rotated so that the EXIF rotation restores it.
    const stored = createCanvas(height, width);
    const ctx = stored.getContext('2d');
    if (opts.orientation === 6) {
      ctx.translate(0, width);
      ctx.rotate(-Math.PI / 2);
    } else {
      ctx.translate(height, 0);
      ctx.rotate(Math.PI / 2);
    }
    ctx.drawImage(canvas, 0, 0);
    canvas = stored;
  } else if (opts.orientation === 3) {
    const stored = createCanvas(width, height);
    const ctx = stored.getContext('2d');
    ctx.translate(width, height);
    ctx.rotate(Math.PI);
    ctx.drawImage(canvas, 0, 0);
    canvas = stored;
  }
  let jpeg: Uint8Array = new Uint8Array(await canvas.encode('jpeg', 90));
  if (opts.dpi !== undefined) jpeg = setJfifDensity(jpeg, opts.dpi);
  if (opts.orientation !== undefined) jpeg = insertExifOrientation(jpeg, opts.orientation);
  return jpeg;
}

function setJfifDensity(jpeg: Uint8Array, dpi: number): Uint8Array {
  const out = jpeg.slice();
  // FF D8 FF E0 len(2) 'JFIF\0' ver(2) units(1) Xdensity(2) Ydensity(2)
  if (out[2] === 0xff && out[3] === 0xe0) {
    out[13] = 1;
    out[14] = dpi >> 8;
    out[15] = dpi & 0xff;
    out[16] = dpi >> 8;
    out[17] = dpi & 0xff;
    return out;
  }
  const app0 = Uint8Array.from([
    0xff,
    0xe0,
    0,
    16,
    0x4a,
    0x46,
    0x49,
    0x46,
    0,
    1,
    1,
    1,
    dpi >> 8,
    dpi & 0xff,
    dpi >> 8,
    dpi & 0xff,
    0,
    0,
  ]);
  return concat(out.subarray(0, 2), app0, out.subarray(2));
}

function insertExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  // APP1: "Exif\0\0", big-endian TIFF header, IFD0 with one entry (0x0112 SHORT 1 = orientation).
  const tiff = [
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const len = payload.length + 2;
  const app1 = Uint8Array.from([0xff, 0xe1, len >> 8, len & 0xff, ...payload]);
  return concat(jpeg.subarray(0, 2), app1, jpeg.subarray(2));
}

/** An uncompressed 24-bit BMP (written by hand: canvas cannot encode BMP). */
export function makeBmpImage(width = 40, height = 30): Uint8Array {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + rowSize * height;
  const b = new Uint8Array(size);
  const dv = new DataView(b.buffer);
  b[0] = 0x42;
  b[1] = 0x4d;
  dv.setUint32(2, size, true);
  dv.setUint32(10, 54, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, width, true);
  dv.setInt32(22, height, true);
  dv.setUint16(26, 1, true);
  dv.setUint16(28, 24, true);
  dv.setUint32(34, rowSize * height, true);
  dv.setUint32(38, 2835, true);
  dv.setUint32(42, 2835, true);
  for (let y = 0; y < height; y++) {
    const top = height - 1 - y; // rows are stored bottom-up
    for (let x = 0; x < width; x++) {
      const at = 54 + y * rowSize + x * 3;
      const red = top < height / 2 && x < width / 2;
      const blue = top >= height / 2 && x >= width / 2;
      b[at] = red ? 0 : 255; // B
      b[at + 1] = red || blue ? 0 : 255; // G
      b[at + 2] = blue ? 0 : 255; // R
    }
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// Broken input and large files

/**
 * A small hostile PDF that is slow to process: `pages` pages sharing one Flate-compressed content
 * stream that decodes to `decodedBytes` of text-showing operators (about 200 kB per 1 kB of file),
 * so every page decodes and scans the whole stream. The default, 500 pages × 200 kB, is a ~75 kB
 * file that keeps an ingest worker busy for ~30 s without needing much memory; one page of 2 MB
 * (~6 kB) takes pdf.js ~20 s to render.
 */
export function makeSlowPdf(pages = 500, decodedBytes = 200_000): Uint8Array {
  const op = 'BT /F1 12 Tf 72 720 Td (Nothing to see here, just text) Tj ET\n';
  const content = deflateSync(Buffer.from(op.repeat(Math.ceil(decodedBytes / op.length))), { level: 9 });
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let pos = 0;
  const push = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    chunks.push(buf);
    pos += buf.length;
  };
  const obj = (n: number, ...body: (Buffer | string)[]) => {
    offsets[n] = pos;
    push(`${n} 0 obj\n`);
    for (const b of body) push(b);
    push('\nendobj\n');
  };
  push('%PDF-1.7\n');
  const kids = Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`);
  obj(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  obj(4, `<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, content, '\nendstream');
  for (let i = 0; i < pages; i++)
    obj(
      5 + i,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>',
    );
  const count = 5 + pages;
  const xref = pos;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let i = 1; i < count; i++) push(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A PDF header followed by garbage: sniffs as PDF, cannot be parsed. */
export function makeCorruptPdf(): Uint8Array {
  const garbage = new Uint8Array(2048);
  let seed = 7;
  for (let i = 0; i < garbage.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    garbage[i] = seed & 0xff;
  }
  return concat(new TextEncoder().encode('%PDF-1.7\n'), garbage);
}

/**
 * A large PDF: `pages` pages, each with a distinct-enough JPEG (noise, so it does not compress)
 * and a line of text; every tenth page carries `{{signature;role=Client}}`. About `pages × 120 kB` (200 pages ≈ 24 MB).
 */
export async function makeLargePdf(pages = 200, opts: { imageBytes?: number } = {}): Promise<Uint8Array> {
  const target = opts.imageBytes ?? 120_000;
  // Random noise JPEG at quality 80 costs ~0.66 bytes per pixel.
  const pixels = Math.round(target / 0.66);
  const w = Math.round(Math.sqrt(pixels * 1.5));
  const h = Math.round(pixels / w);
  const images: Uint8Array[] = [];
  let seed = 1;
  for (let k = 0; k < 8; k++) {
    const canvas = createCanvas(w, h);
    const ctx = canvas.getContext('2d');
    const data = ctx.createImageData(w, h);
    for (let i = 0; i < data.data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      data.data[i] = i % 4 === 3 ? 255 : (seed >> 16) & 0xff;
    }
    ctx.putImageData(data, 0, 0);
    images.push(new Uint8Array(await canvas.encode('jpeg', 80)));
  }
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    // Embedding the same bytes again creates a separate image object, as scanned files have.
    const img = await doc.embedJpg(images[p % images.length]!);
    page.drawImage(img, { x: 50, y: 250, width: 512, height: (512 * h) / w });
    page.drawText(`Page ${p + 1} of a large document`, { x: 50, y: 740, size: 12, font });
    if (p % 10 === 0) page.drawText('Sign: {{signature;role=Client}}', { x: 50, y: 100, size: 12, font });
  }
  return doc.save();
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Inspection with pdf.js (an independent reader): what a viewer shows and what text it extracts.

export interface PdfJsTextItem {
  str: string;
  /** Origin in PDF user space. */
  x: number;
  y: number;
  width: number;
}

async function pdfjs() {
  await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  return import('pdfjs-dist/legacy/build/pdf.mjs');
}

async function openWithPdfJs(pdf: Uint8Array, password?: string) {
  const lib = await pdfjs();
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const task = lib.getDocument({
    data: pdf.slice(),
    password,
    standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  return { lib, task, doc: await task.promise };
}

/** Text items per page as pdf.js extracts them (for checking that removed text is really gone). */
export async function extractTextWithPdfJs(pdf: Uint8Array, password?: string): Promise<PdfJsTextItem[][]> {
  const { task, doc } = await openWithPdfJs(pdf, password);
  try {
    const pages: PdfJsTextItem[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .filter((it) => 'str' in it)
          .map((it) => ({ str: it.str, x: it.transform[4], y: it.transform[5], width: it.width })),
      );
    }
    return pages;
  } finally {
    await task.destroy();
  }
}

/** Displayed page sizes (points) and the viewport mapping of a user-space point, per pdf.js. */
export async function pageViewportsWithPdfJs(
  pdf: Uint8Array,
  point: [number, number] = [0, 0],
): Promise<{ width: number; height: number; point: [number, number] }[]> {
  const { task, doc } = await openWithPdfJs(pdf);
  try {
    const out: { width: number; height: number; point: [number, number] }[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const vp = (await doc.getPage(n)).getViewport({ scale: 1 });
      const [u, v] = vp.convertToViewportPoint(point[0], point[1]);
      out.push({ width: vp.width, height: vp.height, point: [u, v] });
    }
    return out;
  } finally {
    await task.destroy();
  }
}

export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** Decodes a PNG into RGBA pixels. */
export async function decodePng(png: Uint8Array): Promise<Pixels> {
  const { loadImage } = await import('@napi-rs/canvas');
  const img = await loadImage(Buffer.from(png));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

/** Darkest value (min of R, G, B) inside a rectangle given in fractions of the image. */
export function darkestIn(
  p: Pixels,
  area: { x: number; y: number; w: number; h: number },
  inset = 0,
): number {
  const x0 = Math.floor(area.x * p.width) + inset;
  const y0 = Math.floor(area.y * p.height) + inset;
  const x1 = Math.ceil((area.x + area.w) * p.width) - inset;
  const y1 = Math.ceil((area.y + area.h) * p.height) - inset;
  let min = 255;
  for (let y = Math.max(0, y0); y < Math.min(p.height, y1); y++)
    for (let x = Math.max(0, x0); x < Math.min(p.width, x1); x++) {
      const i = (y * p.width + x) * 4;
      min = Math.min(min, p.data[i]!, p.data[i + 1]!, p.data[i + 2]!);
    }
  return min;
}

/**
 * A "scanned" page: the visible tag is part of an image-like drawing, and an OCR layer repeats it
 * as invisible text (rendering mode 3), as OCR tools produce.
 */
export async function makeOcrLayerTagPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  const name = page.node.newFontDictionary('F1', font.ref);
  const hex = font.encodeText('Signature: {{signature;role=Client}}').toString();
  const content = `q 0.9 g 40 680 300 40 re f Q BT ${name.asString()} 12 Tf 3 Tr 50 700 Td ${hex} Tj ET`;
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
  return doc.save();
}

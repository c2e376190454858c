/**
 * Image → single-page PDF.
 *
 * - JPEG is embedded as is (DCTDecode, no re-compression); its EXIF orientation is applied with
 *   the image's transformation matrix, so phone photos come out upright.
 * - PNG is embedded losslessly (alpha kept as a soft mask).
 * - GIF (first frame), WebP, BMP and AVIF are decoded with @napi-rs/canvas (Skia) and embedded as
 *   PNG when they have transparency, else as JPEG (quality 92).
 * - TIFF and HEIC are recognised but not supported (`invalid_file_type` with a hint).
 *
 * Page size: the image's own resolution when it records one between 72 and 1200 dpi (JFIF density,
 * PNG pHYs), else 72 dpi (1 pixel = 1 point); then scaled down, never up, to fit 612 × 842 pt
 * (portrait) or 842 × 612 pt (landscape) — the union of A4 and US Letter — so fields placed on it
 * have sensible sizes in points. The image fills the page.
 */

import { ops, PDF, type PDFImage, PdfArray, PdfDict, PdfNumber } from '@libpdf/core';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { DocumentInputError } from './errors.ts';
import type { IngestedDocument } from './types.ts';

/** Largest image decoded to pixels (RGBA in memory: 4 bytes per pixel). */
const MAX_DECODED_PIXELS = 40_000_000;
/** Largest JPEG accepted (it is embedded without decoding; renderers still decode it). */
const MAX_JPEG_PIXELS = 120_000_000;

const BOX_SHORT = 612;
const BOX_LONG = 842;
const DEFAULT_DPI = 72;

interface ImageFacts {
  width: number;
  height: number;
  dpi?: number;
  /** EXIF orientation 1..8 (JPEG only). */
  orientation?: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32be = (b: Uint8Array, i: number) =>
  ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32le = (b: Uint8Array, i: number) =>
  (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

const plausibleDpi = (d: number | undefined) => (d !== undefined && d >= 72 && d <= 1200 ? d : undefined);

function exifOrientation(b: Uint8Array, start: number, end: number): number | undefined {
  // "Exif\0\0" then a TIFF header.
  if (end - start < 14 || String.fromCharCode(...b.subarray(start, start + 4)) !== 'Exif') return undefined;
  const t = start + 6;
  const le = b[t] === 0x49;
  const r16 = (i: number) => (le ? u16le(b, i) : u16be(b, i));
  const r32 = (i: number) => (le ? u32le(b, i) : u32be(b, i));
  const ifd = t + r32(t + 4);
  if (ifd + 2 > end) return undefined;
  const count = r16(ifd);
  for (let k = 0; k < count; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > end) return undefined;
    if (r16(e) === 0x0112) {
      const v = r16(e + 8);
      return v >= 1 && v <= 8 ? v : undefined;
    }
  }
  return undefined;
}

/** Dimensions, density and orientation from JPEG markers (no decoding). */
function jpegFacts(b: Uint8Array): ImageFacts | undefined {
  let i = 2;
  let dpi: number | undefined;
  let orientation: number | undefined;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = u16be(b, i + 2);
    const seg = i + 4;
    if (marker === 0xe0 && len >= 14 && String.fromCharCode(...b.subarray(seg, seg + 4)) === 'JFIF') {
      const units = b[seg + 7];
      const x = u16be(b, seg + 8);
      if (units === 1) dpi = x;
      else if (units === 2) dpi = x * 2.54;
    } else if (marker === 0xe1) {
      orientation ??= exifOrientation(b, seg, Math.min(b.length, i + 2 + len));
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (seg + 5 > b.length) return undefined;
      const height = u16be(b, seg + 1);
      const width = u16be(b, seg + 3);
      const facts: ImageFacts = { width, height };
      const d = plausibleDpi(dpi);
      if (d) facts.dpi = d;
      if (orientation) facts.orientation = orientation;
      return facts;
    } else if (marker === 0xd9 || marker === 0xda) {
      return undefined;
    }
    i += 2 + len;
  }
  return undefined;
}

function pngFacts(b: Uint8Array): ImageFacts | undefined {
  if (b.length < 24) return undefined;
  const facts: ImageFacts = { width: u32be(b, 16), height: u32be(b, 20) };
  // Look for pHYs before the image data.
  for (let i = 8; i + 8 <= b.length; ) {
    const len = u32be(b, i);
    const type = String.fromCharCode(...b.subarray(i + 4, i + 8));
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'pHYs' && len === 9 && i + 17 <= b.length && b[i + 16] === 1) {
      const d = plausibleDpi(u32be(b, i + 8) * 0.0254);
      if (d) facts.dpi = d;
    }
    i += 12 + len;
  }
  return facts;
}

/** Header dimensions of the formats decoded to pixels, checked before decoding. */
function headerSize(mime: string, b: Uint8Array): { width: number; height: number } | undefined {
  switch (mime) {
    case 'image/gif':
      return b.length >= 10 ? { width: u16le(b, 6), height: u16le(b, 8) } : undefined;
    case 'image/bmp':
      return b.length >= 26 ? { width: u32le(b, 18) | 0, height: Math.abs(u32le(b, 22) | 0) } : undefined;
    case 'image/webp': {
      const chunk = String.fromCharCode(...b.subarray(12, 16));
      if (chunk === 'VP8X' && b.length >= 30)
        return {
          width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)),
          height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)),
        };
      if (chunk === 'VP8 ' && b.length >= 30)
        return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
      if (chunk === 'VP8L' && b.length >= 25) {
        const bits = u32le(b, 21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
      return undefined;
    }
    case 'image/avif': {
      // The 'ispe' property: version/flags, then 32-bit width and height.
      const limit = Math.min(b.length - 16, 64 * 1024);
      for (let i = 4; i < limit; i++)
        if (b[i] === 0x69 && b[i + 1] === 0x73 && b[i + 2] === 0x70 && b[i + 3] === 0x65)
          return { width: u32be(b, i + 8), height: u32be(b, i + 12) };
      return undefined;
    }
    default:
      return undefined;
  }
}

function tooLarge(width: number, height: number, max: number): DocumentInputError {
  return new DocumentInputError(
    'invalid_document',
    `The image is too large (${width} × ${height} pixels; at most ${Math.round(max / 1e6)} megapixels)`,
  );
}

/** Page size in points for an image of the given displayed pixel size. */
export function imagePageSize(width: number, height: number, dpi = DEFAULT_DPI): [number, number] {
  const w = (width * 72) / dpi;
  const h = (height * 72) / dpi;
  const [boxW, boxH] = w > h ? [BOX_LONG, BOX_SHORT] : [BOX_SHORT, BOX_LONG];
  const scale = Math.min(1, boxW / w, boxH / h);
  return [Math.round(w * scale * 100) / 100, Math.round(h * scale * 100) / 100];
}

/** Image matrix placing the stored image upright on a W × H page for an EXIF orientation. */
function orientationMatrix(
  o: number,
  W: number,
  H: number,
): [number, number, number, number, number, number] {
  switch (o) {
    case 2:
      return [-W, 0, 0, H, W, 0];
    case 3:
      return [-W, 0, 0, -H, W, H];
    case 4:
      return [W, 0, 0, -H, 0, H];
    case 5:
      return [0, -H, -W, 0, W, H];
    case 6:
      return [0, -H, W, 0, 0, H];
    case 7:
      return [0, H, W, 0, 0, 0];
    case 8:
      return [0, H, -W, 0, W, 0];
    default:
      return [W, 0, 0, H, 0, 0];
  }
}

async function decodeWithCanvas(
  bytes: Uint8Array,
  mime: string,
): Promise<{ data: Uint8Array; png: boolean; width: number; height: number }> {
  const size = headerSize(mime, bytes);
  if (size && size.width * size.height > MAX_DECODED_PIXELS)
    throw tooLarge(size.width, size.height, MAX_DECODED_PIXELS);
  let img: Awaited<ReturnType<typeof loadImage>>;
  try {
    img = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    throw new DocumentInputError('invalid_document', `The image is damaged and could not be read (${mime})`, {
      cause: e,
    });
  }
  const { width, height } = img;
  if (!(width > 0 && height > 0))
    throw new DocumentInputError('invalid_document', `The image could not be decoded (${mime})`);
  if (width * height > MAX_DECODED_PIXELS) throw tooLarge(width, height, MAX_DECODED_PIXELS);
  const canvas = createCanvas(width, height);
  const c2d = canvas.getContext('2d');
  c2d.drawImage(img, 0, 0);
  const rgba = c2d.getImageData(0, 0, width, height).data;
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) {
    if (rgba[i] !== 255) {
      opaque = false;
      break;
    }
  }
  const data = opaque ? await canvas.encode('jpeg', 92) : await canvas.encode('png');
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), png: !opaque, width, height };
}

/**
 * `PDF.create()` fills the Info dictionary with a placeholder Title ("Untitled") and Author
 * ("Unknown"); a converted image has neither, so a viewer shows the file name instead.
 */
function dropPlaceholderMetadata(doc: PDF): void {
  const ref = doc.context.info.trailer.getRef('Info');
  const info = ref ? doc.getObject(ref) : null;
  if (!(info instanceof PdfDict)) return;
  info.delete('Title');
  info.delete('Author');
}

/**
 * The JPEG as is (DCTDecode). A four-component JPEG is CMYK as Adobe software writes it,
 * inverted, so it is drawn with an inverting Decode array (as pdf-lib, used here before, drew it).
 */
function embedJpeg(doc: PDF, bytes: Uint8Array): PDFImage {
  const image = doc.embedJpeg(bytes);
  const stream = doc.getObject(image.ref);
  if (stream instanceof PdfDict && stream.getName('ColorSpace')?.value === 'DeviceCMYK') {
    stream.set(
      'Decode',
      new PdfArray([0, 1, 2, 3, 4, 5, 6, 7].map((i) => PdfNumber.of(i % 2 === 0 ? 1 : 0))),
    );
  }
  return image;
}

/**
 * @libpdf/core embeds non-interlaced PNGs of 8 bits per sample (its unfiltering assumes whole
 * bytes per pixel); any other PNG (1, 2, 4 or 16 bits, Adam7 interlacing) is decoded and written
 * again as an 8-bit RGBA PNG first, losslessly at 8 bits, as pdf-lib's decoder did.
 */
async function pngLibpdfReads(bytes: Uint8Array): Promise<Uint8Array> {
  const bitDepth = bytes[24];
  const interlaced = bytes[28] !== 0;
  if (bitDepth === 8 && !interlaced) return bytes;
  const img = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const canvas = createCanvas(img.width, img.height);
  canvas.getContext('2d').drawImage(img, 0, 0);
  const png = await canvas.encode('png');
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

export async function ingestImage(
  bytes: Uint8Array,
  mimeType: string,
): Promise<Omit<IngestedDocument, 'mimeType' | 'inputSha256' | 'sha256'>> {
  if (mimeType === 'image/tiff')
    throw new DocumentInputError(
      'invalid_file_type',
      'TIFF images are not supported; send a PDF, PNG or JPEG instead',
    );
  if (mimeType === 'image/heic')
    throw new DocumentInputError(
      'invalid_file_type',
      'HEIC/HEIF images are not supported; send a JPEG or PNG instead',
    );

  let embedBytes = bytes;
  let format: 'jpeg' | 'png';
  let facts: ImageFacts | undefined;
  if (mimeType === 'image/jpeg') {
    facts = jpegFacts(bytes);
    if (!facts || !(facts.width > 0 && facts.height > 0))
      throw new DocumentInputError(
        'invalid_document',
        'The JPEG image is damaged: its size could not be read',
      );
    if (facts.width * facts.height > MAX_JPEG_PIXELS)
      throw tooLarge(facts.width, facts.height, MAX_JPEG_PIXELS);
    format = 'jpeg';
  } else if (mimeType === 'image/png') {
    facts = pngFacts(bytes);
    if (!facts || !(facts.width > 0 && facts.height > 0))
      throw new DocumentInputError(
        'invalid_document',
        'The PNG image is damaged: its size could not be read',
      );
    if (facts.width * facts.height > MAX_DECODED_PIXELS)
      throw tooLarge(facts.width, facts.height, MAX_DECODED_PIXELS);
    format = 'png';
  } else {
    const decoded = await decodeWithCanvas(bytes, mimeType);
    embedBytes = decoded.data;
    format = decoded.png ? 'png' : 'jpeg';
    facts = { width: decoded.width, height: decoded.height };
  }

  const orientation = facts.orientation ?? 1;
  const swap = orientation >= 5;
  const [pageW, pageH] = imagePageSize(
    swap ? facts.height : facts.width,
    swap ? facts.width : facts.height,
    facts.dpi,
  );
  const doc = PDF.create();
  dropPlaceholderMetadata(doc);
  let image: PDFImage;
  try {
    image = format === 'jpeg' ? embedJpeg(doc, embedBytes) : doc.embedPng(await pngLibpdfReads(embedBytes));
  } catch (e) {
    throw new DocumentInputError(
      'invalid_document',
      `The image is damaged and could not be read (${mimeType})`,
      {
        cause: e,
      },
    );
  }
  const page = doc.addPage({ width: pageW, height: pageH });
  page.drawOperators([
    ops.pushGraphicsState(),
    ops.concatMatrix(...orientationMatrix(orientation, pageW, pageH)),
    ops.paintXObject(page.registerImage(image)),
    ops.popGraphicsState(),
  ]);
  const pdf = await doc.save();
  return { pdf, kind: 'image', pages: [{ width: pageW, height: pageH }], fields: [], warnings: [] };
}

/**
 * PNG images (drawn signatures and initials, image and stamp values) as PDF image XObjects, decoded
 * and compressed with Node's zlib.
 *
 * @libpdf/core's `embedPng` does the same with pako, a JavaScript zlib: for one 300 × 100 signature
 * it was a third of a 10-page seal (bench/README.md, Sealing). The PDF gets the same objects: the
 * colour samples (DeviceRGB or DeviceGray, 8 bits, FlateDecode) and, when the PNG has an alpha
 * channel, a DeviceGray soft mask. PNGs this does not cover (other bit depths, palettes,
 * interlacing, a tRNS colour key) go to the library's `embedImage`, as JPEGs do.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { type PDF, PdfName, PdfNumber, type PdfRef, PdfStream } from '@libpdf/core';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples per pixel of the 8-bit colour types covered: gray, RGB, gray + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** An 8-bit, non-interlaced PNG split as a PDF draws it. */
export interface DecodedPng {
  width: number;
  height: number;
  /** 1 (gray) or 3 (RGB) */
  colors: 1 | 3;
  /** colour samples, row after row, without filter bytes */
  pixels: Uint8Array;
  /** one alpha sample per pixel, or null for an opaque image */
  alpha: Uint8Array | null;
}

interface Header {
  width: number;
  height: number;
  channels: number;
  hasAlpha: boolean;
  idat: Uint8Array[];
}

/** Reads the chunks; null for what this module leaves to the library. */
function readChunks(bytes: Uint8Array): Header | null {
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  let header: Header | null = null;
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = ascii(at + 4);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (data.length !== length) return null;
    if (type === 'IHDR') {
      const [depth, colorType, compression, filter, interlace] = data.subarray(8, 13);
      const channels = CHANNELS[colorType!];
      if (depth !== 8 || channels === undefined || compression !== 0 || filter !== 0 || interlace !== 0)
        return null;
      const width = view.getUint32(at + 8);
      const height = view.getUint32(at + 12);
      if (width === 0 || height === 0) return null;
      header = { width, height, channels, hasAlpha: colorType === 4 || colorType === 6, idat: [] };
    } else if (type === 'IDAT') {
      header?.idat.push(data);
    } else if (type === 'tRNS') {
      return null;
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  return header && header.idat.length > 0 ? header : null;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reverses the PNG filter of every row in place; false for an unknown filter type. */
function unfilter(raw: Uint8Array, rows: number, stride: number, bpp: number): boolean {
  for (let y = 0; y < rows; y++) {
    const line = y * (stride + 1) + 1;
    const prev = line - stride - 1; // the previous row's first sample (row 0 has none: zeros)
    const type = raw[line - 1];
    // One loop per filter type: a branch per sample made this the slowest part of a seal's image.
    if (type === 0 || (type === 2 && y === 0)) continue;
    if (type === 1 || (type === 4 && y === 0)) {
      for (let x = bpp; x < stride; x++) raw[line + x] = (raw[line + x]! + raw[line + x - bpp]!) & 0xff;
    } else if (type === 2) {
      for (let x = 0; x < stride; x++) raw[line + x] = (raw[line + x]! + raw[prev + x]!) & 0xff;
    } else if (type === 3) {
      for (let x = 0; x < stride; x++) {
        const left = x >= bpp ? raw[line + x - bpp]! : 0;
        const up = y > 0 ? raw[prev + x]! : 0;
        raw[line + x] = (raw[line + x]! + ((left + up) >> 1)) & 0xff;
      }
    } else if (type === 4) {
      for (let x = 0; x < bpp; x++) raw[line + x] = (raw[line + x]! + raw[prev + x]!) & 0xff;
      for (let x = bpp; x < stride; x++) {
        const add = paeth(raw[line + x - bpp]!, raw[prev + x]!, raw[prev + x - bpp]!);
        raw[line + x] = (raw[line + x]! + add) & 0xff;
      }
    } else {
      return false;
    }
  }
  return true;
}

/** Decodes an 8-bit, non-interlaced gray/RGB PNG with or without alpha; null for anything else. */
export function decodePng(bytes: Uint8Array): DecodedPng | null {
  const h = readChunks(bytes);
  if (!h) return null;
  const stride = h.width * h.channels;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(h.idat));
  } catch {
    return null;
  }
  if (raw.length < (stride + 1) * h.height || !unfilter(raw, h.height, stride, h.channels)) return null;
  const colors = h.channels >= 3 ? 3 : 1;
  const pixelCount = h.width * h.height;
  if (!h.hasAlpha) {
    const pixels = new Uint8Array(pixelCount * colors);
    for (let y = 0; y < h.height; y++)
      pixels.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
    return { width: h.width, height: h.height, colors, pixels, alpha: null };
  }
  const pixels = new Uint8Array(pixelCount * colors);
  const alpha = new Uint8Array(pixelCount);
  // One loop per layout, on a plain Uint8Array: the general loop over channels took three times as long.
  const samples = new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
  let p = 0;
  let a = 0;
  for (let y = 0; y < h.height; y++) {
    let at = y * (stride + 1) + 1;
    const end = at + stride;
    if (colors === 3) {
      for (; at < end; at += 4, p += 3) {
        pixels[p] = samples[at]!;
        pixels[p + 1] = samples[at + 1]!;
        pixels[p + 2] = samples[at + 2]!;
        alpha[a++] = samples[at + 3]!;
      }
    } else {
      for (; at < end; at += 2) {
        pixels[p++] = samples[at]!;
        alpha[a++] = samples[at + 1]!;
      }
    }
  }
  return { width: h.width, height: h.height, colors, pixels, alpha };
}

function imageStream(width: number, height: number, colorSpace: string, samples: Uint8Array) {
  return PdfStream.fromDict(
    {
      Type: PdfName.of('XObject'),
      Subtype: PdfName.of('Image'),
      Width: PdfNumber.of(width),
      Height: PdfNumber.of(height),
      ColorSpace: PdfName.of(colorSpace),
      BitsPerComponent: PdfNumber.of(8),
      Filter: PdfName.of('FlateDecode'),
    },
    new Uint8Array(deflateSync(samples, { level: 1 })),
  );
}

/** Embeds a PNG or JPEG as an image XObject (PNGs through `decodePng` when it covers them). */
export function embedImage(pdf: PDF, bytes: Uint8Array): { ref: PdfRef; width: number; height: number } {
  const png = decodePng(bytes);
  if (!png) {
    const image = pdf.embedImage(bytes);
    return { ref: image.ref, width: image.width, height: image.height };
  }
  const stream = imageStream(
    png.width,
    png.height,
    png.colors === 3 ? 'DeviceRGB' : 'DeviceGray',
    png.pixels,
  );
  if (png.alpha)
    stream.set('SMask', pdf.register(imageStream(png.width, png.height, 'DeviceGray', png.alpha)));
  return { ref: pdf.register(stream), width: png.width, height: png.height };
}

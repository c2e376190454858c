import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { PDF, type PdfName, type PdfRef, type PdfStream } from '@libpdf/core';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { decodePng, embedImage } from '../src/seal/png.ts';

// Image values (signature, initials, image, stamp) are drawn from PNGs embedded with Node's zlib
// (src/seal/png.ts). The PDF must get exactly what @libpdf/core's own embedPng gives: the same
// colour samples, the same soft mask, the same colour space.

/** A PNG built by hand: row `y` filtered with filter type `(y + first) % 5` (every type, row 0 too). */
function handPng(
  width: number,
  height: number,
  colorType: 0 | 2 | 4 | 6,
  extra: Buffer[] = [],
  first = 0,
): Uint8Array {
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colorType];
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let i = 0; i < pixels.length; i++)
    pixels[i] = (i * 7 + Math.floor(i / stride) * 13 + (i % 5) * 31) & 0xff;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const type = (y + first) % 5;
    raw[y * (stride + 1)] = type;
    for (let x = 0; x < stride; x++) {
      const at = y * stride + x;
      const left = x >= channels ? pixels[at - channels]! : 0;
      const up = y > 0 ? pixels[at - stride]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[at - stride - channels]! : 0;
      const p = left + up - upLeft;
      const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
      const paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      const predicted = [0, left, up, (left + up) >> 1, paeth][type]!;
      raw[y * (stride + 1) + 1 + x] = (pixels[at]! - predicted) & 0xff;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  const idat = deflateSync(raw);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      ...extra.map((e) => chunk('tEXt', e)),
      // Two IDAT chunks: a decoder must join them.
      chunk('IDAT', idat.subarray(0, idat.length >> 1)),
      chunk('IDAT', idat.subarray(idat.length >> 1)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A drawn signature as the signing page sends it (canvas PNG, RGBA with transparent background). */
function canvasSignature(): Uint8Array {
  const canvas = createCanvas(300, 100);
  const ctx = canvas.getContext('2d');
  ctx.strokeStyle = '#112244';
  ctx.lineWidth = 3;
  ctx.beginPath();
  for (let x = 0; x < 300; x += 4) ctx.lineTo(x, 50 + Math.sin(x / 20) * 30);
  ctx.stroke();
  return new Uint8Array(canvas.toBuffer('image/png'));
}

/** What an image reference holds: its dictionary's entries and inflated samples, and its soft mask's. */
function imageOf(pdf: PDF, ref: PdfRef) {
  const stream = pdf.getObject(ref) as PdfStream;
  const name = (key: string) => (stream.get(key) as PdfName | undefined)?.value;
  const smaskRef = stream.get('SMask') as PdfRef | undefined;
  const smask = smaskRef ? (pdf.getObject(smaskRef) as PdfStream) : undefined;
  return {
    colorSpace: name('ColorSpace'),
    filter: name('Filter'),
    width: stream.getNumber('Width')?.value,
    height: stream.getNumber('Height')?.value,
    bits: stream.getNumber('BitsPerComponent')?.value,
    samples: inflateSync(stream.data),
    alpha: smask ? inflateSync(smask.data) : null,
    alphaSpace: smask ? (smask.get('ColorSpace') as PdfName).value : null,
  };
}

/** Embeds `png` with this module and with @libpdf/core's embedPng; both images as read back. */
async function both(png: Uint8Array) {
  const ours = PDF.create();
  const library = PDF.create();
  const a = embedImage(ours, png);
  const b = library.embedPng(png);
  expect({ width: a.width, height: a.height }).toEqual({ width: b.width, height: b.height });
  return { ours: imageOf(ours, a.ref), library: imageOf(library, b.ref) };
}

describe('PNG values are embedded with the same samples as @libpdf/core embeds them', () => {
  it.each([
    ['gray', 0],
    ['RGB', 2],
    ['gray + alpha', 4],
    ['RGBA', 6],
  ] as const)('%s, every filter type, split IDAT', async (_label, colorType) => {
    for (let first = 0; first < 5; first++) {
      const png = handPng(37, 23, colorType, [Buffer.from('Comment\0any chunk is skipped')], first);
      expect(decodePng(png)).not.toBeNull();
      const { ours, library } = await both(png);
      expect(ours.filter).toBe('FlateDecode');
      expect(ours).toEqual(library);
    }
  });

  it('a signature drawn on a canvas (RGBA, its encoder choosing the filters)', async () => {
    const { ours, library } = await both(canvasSignature());
    expect(ours.alpha).not.toBeNull();
    expect(ours).toEqual(library);
  });

  it('what it does not decode (16-bit, palette, interlaced, damaged) goes to the library', () => {
    const png = handPng(10, 10, 6);
    const withIhdr = (patch: (ihdr: Buffer) => void) => {
      const copy = Buffer.from(png);
      patch(copy.subarray(16, 29));
      copy.writeUInt32BE(crc32(copy.subarray(12, 29)), 29);
      return new Uint8Array(copy);
    };
    expect(decodePng(withIhdr((h) => (h[8] = 16)))).toBeNull();
    expect(decodePng(withIhdr((h) => (h[9] = 3)))).toBeNull();
    expect(decodePng(withIhdr((h) => (h[12] = 1)))).toBeNull();
    expect(decodePng(png.subarray(0, 40))).toBeNull();
    // The library's answer for such a file stands (here: it cannot read a cut file either).
    expect(() => embedImage(PDF.create(), png.subarray(0, 40))).toThrow();
  });
});

import { PDF, PdfArray, type PdfNumber, PdfRef, PdfStream } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { ingestImage } from '../src/ingest/image.ts';
import { DocumentInputError, imagePageSize, ingestDocument, renderPagePng } from '../src/ingest/index.ts';
import {
  concat,
  decodePng,
  makeAvifImage,
  makeBmpImage,
  makeGifImage,
  makeJpegImage,
  makePngImage,
  makeRawPng,
  makeWebpImage,
  type Pixels,
} from './ingest-fixtures.ts';

const at = (p: Pixels, fx: number, fy: number) => {
  const i = (Math.floor(fy * p.height) * p.width + Math.floor(fx * p.width)) * 4;
  return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!];
};

/** The test pattern is red top-left, blue bottom-right, white elsewhere: check it is upright. */
async function expectUprightPattern(pdf: Uint8Array) {
  const p = await decodePng(await renderPagePng(pdf, 1, { width: 200 }));
  const near = (c: number[], rgb: number[]) => c.every((v, i) => Math.abs(v - rgb[i]!) < 40);
  expect(near(at(p, 0.25, 0.25), [255, 0, 0])).toBe(true);
  expect(near(at(p, 0.75, 0.75), [0, 0, 255])).toBe(true);
  expect(near(at(p, 0.75, 0.25), [255, 255, 255])).toBe(true);
  expect(near(at(p, 0.25, 0.75), [255, 255, 255])).toBe(true);
}

describe('images become a one-page PDF (spec: documents are "a PDF or image")', () => {
  it.each([
    ['image/png', () => makePngImage(400, 300)],
    ['image/jpeg', () => makeJpegImage(400, 300)],
    ['image/webp', () => makeWebpImage(400, 300)],
    ['image/gif', async () => makeGifImage(400, 300)],
    ['image/bmp', async () => makeBmpImage(400, 300)],
  ])('%s: one page sized to the image at 72 dpi, the picture upright and filling it', async (mime, make) => {
    const doc = await ingestDocument({ bytes: await make() });
    expect(doc.kind).toBe('image');
    expect(doc.mimeType).toBe(mime);
    expect(doc.pages).toEqual([{ width: 400, height: 300 }]);
    expect(doc.fields).toEqual([]);
    expect(new TextDecoder().decode(doc.pdf.subarray(0, 5))).toBe('%PDF-');
    await expectUprightPattern(doc.pdf);
  });

  it('image/avif is converted too', async () => {
    const doc = await ingestDocument({ bytes: await makeAvifImage(64, 48) });
    expect(doc.mimeType).toBe('image/avif');
    expect(doc.pages).toEqual([{ width: 64, height: 48 }]);
    await expectUprightPattern(doc.pdf);
  });

  it('transparent PNG and WebP keep their transparency (rendered on white)', async () => {
    for (const bytes of [
      await makePngImage(200, 100, { transparent: true }),
      await makeWebpImage(200, 100, { transparent: true }),
    ]) {
      const doc = await ingestDocument({ bytes });
      await expectUprightPattern(doc.pdf);
    }
  });

  it.each([3, 6, 8])(
    'JPEG EXIF orientation %i is applied (phone photos come out upright)',
    async (orientation) => {
      const doc = await ingestDocument({ bytes: await makeJpegImage(400, 300, { orientation }) });
      expect(doc.pages).toEqual([{ width: 400, height: 300 }]);
      await expectUprightPattern(doc.pdf);
    },
  );

  it('a resolution recorded in the image sets the page size (150 dpi → half the pixel count in points)', async () => {
    const doc = await ingestDocument({ bytes: await makeJpegImage(600, 800, { dpi: 144 }) });
    expect(doc.pages).toEqual([{ width: 300, height: 400 }]);
  });

  it('large images are scaled down to fit 612 × 842 pt (portrait) or 842 × 612 pt (landscape)', async () => {
    const doc = await ingestDocument({ bytes: await makePngImage(2000, 1000) });
    expect(doc.pages).toEqual([{ width: 842, height: 421 }]);
    expect(imagePageSize(2480, 3508, 300)).toEqual([595.2, 841.92]); // A4 scan at 300 dpi
    expect(imagePageSize(3000, 4000)).toEqual([612, 816]);
  });

  it('TIFF and HEIC are recognised but refused with invalid_file_type and a hint', async () => {
    const tiff = Uint8Array.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0, 0, 0]);
    const heic = concat(Uint8Array.from([0, 0, 0, 24]), new TextEncoder().encode('ftypheic\0\0\0\0mif1heic'));
    for (const [bytes, hint] of [
      [tiff, /TIFF/],
      [heic, /HEIC/],
    ] as const) {
      const err = await ingestDocument({ bytes }).catch((e: DocumentInputError) => e);
      expect(err).toBeInstanceOf(DocumentInputError);
      expect((err as DocumentInputError).code).toBe('invalid_file_type');
      expect((err as DocumentInputError).message).toMatch(hint);
    }
  });

  it('a damaged or absurdly large image is invalid_document, never a crash', async () => {
    const png = await makePngImage(40, 30);
    const damaged = concat(png.subarray(0, 40), new Uint8Array(200).fill(7));
    const huge = png.slice();
    new DataView(huge.buffer).setUint32(16, 100_000);
    new DataView(huge.buffer).setUint32(20, 100_000);
    const jpeg = await makeJpegImage(40, 30);
    for (const bytes of [damaged, huge, jpeg.subarray(0, 20), makeGifImage().subarray(0, 30)]) {
      const err = await ingestDocument({ bytes }).catch((e: DocumentInputError) => e);
      expect(err).toBeInstanceOf(DocumentInputError);
      expect((err as DocumentInputError).code).toBe('invalid_document');
    }
  });

  it.each([
    ['4-bit indexed', { bitDepth: 4 }],
    ['16-bit RGB', { bitDepth: 16 }],
    ['Adam7-interlaced', { bitDepth: 8, interlace: true }],
  ] as const)('a %s PNG becomes the same upright page as any other PNG', async (_name, opts) => {
    const doc = await ingestDocument({ bytes: makeRawPng(400, 300, opts) });
    expect(doc.pages).toEqual([{ width: 400, height: 300 }]);
    await expectUprightPattern(doc.pdf);
  });
});

describe('images become a one-page PDF: how the image is written', () => {
  /** The one image XObject of page 1. */
  async function pageImage(pdfBytes: Uint8Array): Promise<PdfStream> {
    const pdf = await PDF.load(pdfBytes);
    const resolve = (ref: PdfRef) => pdf.getObject(ref);
    const xobjects = pdf.getPage(0)?.dict.getDict('Resources', resolve)?.getDict('XObject', resolve);
    const [, ref] = xobjects ? ([...xobjects][0] ?? []) : [];
    const image = ref instanceof PdfRef ? pdf.getObject(ref) : null;
    if (!(image instanceof PdfStream)) throw new Error('no image XObject on page 1');
    return image;
  }

  it('a JPEG is embedded byte for byte (DCTDecode); a CMYK JPEG is drawn with the inverting Decode array Adobe CMYK needs', async () => {
    const jpeg = await makeJpegImage(40, 30);
    const rgb = await pageImage((await ingestImage(jpeg, 'image/jpeg')).pdf);
    expect(rgb.getName('Filter')?.value).toBe('DCTDecode');
    expect(Buffer.from(rgb.data).equals(Buffer.from(jpeg))).toBe(true);
    expect(rgb.get('Decode')).toBeUndefined();
    // The frame header says four components; the scan is never decoded to build the page.
    const cmykJpeg = concat(
      Uint8Array.from([0xff, 0xd8, 0xff, 0xc0, 0, 20, 8, 0, 30, 0, 40, 4]),
      Uint8Array.from([1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0]),
      Uint8Array.from([0xff, 0xd9]),
    );
    const cmyk = await pageImage((await ingestImage(cmykJpeg, 'image/jpeg')).pdf);
    expect(cmyk.getName('ColorSpace')?.value).toBe('DeviceCMYK');
    const decode = cmyk.get('Decode');
    expect(decode).toBeInstanceOf(PdfArray);
    expect([...(decode as PdfArray)].map((n) => (n as PdfNumber).value)).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
  });

  it('the converted PDF has no placeholder title or author', async () => {
    const pdf = await PDF.load((await ingestImage(await makePngImage(40, 30), 'image/png')).pdf);
    expect(pdf.getTitle()).toBeUndefined();
    expect(pdf.getAuthor()).toBeUndefined();
  });
});

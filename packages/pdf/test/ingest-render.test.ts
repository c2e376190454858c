import { describe, expect, it } from 'vitest';
import { DocumentInputError, getPageCount, renderPagePng } from '../src/ingest/index.ts';
import { decodePng, makeCorruptPdf, makePlainPdf, makeRotatedPdf } from './ingest-fixtures.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('page images and page counts (spec: template document preview_image_url)', () => {
  it('renders a page to PNG, 2 px per point by default or at the requested width', async () => {
    const pdf = await makePlainPdf(2);
    const png = await renderPagePng(pdf, 2);
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const full = await decodePng(png);
    expect([full.width, full.height]).toEqual([1224, 1584]);
    const small = await decodePng(await renderPagePng(pdf, 1, { width: 306 }));
    expect([small.width, small.height]).toEqual([306, 396]);
  });

  it('renders pages as displayed: /Rotate 90 gives a landscape image', async () => {
    const img = await decodePng(await renderPagePng(await makeRotatedPdf(), 2, { width: 396 }));
    expect([img.width, img.height]).toEqual([396, 306]);
  });

  it('rejects page numbers that do not exist and unreadable PDFs', async () => {
    const pdf = await makePlainPdf(1);
    await expect(renderPagePng(pdf, 2)).rejects.toThrow(/Page 2 does not exist; the document has 1 page/);
    await expect(renderPagePng(pdf, 0)).rejects.toThrow(RangeError);
    await expect(renderPagePng(pdf, 1, { width: 0 })).rejects.toThrow(RangeError);
    await expect(renderPagePng(makeCorruptPdf(), 1)).rejects.toBeInstanceOf(DocumentInputError);
  });

  it('counts pages without rendering; a damaged file is invalid_document', async () => {
    expect(await getPageCount(await makePlainPdf(3))).toBe(3);
    await expect(getPageCount(makeCorruptPdf())).rejects.toMatchObject({ code: 'invalid_document' });
  });
});

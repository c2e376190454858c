import { PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { getPageCount, ingestDocument } from '../src/ingest/index.ts';
import { makePlainPdf, makeRotatedPdf, pageViewportsWithPdfJs } from './ingest-fixtures.ts';

describe('page sizes as displayed (field areas are fractions of the displayed page)', () => {
  it('a multi-page PDF reports every page; an unchanged file is stored as is', async () => {
    const input = await makePlainPdf(5, { size: [595.28, 841.89] });
    const doc = await ingestDocument({ bytes: input });
    expect(doc.kind).toBe('pdf');
    expect(doc.mimeType).toBe('application/pdf');
    expect(doc.pages).toEqual(Array(5).fill({ width: 595.28, height: 841.89 }));
    expect(doc.fields).toEqual([]);
    expect(doc.warnings).toEqual([]);
    expect(doc.pdf).toBe(input);
    expect(await getPageCount(doc.pdf)).toBe(5);
  });

  it('applies /Rotate and the CropBox exactly as pdf.js displays the page', async () => {
    const input = await makeRotatedPdf();
    const doc = await ingestDocument({ bytes: input });
    expect(doc.pages).toEqual([
      { width: 612, height: 792 },
      { width: 792, height: 612 },
      { width: 612, height: 792 },
      { width: 792, height: 612 },
      { width: 500, height: 600 },
      { width: 600, height: 500 },
      { width: 842, height: 595 },
    ]);
    const viewports = await pageViewportsWithPdfJs(input);
    expect(doc.pages).toEqual(viewports.map((v) => ({ width: v.width, height: v.height })));
  });

  it('inherits MediaBox and Rotate from the page tree', async () => {
    const pdf = await PDFDocument.load(await makePlainPdf(2));
    const pagesNode = pdf.catalog.Pages();
    pagesNode.set(PDFName.of('Rotate'), PDFNumber.of(270));
    pagesNode.set(PDFName.of('MediaBox'), pdf.context.obj([0, 0, 300, 500]));
    for (const page of pdf.getPages()) page.node.delete(PDFName.of('MediaBox'));
    const doc = await ingestDocument({ bytes: await pdf.save() });
    expect(doc.pages).toEqual([
      { width: 500, height: 300 },
      { width: 500, height: 300 },
    ]);
  });
});

import { degrees, PDFDocument, PDFName, type PDFRef, StandardFonts } from 'pdf-lib';

// PDFs for the rendering guard's tests, written by pdf-lib (another tool than the product's own
// writer); the changes are byte-level incremental updates (corpus/update.ts).

/**
 * A text PDF: each page has a heading, a fee line at (72, 700) and `lines` lines of body text;
 * with `rotate`, each page's /Rotate.
 */
export async function textPdf(pages: number, lines = 30, rotate = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([612, 792]);
    if (rotate) page.setRotation(degrees(rotate));
    page.drawText(`Page ${n}`, { x: 72, y: 740, size: 18, font });
    page.drawText('The fee is 100 EUR', { x: 72, y: 700, size: 12, font });
    for (let i = 0; i < lines; i++)
      page.drawText(`Clause ${n}.${i + 1}: the parties agree on the terms written on this line.`, {
        x: 72,
        y: 670 - i * 18,
        size: 10,
        font,
      });
  }
  return doc.save({ useObjectStreams: false });
}

/** The same document written again by pdf-lib with object streams (another object layout). */
export async function rewritten(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  return doc.save({ useObjectStreams: true });
}

export interface PageObjects {
  /** The page object's number and its dictionary as written (`<< ... >>`). */
  page: { num: number; dict: string };
  /** The first content stream's number and its decoded operators. */
  content: { num: number; data: string };
  /** The page tree root's number and dictionary. */
  pages: { num: number; dict: string };
}

/** The objects of page `index` (0-based) that the tests rewrite. */
export async function pageObjects(pdf: Uint8Array, index: number): Promise<PageObjects> {
  const { decodePDFRawStream, PDFArray, PDFRawStream } = await import('pdf-lib');
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(index);
  const contents = page.node.get(PDFName.of('Contents'));
  const ref = (contents instanceof PDFArray ? contents.get(0) : contents) as PDFRef;
  const stream = doc.context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) throw new Error('no raw content stream');
  const data = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  const pagesRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
  return {
    page: { num: page.ref.objectNumber, dict: page.node.toString() },
    content: { num: ref.objectNumber, data },
    pages: { num: pagesRef.objectNumber, dict: doc.context.lookup(pagesRef)!.toString() },
  };
}

/** WinAnsi text as pdf-lib writes it in a content stream (a hex string, upper case). */
export const hexText = (s: string) => Buffer.from(s, 'latin1').toString('hex').toUpperCase();

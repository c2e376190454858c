import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A plain PDF with `pages` Letter pages, each saying its number. */
export async function plainPdf(pages = 1, text = 'Page'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${text} ${i}`, { x: 72, y: 700, size: 24, font });
  }
  return doc.save();
}

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export const signatureField = (role?: string, page = 1) => ({
  type: 'signature',
  ...(role ? { role } : {}),
  areas: [{ page, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }],
});

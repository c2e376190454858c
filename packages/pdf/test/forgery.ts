import { PDF, rgb, StandardFonts } from '@libpdf/core';
import type { SigningIdentity } from '../src/seal/index.ts';

// The forged file of issue 15: a real seal, then one incremental update that paints
// "EUR 40,000" over the fee line, optionally signed with another certificate.

/** Paints a white box and "EUR 40,000" over the fee line of page `page` (0-based). */
function paintOver(pdf: PDF, page = 0): void {
  const p = pdf.getPage(page)!;
  p.drawRectangle({ x: 55, y: 640, width: 240, height: 50, color: rgb(1, 1, 1) });
  p.drawText('EUR 40,000', { x: 60, y: 660, size: 14, font: StandardFonts.Helvetica });
}

/** The sealed file with the paint appended in one update, signed by `forger` when given. */
export async function forge(sealed: Uint8Array, forger?: SigningIdentity, page = 0): Promise<Uint8Array> {
  const pdf = await PDF.load(sealed);
  paintOver(pdf, page);
  if (!forger) return pdf.save({ incremental: true });
  const { bytes } = await pdf.sign({ signer: forger.signer, reason: 'Approved' });
  return bytes;
}

import { PDF } from '@libpdf/core';
import { Canvas } from './canvas.ts';
import { type Box, drawValue, ImageCache, type SealValue } from './draw-values.ts';
import { DocumentFonts } from './fonts.ts';
import type { SigningIdentity } from './identity.ts';
import { areaRect, displayPage, paintOnPage } from './page.ts';
import { drawTestMark, type SealTrust, signPdf } from './sign.ts';

export interface SealDocumentInput {
  pdf: Uint8Array;
  values: SealValue[];
  identity: SigningIdentity;
  /** Document name (file name without extension): becomes the PDF title. */
  name: string;
  reason?: string;
  location?: string;
  /** Test-mode documents carry a visible "TEST DOCUMENT - NOT LEGALLY BINDING" mark on every page. */
  testMark?: boolean;
  signedAt?: Date;
  /** Timestamp authority and revocation data for B-T and above; without them the seal is B-B. */
  trust?: SealTrust;
  /**
   * The public verify page (`{web base}/verify`): the seal's /ContactInfo and the document's
   * subject name it, so the sealed file itself says where to check it (without a visible mark on
   * the document's own pages).
   */
  verifyUrl?: string;
}

/**
 * Produces the signed copy of one document: every value drawn into its areas, AcroForm fields
 * flattened, the test mark when asked, then the certification seal (see signPdf).
 *
 * The original file is kept as the first revision and everything above is appended as one
 * incremental update (unless the file cannot be updated incrementally, e.g. it was repaired on
 * load, in which case it is rewritten), so memory stays at a few copies of the input.
 */
export async function sealDocument(input: SealDocumentInput): Promise<Uint8Array> {
  const pdf = await PDF.load(input.pdf);
  const pages = pdf.getPages();

  for (const v of input.values) {
    for (const area of v.areas) {
      if (!Number.isInteger(area.page) || area.page < 1 || area.page > pages.length) {
        throw new RangeError(`Area page ${area.page} does not exist (document has ${pages.length} pages)`);
      }
    }
  }

  const form = pdf.getForm();
  if (form) {
    // @libpdf/core 0.4 flattening writes an unbalanced `Q` into pages without any content stream.
    for (const page of pages) {
      if (!page.dict.has('Contents')) page.dict.set('Contents', pdf.createStream({}, new Uint8Array(0)));
    }
    form.flatten();
  }

  const fonts = new DocumentFonts(pdf);
  const images = new ImageCache(pdf);
  const byPage = new Map<number, { v: SealValue; area: SealValue['areas'][number] }[]>();
  for (const v of input.values) {
    for (const area of v.areas) {
      const list = byPage.get(area.page - 1) ?? [];
      list.push({ v, area });
      byPage.set(area.page - 1, list);
    }
  }

  for (let index = 0; index < pages.length; index++) {
    const entries = byPage.get(index);
    if (!entries && !input.testMark) continue;
    const page = pages[index]!;
    const display = displayPage(page);
    const canvas = new Canvas(pdf, fonts);
    for (const { v, area } of entries ?? []) {
      const box: Box = areaRect(area, display);
      drawValue(canvas, images, v, box, area.fontSize);
    }
    if (input.testMark) drawTestMark(canvas, display.width, display.height);
    if (!canvas.isEmpty) paintOnPage(pdf, page, canvas.finish(display.width, display.height), display);
  }
  fonts.finish();

  if (input.name) pdf.setTitle(input.name);
  if (input.verifyUrl) pdf.setSubject(`Sealed electronically; verify it at ${input.verifyUrl}`);
  pdf.setModificationDate(input.signedAt ?? new Date());

  const target = pdf.canSaveIncrementally() === null ? pdf : await PDF.load(await pdf.save());
  return signPdf(target, input.identity, {
    reason:
      input.reason ??
      (input.testMark ? 'Signed in test mode - not legally binding' : 'Signed electronically'),
    location: input.location,
    contactInfo: input.verifyUrl,
    signingTime: input.signedAt,
    trust: input.trust,
  }).then((r) => r.bytes);
}

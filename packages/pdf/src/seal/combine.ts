import { PDF, PdfArray, PdfDict, PdfName, type PdfObject, PdfRef } from '@libpdf/core';
import type { SigningIdentity } from './identity.ts';
import { type SealTrust, signPdf } from './sign.ts';

/**
 * Merges signed documents and the audit trail into one PDF and signs it. The signatures of the
 * parts cannot survive a merge (their byte ranges refer to other files), so their signature
 * widgets are left out; the parts' own signed files remain the evidence for each document.
 */
export async function combineDocuments(
  pdfs: Uint8Array[],
  identity: SigningIdentity,
  name: string,
  trust?: SealTrust,
): Promise<Uint8Array> {
  if (pdfs.length === 0) throw new RangeError('combineDocuments needs at least one PDF');
  const combined = PDF.create();
  for (const bytes of pdfs) {
    const source = await PDF.load(bytes);
    dropSignatureWidgets(source);
    const count = source.getPageCount();
    await combined.copyPagesFrom(
      source,
      Array.from({ length: count }, (_, i) => i),
      { includeAnnotations: true },
    );
  }
  combined.setTitle(name);
  const saved = await combined.save();
  const signed = await signPdf(await PDF.load(saved), identity, {
    reason: `Combined signed documents: ${name}`,
    trust,
  });
  return signed.bytes;
}

function dropSignatureWidgets(pdf: PDF): void {
  const resolve = (o: PdfObject | undefined) => (o instanceof PdfRef ? (pdf.getObject(o) ?? undefined) : o);
  const isSignature = (annot: PdfDict): boolean => {
    for (let node: PdfObject | undefined = annot, depth = 0; node instanceof PdfDict && depth < 32; depth++) {
      const ft = node.get('FT');
      if (ft instanceof PdfName) return ft.value === 'Sig';
      node = resolve(node.get('Parent'));
    }
    return false;
  };
  for (const page of pdf.getPages()) {
    const annots = resolve(page.dict.get('Annots'));
    if (!(annots instanceof PdfArray)) continue;
    const kept: PdfObject[] = [];
    for (let i = 0; i < annots.length; i++) {
      const item = annots.at(i);
      const annot = resolve(item);
      if (annot instanceof PdfDict && isSignature(annot)) continue;
      if (item) kept.push(item);
    }
    if (kept.length !== annots.length) page.dict.set('Annots', new PdfArray(kept));
  }
}

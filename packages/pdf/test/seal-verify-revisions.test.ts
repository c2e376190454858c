import { PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfRef, type PdfStream, PdfString } from '@libpdf/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { certifyPdf } from '../src/seal/certify.ts';
import {
  inspectSignatures,
  isIntact,
  loadSigningIdentity,
  MAX_REVISIONS_CHECKED,
  type SigningIdentity,
  sealDocument,
} from '../src/seal/index.ts';
import { diffRevision } from '../src/verify/diff.ts';
import { MAX_COMPARED } from '../src/verify/equal.ts';
import { PdfFile } from '../src/verify/file.ts';
import { View } from '../src/verify/model.ts';

const revisionEndsOf = (bytes: Uint8Array) => new PdfFile(bytes).revisions.map((r) => r.end);

import { forge } from './forgery.ts';
import { sourcePdf, tempDir } from './seal-helpers.ts';

// Issue 15, item 1: a later revision signed by anyone must not make our seal look untouched.
// Each forged file starts from a real seal and appends one incremental update.

let ours: SigningIdentity;
let forger: SigningIdentity;
let sealed: Uint8Array;

beforeAll(async () => {
  ours = await loadSigningIdentity({ dataDir: tempDir('revisions-ours') });
  forger = await loadSigningIdentity({ dataDir: tempDir('revisions-forger'), commonName: 'Forger' });
  sealed = await sealDocument({
    pdf: await sourcePdf(2),
    values: [{ type: 'text', areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.4, h: 0.04 }], value: 'Fee EUR 4,000' }],
    identity: ours,
    name: 'fee',
    signedAt: new Date(Date.UTC(2026, 0, 5, 9, 0, 0)),
  });
});

async function forgerSigns(pdf: PDF): Promise<Uint8Array> {
  const { bytes } = await pdf.sign({ signer: forger.signer, reason: 'Approved' });
  return bytes;
}

async function ourSeal(file: Uint8Array) {
  const checks = await inspectSignatures(file);
  return { checks, seal: checks.find((c) => c.signerCertificateSha256 === ours.fingerprintSha256)! };
}

describe('POST /documents/verify: each signature is judged against the revision it signed', () => {
  it('the forged file: "EUR 40,000" painted over the fee in an update signed with a second certificate is caught on page 1', async () => {
    const forged = await forge(sealed, forger);
    const { checks, seal } = await ourSeal(forged);
    expect(checks).toHaveLength(2);
    expect(seal).toMatchObject({
      valid: true,
      kind: 'certification',
      revision: 2,
      modifiedAfterSigning: true,
    });
    expect(seal.changesAfter).toContainEqual(
      expect.objectContaining({ revision: 3, kind: 'page_content', page: 1 }),
    );
    expect(seal.changesAfter.map((c) => c.description).join('; ')).toContain('page 1');
    const theirs = checks[1]!;
    expect(theirs).toMatchObject({ valid: true, coversWholeDocument: true, modifiedAfterSigning: false });
    expect(theirs.signerSubject).toBe('CN=Forger');
    expect(isIntact(checks)).toBe(false);
  });

  it('the same paint in an unsigned incremental update is caught as well', async () => {
    const forged = await forge(sealed, undefined, 1);
    const { checks, seal } = await ourSeal(forged);
    expect(seal.modifiedAfterSigning).toBe(true);
    expect(seal.changesAfter).toContainEqual(expect.objectContaining({ kind: 'page_content', page: 2 }));
    expect(isIntact(checks)).toBe(false);
  });

  it('an existing content stream rewritten in place (same object number) is caught on its page', async () => {
    const pdf = await PDF.load(sealed);
    const page = pdf.getPage(0)!;
    const contents = page.dict.get('Contents');
    const ref = contents instanceof PdfRef ? contents : (page.dict.getArray('Contents')!.at(0) as PdfRef);
    const stream = pdf.context.resolve(ref) as PdfStream;
    stream.setData(new TextEncoder().encode('BT /F1 14 Tf 60 668 Td (EUR 40,000) Tj ET'));
    const forged = await forgerSigns(pdf);
    const { seal } = await ourSeal(forged);
    expect(seal.modifiedAfterSigning).toBe(true);
    expect(seal.changesAfter).toContainEqual(
      expect.objectContaining({
        kind: 'page_content',
        page: 1,
        description: expect.stringContaining(`object ${ref.objectNumber}`),
      }),
    );
  });

  it('an annotation that shows "EUR 40,000" on the page is a modification, even when signed', async () => {
    const pdf = await PDF.load(sealed);
    const page = pdf.getPage(0)!;
    const annot = pdf.context.register(
      PdfDict.of({
        Type: PdfName.of('Annot'),
        Subtype: PdfName.of('FreeText'),
        Rect: PdfArray.of(...[55, 660, 275, 690].map((n) => PdfNumber.of(n))),
        Contents: PdfString.fromString('EUR 40,000'),
        DA: PdfString.fromString('/Helv 14 Tf 0 g'),
      }),
    );
    const annots = page.dict.getArray('Annots');
    if (annots) annots.push(annot);
    else page.dict.set('Annots', PdfArray.of(annot));
    const forged = await forgerSigns(pdf);
    const { seal } = await ourSeal(forged);
    expect(seal.modifiedAfterSigning).toBe(true);
    expect(seal.changesAfter.some((c) => c.kind === 'annotation' && c.page === 1)).toBe(true);
  });

  it('after our certification (DocMDP P=1) even a bare second signature is a change the seal does not allow', async () => {
    const forged = await forgerSigns(await PDF.load(sealed));
    const { checks, seal } = await ourSeal(forged);
    expect(seal.modifiedAfterSigning).toBe(true);
    expect(seal.changesAfter.every((c) => c.kind === 'signature')).toBe(true);
    expect(isIntact(checks)).toBe(false);
  });

  it('an approval signature (no certification) stays intact when a further invisible signature is added', async () => {
    const pdf = await PDF.load(await sourcePdf(1));
    await pdf.sign({ signer: ours.signer, reason: 'First' });
    const twice = await forgerSigns(pdf);
    const checks = await inspectSignatures(twice);
    expect(checks.map((c) => [c.kind, c.valid, c.modifiedAfterSigning])).toEqual([
      ['approval', true, false],
      ['approval', true, false],
    ]);
    expect(isIntact(checks)).toBe(true);
  });

  it(`more than ${MAX_REVISIONS_CHECKED} revisions after the seal are not parsed one by one: the file counts as modified`, async () => {
    let bytes = sealed;
    for (let i = 0; i <= MAX_REVISIONS_CHECKED; i++) {
      const pdf = await PDF.load(bytes);
      pdf.setTitle(`rev ${i}`);
      bytes = await pdf.save({ incremental: true });
    }
    const { checks, seal } = await ourSeal(bytes);
    expect(seal.changesAfter).toEqual([
      expect.objectContaining({
        kind: 'unreadable_revision',
        description: expect.stringContaining(`at most ${MAX_REVISIONS_CHECKED}`),
      }),
    ]);
    expect(isIntact(checks)).toBe(false);
    // At the limit exactly, every revision is still compared (title changes live in /Info: allowed).
    const atLimit = bytes.subarray(0, revisionEndsOf(bytes)[MAX_REVISIONS_CHECKED + 1]!);
    expect((await ourSeal(atLimit)).seal.changesAfter).toEqual([]);
  }, 120_000);

  it('a revision with more values than the comparison visits (MAX_COMPARED) is reported, not half-checked', async () => {
    const pdf = await PDF.load(sealed);
    pdf.setTitle('one more revision');
    const next = await pdf.save({ incremental: true });
    const file = new PdfFile(next);
    const [, older, newer] = file.revisions.map((r) => new View(file, r));
    expect(diffRevision(older!, newer!, 3)).toEqual([]);
    expect(diffRevision(older!, newer!, 3, 5)).toEqual([
      expect.objectContaining({
        kind: 'unreadable_revision',
        description: expect.stringContaining('more than 5 values'),
      }),
    ]);
    expect(MAX_COMPARED).toBe(500_000);
  });

  it('a page content stream changed while referenced from a DSS is still page content, not validation data', async () => {
    const pdf = await PDF.load(sealed);
    const page = pdf.getPage(0)!;
    const contents = page.dict.get('Contents');
    const ref = contents instanceof PdfRef ? contents : (page.dict.getArray('Contents')!.at(0) as PdfRef);
    (pdf.context.resolve(ref) as PdfStream).setData(
      new TextEncoder().encode('BT /F1 14 Tf 60 668 Td (EUR 40,000) Tj ET'),
    );
    pdf.getCatalog().set('DSS', PdfDict.of({ Type: PdfName.of('DSS'), Certs: PdfArray.of(ref) }));
    const { seal } = await ourSeal(await pdf.save({ incremental: true }));
    expect(seal.modifiedAfterSigning).toBe(true);
    expect(seal.changesAfter).toContainEqual(expect.objectContaining({ kind: 'page_content', page: 1 }));
  });

  it('a catalog change after the seal (an OpenAction) is caught and named', async () => {
    const pdf = await PDF.load(sealed);
    pdf.getCatalog().set('OpenAction', PdfRef.of(1, 0));
    const forged = await pdf.save({ incremental: true });
    const { seal } = await ourSeal(forged);
    expect(seal.changesAfter).toContainEqual(
      expect.objectContaining({ kind: 'catalog', description: expect.stringContaining('OpenAction') }),
    );
  });
});

describe('POST /documents/verify: form filling after a certification', () => {
  async function certified(docMdp: 1 | 2) {
    const pdf = await PDF.load(await sourcePdf(1, { withField: true }));
    return certifyPdf(pdf, { signer: ours.signer, signingTime: new Date(), reservedBytes: 8192, docMdp });
  }

  async function fill(bytes: Uint8Array): Promise<Uint8Array> {
    const pdf = await PDF.load(bytes);
    const field = pdf
      .getForm()!
      .getFields()
      .find((f) => f.name === 'company') as unknown as {
      setValue(v: string): void;
    };
    field.setValue('EUR 40,000 Ltd');
    return pdf.save({ incremental: true });
  }

  it('a certification with P=2 allows filling an open field: the certification stays intact', async () => {
    const checks = await inspectSignatures(await fill(await certified(2)));
    expect(checks[0]).toMatchObject({
      kind: 'certification',
      docMdp: 2,
      valid: true,
      modifiedAfterSigning: false,
    });
  });

  it('the same filling after a P=1 certification (the seal) is a change it does not allow', async () => {
    const checks = await inspectSignatures(await fill(await certified(1)));
    expect(checks[0]).toMatchObject({ kind: 'certification', docMdp: 1, modifiedAfterSigning: true });
    expect(checks[0]!.changesAfter.every((c) => c.kind === 'form_fill')).toBe(true);
    expect(checks[0]!.changesAfter.some((c) => c.page === 1)).toBe(true);
  });
});

// What this package relies on from @libpdf/core, the pre-1.0 PDF engine pinned to one exact
// version (README.md, "The PDF engine"). A new version is taken by changing the pin and passing
// these tests, then the rest of packages/pdf's and the sealing integration tests.
import { execFileSync } from 'node:child_process';
import { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ops, P12Signer, PDF, PDFPage, StandardFonts } from '@libpdf/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSigningIdentity, type SigningIdentity, sealDocument } from '../src/seal/index.ts';
import { requireTool, sourcePdf, tempDir, writeTemp } from './seal-helpers.ts';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const installed = createRequire(import.meta.url)('@libpdf/core/package.json') as { version: string };

let dir: string;
let identity: SigningIdentity;
let sealed: Uint8Array;

beforeAll(async () => {
  dir = tempDir('libpdf-engine');
  identity = await loadSigningIdentity({ dataDir: dir });
  sealed = await sealDocument({ pdf: await sourcePdf(3), values: [], identity, name: 'engine' });
});

/** pdfsig's report on the file (fails the test when pdfsig is missing). */
function pdfsigReport(bytes: Uint8Array, name: string): string {
  requireTool('pdfsig');
  return execFileSync('pdfsig', [writeTemp(dir, name, bytes)], { encoding: 'utf8' });
}

describe('@libpdf/core: the version we pinned and what we rely on (packages/pdf/README.md)', () => {
  it('package.json pins one exact version (no range), and that version is the one installed', () => {
    const pinned = manifest.dependencies['@libpdf/core'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed.version).toBe(pinned);
  });

  it('an incremental save of a sealed file appends: the signed revision stays byte for byte and its signature stays valid (pdfsig)', async () => {
    expect(pdfsigReport(sealed, 'sealed.pdf')).toContain('Total document signed');
    const pdf = await PDF.load(sealed);
    expect(pdf.canSaveIncrementally()).toBeNull();
    pdf.setTitle('Changed after sealing');
    const updated = await pdf.save({ incremental: true });

    expect(updated.length).toBeGreaterThan(sealed.length);
    expect(Buffer.from(updated.subarray(0, sealed.length)).equals(Buffer.from(sealed))).toBe(true);
    const report = pdfsigReport(updated, 'updated.pdf');
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Not total document signed');
    expect((await PDF.load(updated)).getTitle()).toBe('Changed after sealing');
  });

  it('P12Signer keeps the imported private key on `privateKey` (identity.ts signs with it through node:crypto)', async () => {
    const p12 = readFileSync(path.join(dir, 'signing', 'signing.p12'));
    const password = readFileSync(path.join(dir, 'signing', 'signing.password'), 'utf8').trim();
    const signer = await P12Signer.create(new Uint8Array(p12), password);
    const key = (signer as unknown as { privateKey: unknown }).privateKey;
    expect(key).toBeInstanceOf(CryptoKey);
    expect(KeyObject.from(key as CryptoKey).type).toBe('private');
    expect(Buffer.from(signer.certificate).equals(Buffer.from(identity.signer.certificate))).toBe(true);
  });

  it('the calls our code makes exist and build a document that loads back: create, pages, operators, images, forms, copy, save', async () => {
    for (const method of [
      'save',
      'canSaveIncrementally',
      'addValidationData',
      'addTimestamp',
      'copyPagesFrom',
      'embedJpeg',
      'embedPng',
      'getOrCreateForm',
      'getForm',
      'createStream',
      'getObject',
      'setTitle',
      'removeProtection',
      'setProtection',
    ]) {
      expect(typeof (PDF.prototype as unknown as Record<string, unknown>)[method], `PDF#${method}`).toBe(
        'function',
      );
    }
    for (const method of ['drawOperators', 'registerImage', 'getResources', 'getMediaBox', 'getCropBox']) {
      expect(
        typeof (PDFPage.prototype as unknown as Record<string, unknown>)[method],
        `PDFPage#${method}`,
      ).toBe('function');
    }

    const source = PDF.create();
    source
      .addPage({ width: 200, height: 100 })
      .drawText('copied', { x: 10, y: 50, font: StandardFonts.Helvetica });
    const doc = PDF.create();
    await doc.copyPagesFrom(await PDF.load(await source.save()), [0]);
    const page = doc.addPage({ width: 300, height: 150 });
    page.drawOperators([
      ops.pushGraphicsState(),
      ops.concatMatrix(1, 0, 0, 1, 10, 10),
      ops.rectangle(0, 0, 50, 20),
      ops.fill(),
      ops.popGraphicsState(),
    ]);
    doc.getOrCreateForm().createTextField('name', {});
    const back = await PDF.load(await doc.save());
    expect(back.getPageCount()).toBe(2);
    expect(back.getPage(1)?.width).toBe(300);
    expect(
      back
        .getForm()
        ?.getFields()
        .map((f) => f.name),
    ).toEqual(['name']);
  });
});

import { PDF } from '@libpdf/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  inspectSignatures,
  isIntact,
  loadSigningIdentity,
  type SealValue,
  type SigningIdentity,
  sealDocument,
  TEST_MARK_TEXT,
} from '../src/seal/index.ts';
import {
  expectValidSignedPdf,
  fontNames,
  pdfText,
  signatureJpeg,
  signaturePng,
  sourcePdf,
  tempDir,
  wordBoxes,
  writeTemp,
} from './seal-helpers.ts';

let identity: SigningIdentity;
let dir: string;

beforeAll(async () => {
  dir = tempDir('seal-doc');
  identity = await loadSigningIdentity({ dataDir: dir });
});

const area = (page: number, x: number, y: number, w = 0.4, h = 0.04) => [{ page, x, y, w, h }];

describe('sealDocument: signed documents (Signature request `documents`: URL of signed PDF)', () => {
  it('draws every field type, flattens the form and adds one PAdES signature valid for pdfsig and qpdf', async () => {
    const values: SealValue[] = [
      { type: 'text', areas: area(1, 0.1, 0.1), value: 'Plain text value' },
      { type: 'signature', areas: area(1, 0.1, 0.16, 0.35, 0.08), value: signaturePng() },
      { type: 'signature', areas: area(1, 0.55, 0.16, 0.35, 0.08), value: 'Typed Signer' },
      { type: 'initials', areas: area(1, 0.1, 0.26, 0.1, 0.05), value: signatureJpeg() },
      { type: 'initials', areas: area(1, 0.25, 0.26, 0.1, 0.05), value: 'TS' },
      { type: 'date', areas: area(1, 0.1, 0.33), value: '2025-03-04' },
      { type: 'checkbox', areas: area(1, 0.1, 0.38, 0.03, 0.02), value: true },
      { type: 'checkbox', areas: area(1, 0.15, 0.38, 0.03, 0.02), value: false },
      { type: 'number', areas: area(1, 0.1, 0.42), value: 1234.5 },
      { type: 'phone', areas: area(1, 0.1, 0.47), value: '+15551234567' },
      { type: 'select', areas: area(1, 0.1, 0.52), value: 'Option B' },
      { type: 'radio', areas: area(1, 0.1, 0.57), value: 'Choice Two' },
      { type: 'multiple', areas: area(1, 0.1, 0.62), value: ['Red', 'Green'] },
      { type: 'image', areas: area(1, 0.55, 0.3, 0.3, 0.1), value: signaturePng() },
      { type: 'file', areas: area(1, 0.1, 0.67), value: 'https://files.example.com/uploads/report.pdf' },
      { type: 'stamp', areas: area(1, 0.55, 0.45, 0.3, 0.08), value: 'APPROVED' },
      { type: 'cells', areas: area(1, 0.1, 0.72, 0.4, 0.04), value: '4711', cellCount: 6 },
      { type: 'text', areas: area(2, 0.1, 0.1), value: null },
    ];
    const sealed = await sealDocument({
      pdf: await sourcePdf(2, { withField: true }),
      values,
      identity,
      name: 'all-types',
      reason: 'Signed by all parties',
    });
    const file = writeTemp(dir, 'all-types.pdf', sealed);
    const sig = expectValidSignedPdf(file);
    expect(sig).toContain('Signer full Distinguished Name: CN=esign document sealing');

    const text = pdfText(file);
    for (const expected of [
      'Plain text value',
      'Typed Signer',
      '2025-03-04',
      '1234.5',
      '+15551234567',
      'Option B',
      'Choice Two',
      'Red, Green',
      'report.pdf',
      'APPROVED',
      'Acme Field Value',
    ]) {
      expect(text).toContain(expected);
    }
    // Cells: one character per cell, spread across the box.
    const cells = wordBoxes(file, 1).filter((w) => w.yMin > 841.89 * 0.72 - 1 && w.yMax < 841.89 * 0.76 + 1);
    expect(cells.map((w) => w.text)).toEqual(['4', '7', '1', '1']);
    expect(cells[3]!.xMin - cells[0]!.xMin).toBeGreaterThan(595.28 * 0.4 * 0.4);

    // Flattened: the only form field left is the sealing signature.
    const reloaded = await PDF.load(sealed);
    const fields = reloaded.getForm()?.getFields() ?? [];
    expect(fields.map((f) => f.constructor.name)).toEqual(['SignatureField']);

    const [check] = await inspectSignatures(sealed);
    expect(check).toMatchObject({
      valid: true,
      coversWholeDocument: true,
      modifiedAfterSigning: false,
      subFilter: 'ETSI.CAdES.detached',
      signerSubject: 'CN=esign document sealing',
      signerCertificateSha256: identity.fingerprintSha256,
      reason: 'Signed by all parties',
    });
  });

  it('places values in their areas (fractions of the displayed page, origin top-left), also on rotated pages', async () => {
    const sealed = await sealDocument({
      pdf: await sourcePdf(2, { rotate: 90 }),
      values: [
        { type: 'text', areas: area(1, 0.1, 0.2, 0.3, 0.05), value: 'RotatedPageWord' },
        { type: 'text', areas: area(2, 0.5, 0.5, 0.3, 0.05), value: 'UprightPageWord' },
      ],
      identity,
      name: 'positions',
    });
    const file = writeTemp(dir, 'positions.pdf', sealed);
    expectValidSignedPdf(file);
    // Page 1 is A4 rotated 90°: displayed 841.89 wide, 595.28 high.
    const rotated = wordBoxes(file, 1).find((w) => w.text === 'RotatedPageWord')!;
    expect(rotated.xMin).toBeGreaterThanOrEqual(841.89 * 0.1);
    expect(rotated.xMin).toBeLessThan(841.89 * 0.1 + 6);
    expect(rotated.yMin).toBeGreaterThanOrEqual(595.28 * 0.2 - 1);
    expect(rotated.yMax).toBeLessThanOrEqual(595.28 * 0.25 + 1);
    const upright = wordBoxes(file, 2).find((w) => w.text === 'UprightPageWord')!;
    expect(upright.xMin).toBeGreaterThanOrEqual(595.28 * 0.5);
    expect(upright.xMin).toBeLessThan(595.28 * 0.5 + 6);
    expect(upright.yMin).toBeGreaterThanOrEqual(841.89 * 0.5 - 1);
    expect(upright.yMax).toBeLessThanOrEqual(841.89 * 0.55 + 1);
  });

  it('writes Latin, Cyrillic, Greek, CJK, Hangul, Hebrew and Arabic values with subset Noto fonts', async () => {
    const samples = {
      latin: 'Zoë Ångström-Łukasz',
      cyrillic: 'Иван Петрович',
      greek: 'Αλέξανδρος',
      chinese: '王小明',
      japanese: 'やまだ たろう',
      korean: '김민준',
      hebrew: 'שלום עולם',
      arabic: 'محمد علي',
    };
    const values: SealValue[] = Object.values(samples).map((value, i) => ({
      type: 'text',
      areas: area(1, 0.1, 0.08 + i * 0.06),
      value,
    }));
    values.push({ type: 'signature', areas: area(1, 0.55, 0.1, 0.35, 0.08), value: 'Иван 王 محمد' });
    const sealed = await sealDocument({ pdf: await sourcePdf(1), values, identity, name: 'scripts' });
    const file = writeTemp(dir, 'scripts.pdf', sealed);
    expectValidSignedPdf(file);
    const text = pdfText(file);
    for (const value of [
      samples.latin,
      samples.cyrillic,
      samples.greek,
      samples.chinese,
      samples.japanese,
      samples.korean,
    ]) {
      expect(text).toContain(value);
    }
    // RTL text is extracted in visual order by pdftotext; check the letters are all there.
    for (const ch of ['ש', 'ל', 'ו', 'ם', 'ע']) expect(text).toContain(ch);
    const fonts = fontNames(file);
    for (const face of [
      'NotoSans-Regular',
      'NotoSansHans',
      'NotoSansKR',
      'NotoSansHebrew',
      'NotoNaskhArabic',
    ]) {
      expect(fonts).toMatch(new RegExp(`[A-Z]{6}\\+${face}.*yes yes yes`));
    }
    // Subsetting keeps the file small although the CJK fonts are several MB.
    expect(sealed.length).toBeLessThan(250_000);
  });

  it('marks every page "TEST DOCUMENT - NOT LEGALLY BINDING" in test mode', async () => {
    const sealed = await sealDocument({
      pdf: await sourcePdf(3, { rotate: 270 }),
      values: [{ type: 'text', areas: area(2, 0.1, 0.1), value: 'Test value' }],
      identity,
      name: 'test-mode',
      testMark: true,
    });
    const file = writeTemp(dir, 'test-mode.pdf', sealed);
    expectValidSignedPdf(file);
    for (const page of [1, 2, 3]) expect(pdfText(file, page)).toContain(TEST_MARK_TEXT);
    const [check] = await inspectSignatures(sealed);
    expect(check!.reason).toBe('Signed in test mode - not legally binding');
    expect(isIntact(await inspectSignatures(sealed))).toBe(true);
  });

  it('seals a 100-page document with 20 fields quickly, appending to the original instead of copying it', async () => {
    const pdf = await sourcePdf(100);
    const png = signaturePng();
    const values: SealValue[] = Array.from({ length: 20 }, (_, i) => ({
      type: i % 2 ? 'signature' : 'text',
      areas: area(1 + i * 5, 0.1, 0.8, 0.4, 0.06),
      value: i % 2 ? png : `Value ${i} Привет 你好`,
    }));
    const started = performance.now();
    const sealed = await sealDocument({ pdf, values, identity, name: 'big', testMark: true });
    expect(performance.now() - started).toBeLessThan(15_000);
    // Incremental update: the original bytes are the first revision, unchanged.
    expect(Buffer.from(sealed.subarray(0, pdf.length)).equals(Buffer.from(pdf))).toBe(true);
    const file = writeTemp(dir, 'big.pdf', sealed);
    expectValidSignedPdf(file);
    expect(pdfText(file, 91)).toContain('Value 18');
  });

  it('rejects areas on pages the document does not have', async () => {
    await expect(
      sealDocument({
        pdf: await sourcePdf(1),
        values: [{ type: 'text', areas: area(2, 0.1, 0.1), value: 'x' }],
        identity,
        name: 'bad',
      }),
    ).rejects.toThrow(/page 2 does not exist/);
  });
});

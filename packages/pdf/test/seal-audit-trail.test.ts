import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PDF } from '@libpdf/core';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import jsQRImport from 'jsqr';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AuditTrailInput,
  buildAuditTrail,
  combineDocuments,
  inspectSignatures,
  isIntact,
  loadSigningIdentity,
  type SigningIdentity,
  sealDocument,
  TEST_MARK_TEXT,
} from '../src/seal/index.ts';
import {
  expectValidSignedPdf,
  pdfText,
  signaturePng,
  sourcePdf,
  tempDir,
  type WordBox,
  wordBoxes,
  writeTemp,
} from './seal-helpers.ts';

// jsqr is CommonJS typed as `export default`: under NodeNext its default import is the module.
const jsQR = ((jsQRImport as unknown as { default?: unknown }).default ??
  jsQRImport) as (typeof jsQRImport)['default'];

let identity: SigningIdentity;
let dir: string;

beforeAll(async () => {
  dir = tempDir('seal-trail');
  identity = await loadSigningIdentity({ dataDir: dir });
});

const at = (minute: number) => new Date(Date.UTC(2025, 4, 1, 10, minute, 0));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function trailInput(original: Uint8Array, sealed: Uint8Array, events: number): AuditTrailInput {
  return {
    requestId: 42,
    title: 'Mutual NDA — Договор — 合同 — اتفاقية',
    createdAt: at(0),
    completedAt: at(30),
    documents: [{ id: 3, name: 'nda', originalSha256: sha(original), sealedSha256: sha(sealed) }],
    signers: [
      {
        id: 7,
        role: 'Client',
        name: 'Jane Doe',
        email: 'jane@example.com',
        phone: '+15551234567',
        ip: '203.0.113.9',
        userAgent:
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
        sentAt: at(1),
        viewedAt: at(5),
        signedAt: at(10),
        declinedAt: null,
        declineReason: null,
        otpVerifiedAt: at(4),
        values: [
          { field: 'Signature', value: signaturePng() },
          { field: 'Full name', value: 'Иван Петров' },
          { field: 'Agree', value: true },
          { field: 'Colours', value: ['Red', 'Blue'] },
        ],
      },
      {
        id: 8,
        role: 'Provider',
        name: 'محمد علي',
        email: null,
        phone: '+4915112345678',
        ip: null,
        userAgent: null,
        sentAt: at(11),
        viewedAt: null,
        signedAt: null,
        declinedAt: at(20),
        declineReason: 'Wrong company address',
        otpVerifiedAt: null,
        values: [],
      },
    ],
    events: Array.from({ length: events }, (_, i) => ({
      at: at(i % 60),
      type: i % 2 ? 'signer.viewed' : 'signature_request.created',
      detail: `Event ${i}: detail long enough to wrap inside its column of the events table in the audit trail`,
    })),
  };
}

describe('buildAuditTrail and combineDocuments (Signature request `audit_trail_url`, `combined_document_url`)', () => {
  it('the audit trail lists the request, document hashes, signers, values and events, and is itself signed', async () => {
    const original = await sourcePdf(1);
    const sealed = await sealDocument({ pdf: original, values: [], identity, name: 'nda' });
    const input = trailInput(original, sealed, 120);
    const trail = await buildAuditTrail(input, identity);
    const file = writeTemp(dir, 'audit-trail.pdf', trail);
    expectValidSignedPdf(file);
    const text = pdfText(file);
    for (const expected of [
      'Audit trail',
      '#42',
      sha(original),
      sha(sealed),
      'jane@example.com',
      '203.0.113.9',
      '2025-05-01 10:10:00 UTC',
      'Wrong company address',
      'Иван Петров',
      'Event 119',
      identity.fingerprintSha256,
    ]) {
      expect(text.replace(/\s+/g, ' ')).toContain(expected);
    }
    const pages = (await PDF.load(trail)).getPageCount();
    expect(pages).toBeGreaterThan(2);
    expect(text).toContain(`page ${pages} of ${pages}`);
    expect(text).not.toContain(TEST_MARK_TEXT);
    const [check] = await inspectSignatures(trail);
    expect(check).toMatchObject({
      valid: true,
      coversWholeDocument: true,
      signerCertificateSha256: identity.fingerprintSha256,
    });
  });

  it('issue 30 (public verify page): the audit trail prints the verify link with a QR code that scans to it, on page 1 and in every footer; a sealed document names it in its seal', async () => {
    const verifyUrl = 'https://sign.example.com/verify';
    const original = await sourcePdf(1);
    const sealed = await sealDocument({ pdf: original, values: [], identity, name: 'nda', verifyUrl });
    const trail = await buildAuditTrail({ ...trailInput(original, sealed, 60), verifyUrl }, identity);
    const file = writeTemp(dir, 'audit-trail-verify.pdf', trail);
    expectValidSignedPdf(file);
    const pages = (await PDF.load(trail)).getPageCount();
    expect(pdfText(file, 1).replace(/\s+/g, ' ')).toContain(`Verify at ${verifyUrl}`);
    for (let p = 1; p <= pages; p++) expect(pdfText(file, p)).toContain(`verify at ${verifyUrl}`);
    // The QR code, rendered as a reader shows page 1, decodes to the link.
    execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', '-singlefile', file, `${file}-p1`]);
    const image = await loadImage(readFileSync(`${file}-p1.png`));
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const { data } = ctx.getImageData(0, 0, image.width, image.height);
    expect(jsQR(new Uint8ClampedArray(data), image.width, image.height)?.data).toBe(verifyUrl);
    // The sealed document: the seal's /ContactInfo and the document's subject name the page.
    const latin1 = Buffer.from(sealed).toString('latin1');
    expect(latin1).toContain(`/ContactInfo (${verifyUrl})`);
    expect((await PDF.load(sealed)).getSubject()).toContain(verifyUrl);
    expect((await inspectSignatures(sealed))[0]).toMatchObject({ valid: true, coversWholeDocument: true });
  });

  it('issue 32: a German audit trail words its labels, events and signature methods in German, formats numbers and dates for German readers, and keeps ISO times', async () => {
    const original = await sourcePdf(1);
    const sealed = await sealDocument({ pdf: original, values: [], identity, name: 'nda' });
    const input = trailInput(original, sealed, 2);
    input.locale = 'de';
    input.signers[0]!.values.push(
      { field: 'Unterschrift', value: 'Jane Doe', method: 'typed' },
      { field: 'Betrag', value: 1234.5 },
    );
    input.events = [
      { at: at(5), type: 'signer.viewed', detail: 'Jane Doe' },
      { at: at(10), type: 'signer.signed', detail: 'Jane Doe' },
      { at: at(12), type: 'custom.unknown', detail: 'kept as recorded' },
    ];
    const text = pdfText(
      writeTemp(dir, 'audit-trail-de.pdf', await buildAuditTrail(input, identity)),
    ).replace(/\s+/g, ' ');
    for (const expected of [
      'Prüfprotokoll',
      'Dokument geöffnet',
      'signer.viewed',
      'Unterschrieben',
      'custom.unknown',
      'Unterschrift (getippt)',
      '1.234,5',
      '1. Mai 2025 um 10:10 UTC (2025-05-01 10:10:00 UTC)',
    ])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/\b(Events|Signers|typed)\b/);
  });

  it('a test-mode audit trail carries the test mark on every page', async () => {
    const original = await sourcePdf(1);
    const trail = await buildAuditTrail({ ...trailInput(original, original, 60), testMode: true }, identity);
    const file = writeTemp(dir, 'audit-trail-test.pdf', trail);
    expectValidSignedPdf(file);
    const pages = (await PDF.load(trail)).getPageCount();
    for (let p = 1; p <= pages; p++) expect(pdfText(file, p)).toContain(TEST_MARK_TEXT);
  });

  it('the combined document holds every document and the audit trail, with one signature over all of it', async () => {
    const a = await sealDocument({
      pdf: await sourcePdf(2),
      values: [
        { type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.4, h: 0.04 }], value: 'First doc value' },
      ],
      identity,
      name: 'first',
    });
    const b = await sealDocument({
      pdf: await sourcePdf(1),
      values: [
        { type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.4, h: 0.04 }], value: 'Second doc value' },
      ],
      identity,
      name: 'second',
    });
    const trail = await buildAuditTrail(trailInput(a, b, 5), identity);
    const combined = await combineDocuments([a, b, trail], identity, 'NDA package');
    const file = writeTemp(dir, 'combined.pdf', combined);
    expectValidSignedPdf(file);
    const total =
      (await PDF.load(a)).getPageCount() +
      (await PDF.load(b)).getPageCount() +
      (await PDF.load(trail)).getPageCount();
    expect((await PDF.load(combined)).getPageCount()).toBe(total);
    const text = pdfText(file);
    expect(text).toContain('First doc value');
    expect(text).toContain('Second doc value');
    expect(text).toContain('Audit trail');
    const checks = await inspectSignatures(combined);
    expect(checks).toHaveLength(1);
    expect(isIntact(checks)).toBe(true);
  });
});

describe('a right-to-left audit trail (issue 42 item 7)', () => {
  /** The first word `text` on any page of `file`, with its page. */
  function word(file: string, pages: number, text: string): WordBox {
    for (let p = 1; p <= pages; p++) {
      const found = wordBoxes(file, p).find((w) => w.text === text);
      if (found) return found;
    }
    throw new Error(`${text} not in ${file}`);
  }

  it('issue 42.7: in Arabic the values table is mirrored: each label stands at the right margin, its value left of it (pdftotext -bbox); in English the other way round', async () => {
    const original = await sourcePdf(1);
    const sealed = await sealDocument({ pdf: original, values: [], identity, name: 'nda' });
    const pageW = 595.28;
    for (const locale of ['ar', 'en'] as const) {
      const input = { ...trailInput(original, sealed, 2), locale };
      const trail = await buildAuditTrail(input, identity);
      const file = writeTemp(dir, `audit-trail-dir-${locale}.pdf`, trail);
      const pages = (await PDF.load(trail)).getPageCount();
      const label = word(file, pages, 'Full');
      const value = word(file, pages, 'Иван');
      const email = word(file, pages, 'jane@example.com');
      if (locale === 'ar') {
        expect(label.xMin, 'label right of its value').toBeGreaterThan(value.xMax);
        // Each line starts at its cell's right edge: the label at the right margin, the value at
        // its column's (140 pt further left).
        expect(Math.abs(word(file, pages, 'name').xMax - (pageW - 50))).toBeLessThan(2);
        expect(Math.abs(word(file, pages, 'Петров').xMax - (pageW - 190))).toBeLessThan(2);
        expect(Math.abs(email.xMax - (pageW - 190))).toBeLessThan(2);
      } else {
        expect(label.xMax, 'label left of its value').toBeLessThan(value.xMin);
        expect(Math.abs(label.xMin - 50)).toBeLessThan(2);
        expect(Math.abs(email.xMin - 190)).toBeLessThan(2);
      }
    }
  });
});

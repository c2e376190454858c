import { requirement } from '@esign/testing/requirements';
import { PDF } from '@libpdf/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DocumentInputError, ingestDocument } from '../src/ingest/index.ts';
import {
  type EncryptionKind,
  extractTextWithPdfJs,
  FIXTURE_OWNER_PASSWORD,
  FIXTURE_USER_PASSWORD,
  hasQpdf,
  makeEncryptedPdf,
  makePlainPdf,
  makeTaggedPdf,
} from './ingest-fixtures.ts';

// Without qpdf its cases are skipped with a message, or fail under CI (test/requirements.ts).
const qpdfAvailable = requirement('qpdf', await hasQpdf(), 'apt-get install -y qpdf');
const KINDS: EncryptionKind[] = ['rc4-40', 'rc4-128', 'aes-128', 'aes-256'];

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as DocumentInputError,
  );

/** The stored copy must open without any password, in @libpdf/core and in pdf.js. */
async function expectDecrypted(pdf: Uint8Array) {
  const reopened = await PDF.load(pdf);
  expect(reopened.isEncrypted).toBe(false);
  const text = await extractTextWithPdfJs(pdf);
  expect(text.length).toBe(2);
  expect(text[0]!.map((i) => i.str).join(' ')).toContain('Sign here:');
}

// qpdf writes every algorithm (and is an independent implementation); @libpdf/core only AES-256.
describe.each([
  ['qpdf', qpdfAvailable, KINDS],
  ['libpdf', true, ['aes-256']],
] as const)('encrypted PDFs made with %s (spec Errors: pdf_encrypted)', (via, available, kinds) => {
  describe.skipIf(!available).each(kinds as EncryptionKind[])('%s', (kind) => {
    let encrypted: Uint8Array;
    beforeAll(async () => {
      encrypted = await makeEncryptedPdf(kind, { via });
    });

    it('without a password: pdf_encrypted asking for the password', async () => {
      const err = await rejection(ingestDocument({ bytes: encrypted }));
      expect(err).toBeInstanceOf(DocumentInputError);
      expect(err.code).toBe('pdf_encrypted');
      expect(err.message).toMatch(/password-protected/);
    });

    it('with a wrong password: pdf_encrypted saying the password is wrong', async () => {
      const err = await rejection(ingestDocument({ bytes: encrypted, password: 'not-it' }));
      expect(err.code).toBe('pdf_encrypted');
      expect(err.message).toMatch(/password is wrong/);
    });

    it('with the user or the owner password: a decrypted copy, tags found and removed', async () => {
      for (const password of [FIXTURE_USER_PASSWORD, FIXTURE_OWNER_PASSWORD]) {
        const doc = await ingestDocument({ bytes: encrypted, password });
        expect(doc.warnings).toEqual([]);
        expect(doc.pages).toHaveLength(2);
        expect(doc.fields.map((f) => f.name)).toContain('Full name');
        await expectDecrypted(doc.pdf);
        const text = (await extractTextWithPdfJs(doc.pdf))
          .flat()
          .map((i) => i.str)
          .join(' ');
        expect(text).not.toContain('{{');
      }
    });
  });
});

describe('encryption edge cases (spec Errors: pdf_encrypted)', () => {
  it('a user password cannot remove protection the file forbids; the owner password can', async () => {
    const restricted = await makeEncryptedPdf('aes-256', { forbidModify: true });
    const err = await rejection(ingestDocument({ bytes: restricted, password: FIXTURE_USER_PASSWORD }));
    expect(err.code).toBe('pdf_encrypted');
    expect(err.message).toMatch(/owner password/);
    const doc = await ingestDocument({ bytes: restricted, password: FIXTURE_OWNER_PASSWORD });
    await expectDecrypted(doc.pdf);
  });

  it('a file with only an owner password opens without one and is stored decrypted', async () => {
    const ownerOnly = await makeEncryptedPdf('aes-256', { userPassword: '' });
    const doc = await ingestDocument({ bytes: ownerOnly });
    await expectDecrypted(doc.pdf);
    // A needless (even wrong) password does not get in the way.
    const again = await ingestDocument({ bytes: ownerOnly, password: 'whatever' });
    expect(again.warnings).toEqual(['The PDF opens without a password; the password given was not used']);
  });

  it('a password sent with an unencrypted PDF is ignored with a warning', async () => {
    const doc = await ingestDocument({ bytes: await makePlainPdf(1), password: 'x' });
    expect(doc.warnings).toEqual(['The PDF is not encrypted; the password given was not used']);
  });

  it.skipIf(!qpdfAvailable)(
    'a qpdf file with restrictions and an empty user password needs the owner password',
    async () => {
      const base = await makeTaggedPdf();
      const restricted = await makeEncryptedPdf('aes-256', {
        via: 'qpdf',
        userPassword: '',
        forbidModify: true,
        base,
      });
      const err = await rejection(ingestDocument({ bytes: restricted }));
      expect(err.code).toBe('pdf_encrypted');
      expect(
        (await ingestDocument({ bytes: restricted, password: FIXTURE_OWNER_PASSWORD })).pages,
      ).toHaveLength(2);
    },
  );
});

import { b64 } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURE_USER_PASSWORD,
  makeEncryptedPdf,
  makeFormPdf,
  makeJpegImage,
  makePngImage,
  makeTaggedPdf,
} from '../../../packages/pdf/test/ingest-fixtures.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db);
});
afterAll(() => t.close());

const create = (body: unknown) => t.api('POST', 'templates', { key: owner.key, body });

describe('documents with text tags, forms, images and passwords (through REST)', () => {
  it('text tags become fields; the same tag on several pages is one field; roles are exactly the tags’ roles; tag text is gone from the stored PDF', async () => {
    const res = await create({ documents: [{ name: 'Lease', file: b64(await makeTaggedPdf()) }] });
    expect(res.status).toBe(201);
    const tpl = res.body;
    expect(tpl.roles).toEqual(['Client', 'Landlord']);
    const byName = Object.fromEntries(tpl.fields.map((f: any) => [f.name, f]));
    expect(byName['Full name']).toMatchObject({ type: 'text', role: 'Client', required: true });
    expect(byName.Plan).toMatchObject({ type: 'select', options: ['Basic', 'Pro'], required: false });
    const clientSignatures = tpl.fields.filter((f: any) => f.type === 'signature' && f.role === 'Client');
    expect(clientSignatures).toHaveLength(1);
    expect(clientSignatures[0].name).toBe('Signature');
    expect(clientSignatures[0].areas.map((a: any) => a.page).sort()).toEqual([1, 2]);
    const stored = Buffer.from(await (await fetch(tpl.documents[0].url)).arrayBuffer());
    expect(stored.includes(Buffer.from('{{'))).toBe(false);
  });

  it('fillable PDF form fields become template fields with their widget areas, added to any `fields` sent', async () => {
    const res = await create({
      documents: [{ file: b64(await makeFormPdf()) }],
      fields: [{ name: 'Extra', type: 'initials', areas: [{ page: 2, x: 0.5, y: 0.5, w: 0.1, h: 0.05 }] }],
    });
    expect(res.status).toBe(201);
    const types = Object.fromEntries(res.body.fields.map((f: any) => [f.name, f.type]));
    expect(types).toMatchObject({
      name: 'text',
      agree: 'checkbox',
      color: 'radio',
      country: 'select',
      Extra: 'initials',
    });
    const color = res.body.fields.find((f: any) => f.name === 'color');
    expect(color.options).toEqual(['red', 'green', 'blue']);
    expect(res.body.fields.find((f: any) => f.name === 'name').areas.map((a: any) => a.page)).toEqual([1, 2]);
  });

  it('PNG and JPEG images become PDF pages', async () => {
    const res = await create({
      documents: [
        { name: 'scan.png', file: b64(await makePngImage()) },
        { file: b64(await makeJpegImage()) },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.documents.map((d: any) => d.page_count)).toEqual([1, 1]);
    const pdf = Buffer.from(await (await fetch(res.body.documents[0].url)).arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it.each(['rc4-128', 'aes-256'] as const)(
    '%s encrypted PDF: 422 pdf_encrypted without password, a clear error for a wrong one, a decrypted copy with the right one',
    async (kind) => {
      const file = b64(await makeEncryptedPdf(kind));
      const none = await create({ documents: [{ file }] });
      expect([none.status, none.body.error.code]).toEqual([422, 'pdf_encrypted']);
      const wrong = await create({ documents: [{ file }], password: 'nope' });
      expect(wrong.body.error.code).toBe('pdf_encrypted');
      expect(wrong.body.error.message).toMatch(/password/i);
      const ok = await create({ documents: [{ file }], password: FIXTURE_USER_PASSWORD });
      expect(ok.status).toBe(201);
      const stored = Buffer.from(await (await fetch(ok.body.documents[0].url)).arrayBuffer());
      expect(stored.includes(Buffer.from('/Encrypt'))).toBe(false);
    },
  );
});

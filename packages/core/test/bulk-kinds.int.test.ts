import type { TestAccount } from '@esign/testing/accounts';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processBulkSend } from '../src/services/bulk/process.ts';
import { type CoreHarness, startCore } from './caller.ts';

// Issue 47: a bulk send's `kind` column gives each row's participant their part.

let h: CoreHarness;
let owner: TestAccount;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ lifetime: true });
});
afterAll(() => h?.close());

const csv = (lines: string[]) => b64(Buffer.from(lines.join('\r\n')));

describe('issue 47: bulk send kind column', () => {
  it('each row’s Manager is an approver or a viewer as its Manager kind column says; a bad part is that row’s error naming the column', async () => {
    const caller = await h.as(owner.key);
    const tpl = await caller.templates.create({
      name: 'Offer',
      documents: [{ file: b64(await plainPdf(1)) }],
      fields: [
        {
          name: 'Signature',
          type: 'signature',
          role: 'Guest',
          areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }],
        },
      ],
    });
    // Manager (no fields) goes first: roles rename by position, the fields add Guest after it.
    await caller.templates.update({
      id: tpl.id,
      roles: ['Manager'],
      fields: [
        {
          name: 'Signature',
          type: 'signature',
          role: 'Guest',
          areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }],
        },
      ],
    });
    const file = csv([
      'Manager email,Manager kind,Guest email',
      'm1@example.com,approver,g1@example.com',
      'm2@example.com,Viewer,g2@example.com',
      'm3@example.com,boss,g3@example.com',
    ]);
    const mapping = {
      signers: [
        { role: 'Manager', email: 'Manager email', kind: 'Manager kind' },
        { role: 'Guest', email: 'Guest email' },
      ],
    };
    const preview = await caller.bulkSends.preview({
      template_id: tpl.id,
      file,
      file_name: 'o.csv',
      mapping,
    });
    expect(preview.rows.map((r) => r.errors.length)).toEqual([0, 0, 1]);
    expect(preview.rows[2]!.errors[0]).toContain('column "Manager kind"');
    // The guessed mapping finds the column by its name too.
    const guessed = await caller.bulkSends.preview({ template_id: tpl.id, file, file_name: 'o.csv' });
    expect(guessed.mapping.signers[0]).toMatchObject({ role: 'Manager', kind: 'Manager kind' });
    const batch = await caller.bulkSends.create({ template_id: tpl.id, file, file_name: 'o.csv', mapping });
    await processBulkSend(h.sc, batch.id);
    const rows = await caller.bulkSends.rows({ id: batch.id });
    expect(rows.data.map((r) => r.status)).toEqual(['sent', 'sent', 'invalid']);
    const kinds = [];
    for (const r of rows.data.slice(0, 2)) {
      const req = await caller.signatureRequests.get({ id: r.signature_request_id! });
      kinds.push(req.signers.map((s) => s.kind ?? 'signer'));
    }
    expect(kinds).toEqual([
      ['approver', 'signer'],
      ['viewer', 'signer'],
    ]);
  });
});

import type { TestAccount } from '@esign/testing/accounts';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processBulkSend } from '../src/services/bulk/process.ts';
import { type CoreHarness, startCore } from './caller.ts';

// Issue 46 item 4: a bulk send of a form that thinks: each row's column for a field its own
// answers hide is ignored, and a column for a formula field too (the formula computes it).

let h: CoreHarness;
let owner: TestAccount;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 5 });
});
afterAll(() => h?.close());

const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.3, h: 0.05 }];
const csv = (lines: string[]) => b64(Buffer.from(lines.join('\r\n')));

describe('issue 46.4: bulk send ignores hidden fields’ columns and recomputes formulas', () => {
  it('a Company row keeps its VAT column and drops Full name; a Person row the reverse; Total is never prefilled', async () => {
    const caller = await h.as(owner.key);
    const company = { all: [{ field: 'Kind', op: 'equals' as const, value: 'Company' }] };
    const person = { all: [{ field: 'Kind', op: 'equals' as const, value: 'Person' }] };
    const tpl = await caller.templates.create({
      name: 'Order',
      documents: [{ file: b64(await plainPdf(1)) }],
      fields: [
        { name: 'Kind', type: 'radio', role: 'Buyer', options: ['Company', 'Person'], areas: area(0.1) },
        { name: 'VAT', type: 'text', role: 'Buyer', show_when: company, areas: area(0.2) },
        { name: 'Full name', type: 'text', role: 'Buyer', show_when: person, areas: area(0.3) },
        { name: 'Qty', type: 'number', role: 'Buyer', areas: area(0.4) },
        { name: 'Total', type: 'number', role: 'Buyer', formula: '{Qty} * 10', areas: area(0.5) },
        { name: 'Signature', type: 'signature', role: 'Buyer', areas: area(0.8) },
      ],
    });
    const batch = await caller.bulkSends.create({
      template_id: tpl.id,
      file: csv([
        'Name,Email,Kind,VAT,Full name,Qty,Total',
        'Acme,acme@example.com,Company,DE123456789,Ignored Person,2,999',
        'Jane,jane@example.com,Person,DE000,Jane Roe,3,999',
      ]),
      file_name: 'orders.csv',
      mapping: {
        signers: [
          {
            role: 'Buyer',
            name: 'Name',
            email: 'Email',
            prefill: { Kind: 'Kind', VAT: 'VAT', 'Full name': 'Full name', Qty: 'Qty', Total: 'Total' },
          },
        ],
      },
    });
    await processBulkSend(h.sc, batch.id);
    const rows = (await caller.bulkSends.rows({ id: batch.id })).data;
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
    const valuesOf = async (id: number) =>
      Object.fromEntries(
        ((await caller.signatureRequests.get({ id })).signers[0]!.values ?? []).map((v) => [
          v.field,
          v.value,
        ]),
      );
    expect(await valuesOf(rows[0]!.signature_request_id!)).toEqual({
      Kind: 'Company',
      VAT: 'DE123456789',
      Qty: 2,
    });
    expect(await valuesOf(rows[1]!.signature_request_id!)).toEqual({
      Kind: 'Person',
      'Full name': 'Jane Roe',
      Qty: 3,
    });
  });
});

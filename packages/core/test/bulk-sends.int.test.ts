import type { TestAccount } from '@esign/testing/accounts';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { processBulkSend } from '../src/services/bulk/process.ts';
import { MAX_BULK_ROWS } from '../src/services/bulk/spreadsheet-limits.ts';
import { grantCredits } from '../src/services/credits.ts';
import { toCoreError } from '../src/trpc.ts';
import { type CoreHarness, codeOf, startCore } from './caller.ts';

// Source `bulk` (docs/sending.md): one template to every row of a CSV or XLSX file, each row its
// own request, sent exactly once.

let h: CoreHarness;
let owner: TestAccount;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 5 });
});
afterAll(() => h?.close());

const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.3, h: 0.05 }];

async function oneRoleTemplate(account = owner) {
  const caller = await h.as(account.key);
  const tpl = await caller.templates.create({
    name: 'Waiver',
    documents: [{ file: b64(await plainPdf(1)) }],
    fields: [
      { name: 'Signature', type: 'signature', role: 'Guest', areas: area(0.8) },
      { name: 'Company', type: 'text', role: 'Guest', required: false, areas: area(0.2) },
      { name: 'Start', type: 'date', role: 'Guest', required: false, areas: area(0.3) },
    ],
  });
  return { tpl, caller };
}

const csv = (lines: string[]) => b64(Buffer.from(lines.join('\r\n')));
const people = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `Guest ${from + i},guest${from + i}@example.com,Acme ${from + i}`);
const mapping = {
  signers: [{ role: 'Guest', name: 'Name', email: 'Email', prefill: { Company: 'Company' } }],
};

async function requestsOf(templateId: number) {
  return h.db
    .selectFrom('signature_requests')
    .select(['id', 'source'])
    .where('template_id', '=', templateId)
    .execute();
}

describe('bulk send: each row its own request with source = bulk, created exactly once', () => {
  it('a 1,000-row CSV sends 1,000 requests exactly once, even when the upload is retried and the job runs twice', async () => {
    const { tpl, caller } = await oneRoleTemplate();
    const upload = {
      template_id: tpl.id,
      file: csv(['Name,Email,Company', ...people(1000)]),
      file_name: 'guests.csv',
      mapping,
      key: 'upload-1',
    };
    const first = await caller.bulkSends.create(upload);
    expect(first).toMatchObject({
      status: 'queued',
      total_rows: 1000,
      counts: { pending: 1000, invalid: 0 },
    });
    // The retried upload (same key) and the same file without a key name the same batch.
    expect((await caller.bulkSends.create(upload)).id).toBe(first.id);
    await Promise.all([processBulkSend(h.sc, first.id), processBulkSend(h.sc, first.id)]);
    expect((await caller.bulkSends.create(upload)).id).toBe(first.id);
    const done = await caller.bulkSends.get({ id: first.id });
    expect(done).toMatchObject({ status: 'completed', counts: { sent: 1000, pending: 0, failed: 0 } });
    const made = await requestsOf(tpl.id);
    expect(made).toHaveLength(1000);
    expect(new Set(made.map((r) => r.source))).toEqual(new Set(['bulk']));
    const rows = await caller.bulkSends.rows({ id: first.id });
    expect(new Set(rows.data.map((r) => r.signature_request_id)).size).toBe(1000);
    const one = await caller.signatureRequests.get({ id: rows.data[7]!.signature_request_id! });
    expect(one.signers[0]).toMatchObject({ name: 'Guest 7', email: 'guest7@example.com' });
    expect(one.signers[0]!.values).toContainEqual({ field: 'Company', value: 'Acme 7' });
  }, 600_000);

  it('a bad row is reported (preview and results) without blocking the rest', async () => {
    const { tpl, caller } = await oneRoleTemplate();
    const file = csv([
      'Name,Email,Company',
      'Ann,ann@example.com,A',
      'Bob,not-an-email,B',
      'Cy,,C',
      'Di,di@example.com,D',
    ]);
    const preview = await caller.bulkSends.preview({
      template_id: tpl.id,
      file,
      file_name: 'x.csv',
      mapping,
    });
    expect(preview).toMatchObject({ total_rows: 4, invalid_rows: 2, columns: ['Name', 'Email', 'Company'] });
    expect(preview.rows.map((r) => r.errors.length > 0)).toEqual([false, true, true, false]);
    expect(preview.rows[1]!.errors[0]).toMatch(/Email/);
    const batch = await caller.bulkSends.create({ template_id: tpl.id, file, file_name: 'x.csv', mapping });
    await processBulkSend(h.sc, batch.id);
    expect(await caller.bulkSends.get({ id: batch.id })).toMatchObject({
      status: 'completed',
      counts: { sent: 2, invalid: 2 },
    });
    const rows = await caller.bulkSends.rows({ id: batch.id });
    expect(rows.data.map((r) => [r.row_number, r.status])).toEqual([
      [2, 'sent'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'sent'],
    ]);
    expect(await requestsOf(tpl.id)).toHaveLength(2);
  });

  it('the mapping is guessed from column names when left out; an unknown column is 422 invalid_parameter', async () => {
    const { tpl, caller } = await oneRoleTemplate();
    const file = csv(['Name,Email,Company', ...people(3)]);
    const preview = await caller.bulkSends.preview({ template_id: tpl.id, file, file_name: 'x.csv' });
    expect(preview.mapping).toEqual(mapping);
    const bad = { signers: [{ role: 'Guest', email: 'E-mail' }] };
    expect(
      await codeOf(caller.bulkSends.preview({ template_id: tpl.id, file, file_name: 'x.csv', mapping: bad })),
    ).toBe('invalid_parameter');
  });

  it('XLSX files are read too (dates become YYYY-MM-DD)', async () => {
    const { tpl, caller } = await oneRoleTemplate();
    const data = [
      [{ value: 'Name' }, { value: 'Email' }, { value: 'Start' }],
      [
        { value: 'Xena' },
        { value: 'xena@example.com' },
        { value: new Date('2027-03-04T00:00:00Z'), type: Date, format: 'yyyy-mm-dd' },
      ],
    ];
    const bytes = (await writeXlsxFile(data as never).toBuffer()) as Buffer;
    const preview = await caller.bulkSends.preview({
      template_id: tpl.id,
      file: b64(bytes),
      file_name: 'people.xlsx',
      mapping: { signers: [{ role: 'Guest', name: 'Name', email: 'Email', prefill: { Start: 'Start' } }] },
    });
    expect(preview.rows[0]).toMatchObject({
      errors: [],
      signers: [{ email: 'xena@example.com', prefill: { Start: '2027-03-04' } }],
    });
  });

  it(`limits: at most ${MAX_BULK_ROWS} rows; a file that is not a spreadsheet is 422 invalid_request`, async () => {
    const { tpl, caller } = await oneRoleTemplate();
    const tooMany = csv(['Name,Email,Company', ...people(MAX_BULK_ROWS + 1)]);
    const err = await caller.bulkSends
      .preview({ template_id: tpl.id, file: tooMany, file_name: 'x.csv', mapping })
      .catch(toCoreError);
    expect(err).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/at most 5000/) });
    const exactly = csv(['Name,Email,Company', ...people(MAX_BULK_ROWS)]);
    expect(
      (await caller.bulkSends.preview({ template_id: tpl.id, file: exactly, file_name: 'x.csv', mapping }))
        .total_rows,
    ).toBe(MAX_BULK_ROWS);
    expect(
      await codeOf(
        caller.bulkSends.preview({
          template_id: tpl.id,
          file: b64(Buffer.from('PK\x03\x04junk')),
          file_name: 'x.xlsx',
          mapping,
        }),
      ),
    ).toBe('invalid_request');
  }, 120_000);
});

describe('credits: checked up front for the whole batch; the batch stops cleanly when they run out', () => {
  it('no credit up front: 402 insufficient_credits and no batch', async () => {
    const poor = await h.account({ credits: 0 });
    const { tpl, caller } = await oneRoleTemplate(poor);
    const err = await codeOf(
      caller.bulkSends.create({
        template_id: tpl.id,
        file: csv(['Name,Email,Company', ...people(3)]),
        file_name: 'x.csv',
        mapping,
      }),
    );
    expect(err).toBe('insufficient_credits');
    expect(
      await h.db.selectFrom('bulk_sends').select('id').where('template_id', '=', tpl.id).execute(),
    ).toHaveLength(0);
  });

  it('credits running out mid-batch: sent rows stay sent, the rest stay pending, resume sends them once', async () => {
    const account = await h.account({ credits: 1 });
    const { tpl, caller } = await oneRoleTemplate(account);
    const batch = await caller.bulkSends.create({
      template_id: tpl.id,
      file: csv(['Name,Email,Company', ...people(30)]),
      file_name: 'x.csv',
      mapping,
    });
    await processBulkSend(h.sc, batch.id, { maxRows: 10 });
    await grantCredits(h.db, account.accountId, { credits: -1, note: 'spent elsewhere', now: new Date() });
    await processBulkSend(h.sc, batch.id);
    const stopped = await caller.bulkSends.get({ id: batch.id });
    expect(stopped).toMatchObject({ status: 'stopped', counts: { sent: 10, pending: 20, failed: 0 } });
    expect(stopped.stop_reason).toMatch(/^insufficient_credits/);
    expect(await codeOf(caller.bulkSends.resume({ id: batch.id }))).toBe('insufficient_credits');
    await grantCredits(h.db, account.accountId, { credits: 1, note: 'bought', now: new Date() });
    expect((await caller.bulkSends.resume({ id: batch.id })).status).toBe('queued');
    await processBulkSend(h.sc, batch.id);
    expect(await caller.bulkSends.get({ id: batch.id })).toMatchObject({
      status: 'completed',
      counts: { sent: 30, pending: 0 },
    });
    expect(await requestsOf(tpl.id)).toHaveLength(30);
  }, 120_000);
});

import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { formIssues, type LogicField } from '@esign/domain';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTaggedPdf } from '../../../packages/pdf/test/ingest-fixtures.ts';
import {
  pdfText,
  requireTool,
  signaturePng,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 46 through the REST API and the signing procedures: fields shown and required by other
// answers (across roles), a price formula, an IBAN field; refusals at save and at submission.

let t: TestApp;
let owner: TestAccount;
let templateId: number;
let scratchId: number;
let fields: LogicField[];
const logger = createLogger('silent', 'test');
const area = (y: number, document = 0) => [{ page: 1, x: 0.1, y, w: 0.5, h: 0.05, document }];
const company = { all: [{ field: 'Customer kind', op: 'equals', value: 'Company' }] };
const person = { all: [{ field: 'Customer kind', op: 'equals', value: 'Person' }] };
const IBAN = 'DE89 3704 0044 0532 0130 00';

/** The branching form of the issue's "done when": Seller fills it, Buyer's field depends on Seller's answer. */
const FORM = [
  { name: 'Customer kind', type: 'radio', role: 'Seller', options: ['Company', 'Person'], areas: area(0.05) },
  { name: 'Company name', type: 'text', role: 'Seller', show_when: company, areas: area(0.12) },
  {
    name: 'VAT number',
    type: 'text',
    role: 'Seller',
    show_when: company,
    validation: {
      pattern: '[A-Z]{2}[0-9A-Z]{8,12}',
      message: { en: 'like DE123456789', de: 'wie DE123456789' },
    },
    areas: area(0.19),
  },
  { name: 'Full name', type: 'text', role: 'Seller', show_when: person, areas: area(0.26) },
  {
    name: 'Quantity',
    type: 'number',
    role: 'Seller',
    validation: { min: 1, max: 1000, step: 1 },
    areas: area(0.33),
  },
  { name: 'Unit price', type: 'number', role: 'Seller', validation: { min: 0 }, areas: area(0.4) },
  {
    name: 'Total',
    type: 'number',
    role: 'Seller',
    formula: 'round({Quantity} * {Unit price}, 2)',
    format: { decimals: 2, suffix: ' EUR' },
    areas: area(0.47),
  },
  { name: 'IBAN', type: 'text', role: 'Seller', validation: { preset: 'iban' }, areas: area(0.54) },
  { name: 'Seller signature', type: 'signature', role: 'Seller', areas: area(0.7) },
  {
    name: 'Buyer VAT check',
    type: 'checkbox',
    role: 'Buyer',
    required: false,
    required_when: company,
    show_when: company,
    areas: area(0.2, 1),
  },
  { name: 'Buyer signature', type: 'signature', role: 'Buyer', areas: area(0.5, 1) },
];

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Order form',
      documents: [{ file: b64(await plainPdf(1, 'Order')) }, { file: b64(await plainPdf(1, 'Mandate')) }],
      fields: FORM,
    },
  });
  expect(tpl.status, tpl.text).toBe(201);
  templateId = tpl.body.id;
  fields = tpl.body.fields;
  // The refusals at save are tried on a template of their own (a PATCH that passed would replace the form).
  const scratch = await t.api('POST', 'templates', {
    key: owner.key,
    body: { documents: [{ file: b64(await plainPdf(1)) }] },
  });
  scratchId = scratch.body.id;
});
afterAll(() => t?.close());

async function sent() {
  const res = await sendRequest(t, owner, {
    template_id: templateId,
    send_email: false,
    signing_order: 'sequential',
    signers: [
      { role: 'Seller', email: 'seller@example.com' },
      { role: 'Buyer', email: 'buyer@example.com' },
    ],
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as number, seller: tokenOf(res.body.signers[0].signing_url) };
}

const companyValues = {
  'Customer kind': 'Company',
  'Company name': 'ACME GmbH',
  'VAT number': 'DE123456789',
  Quantity: 3,
  'Unit price': 19.99,
  Total: 59.97,
  IBAN,
  'Seller signature': signaturePng(),
};

describe('issue 46: form logic in the Template (REST contract)', () => {
  it('issue 46.4: a template returns its fields’ conditions, formula, format and validation as given', async () => {
    const got = await t.api('GET', `templates/${templateId}`, { key: owner.key });
    const byName = Object.fromEntries(got.body.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName['VAT number']).toMatchObject({ show_when: company, validation: FORM[2]!.validation });
    expect(byName.Total).toMatchObject({
      formula: 'round({Quantity} * {Unit price}, 2)',
      format: { decimals: 2 },
    });
    expect(byName['Buyer VAT check']).toMatchObject({ required_when: company });
    expect(byName.Quantity).not.toHaveProperty('formula');
  });

  it('issue 46.1: a reference cycle across roles is refused at save with 422 invalid_field naming the fields', async () => {
    const res = await t.api('PATCH', `templates/${scratchId}`, {
      key: owner.key,
      body: {
        fields: [
          { name: 'A', type: 'number', role: 'Seller', formula: '{B} + 1', areas: area(0.1) },
          {
            name: 'B',
            type: 'text',
            role: 'Buyer',
            show_when: { any: [{ field: 'A', op: 'gt', value: 2 }] },
            areas: area(0.2),
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('invalid_field');
    expect(res.body.error.message).toMatch(/"A".*"B"/);
  });

  it('issue 46 attacks: a formula nested 10,000 levels, a backtracking pattern, unknown references: 422 at save', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ formula: '('.repeat(10_000) + '1' + ')'.repeat(10_000) }, /formula/],
      [{ formula: `${'('.repeat(500)}1${')'.repeat(500)}` }, /nested more than 32 levels/],
      [{ type: 'text', validation: { pattern: '(a+)+$' } }, /exponential time/],
      [{ type: 'text', validation: { pattern: '([a-z]|[a-z0-9])*x' } }, /.+/],
      [{ show_when: { all: [{ field: 'Nobody', op: 'is_empty' }] } }, /"Nobody", which is not a field/],
      [{ type: 'text', formula: '1 + 1' }, /only allowed on number fields/],
    ];
    for (const [extra, message] of cases) {
      const t0 = Date.now();
      const res = await t.api('PATCH', `templates/${scratchId}`, {
        key: owner.key,
        body: { fields: [{ name: 'Evil', type: 'number', role: 'Seller', areas: area(0.1), ...extra }] },
      });
      expect(res.status, JSON.stringify(extra).slice(0, 80)).toBe(422);
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.message).toMatch(/fields|formula/);
      expect(Date.now() - t0).toBeLessThan(2_000);
    }
  });
});

describe('issue 46.4: text tags carry form logic', () => {
  it('a tagged PDF gives fields with conditions and a formula; a cycle written in tags is refused at save', async () => {
    const pdf = await makeTaggedPdf([
      [
        { runs: ['Kind: {{Kind;type=radio;options=Company,Person}}'], y: 700 },
        { runs: ['VAT: {{VAT;show_if=Kind:equals:Company;min_length=8}}'], y: 650 },
        { runs: ['Qty: {{Qty;type=number;min=1}}'], y: 600 },
        { runs: ['Total: {{Total;type=number;formula=[Qty]*2;decimals=0;suffix=EUR}}'], y: 550 },
      ],
    ]);
    const res = await t.api('POST', 'templates', {
      key: owner.key,
      body: { documents: [{ file: b64(pdf) }] },
    });
    expect(res.status, res.text).toBe(201);
    const byName = Object.fromEntries(res.body.fields.map((f: { name: string }) => [f.name, f]));
    expect(byName.VAT).toMatchObject({
      show_when: { all: [{ field: 'Kind', op: 'equals', value: 'Company' }] },
      validation: { min_length: 8 },
    });
    expect(byName.Total).toMatchObject({ formula: '{Qty}*2', format: { decimals: 0, suffix: ' EUR' } });
    const cycle = await makeTaggedPdf([
      [
        { runs: ['{{A;type=number;formula=[B]+1}}'], y: 700 },
        { runs: ['{{B;type=number;formula=[A]+1}}'], y: 650 },
      ],
    ]);
    const refused = await t.api('POST', 'templates', {
      key: owner.key,
      body: { documents: [{ file: b64(cycle) }] },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'invalid_field',
      message: expect.stringMatching(/reference cycle: "A", "B"/),
    });
  });
});

describe('issue 46: submissions refused with 422 naming the field (server recomputes)', () => {
  const refusal = async (values: Record<string, unknown>) => {
    const r = await sent();
    const done = await trpc(t, 'complete', { token: r.seller, values });
    return done;
  };
  it('skipping a required conditional field', async () => {
    const { 'VAT number': _skip, ...rest } = companyValues;
    const done = await refusal(rest);
    expect(done.status).toBe(422);
    expect(done.error).toMatchObject({ code: 'invalid_request' });
    expect(done.error!.message).toMatch(/"VAT number": this field is required/);
  });
  it('filling a hidden field', async () => {
    const done = await refusal({ ...companyValues, 'Full name': 'Jane Roe' });
    expect(done.status).toBe(422);
    expect(done.error!.message).toMatch(/"Full name": this field is hidden by the answer to Customer kind/);
  });
  it('carrying a wrong total', async () => {
    const done = await refusal({ ...companyValues, Total: 60 });
    expect(done.status).toBe(422);
    expect(done.error!.message).toMatch(/"Total": the value does not match its formula \(expected 59.97\)/);
  });
  it('an IBAN whose check digits are wrong, a pattern mismatch, a number out of range or step', async () => {
    for (const [bad, message] of [
      [{ IBAN: 'DE88 3704 0044 0532 0130 00' }, /"IBAN": enter a valid IBAN/],
      [{ 'VAT number': 'vat 1' }, /"VAT number": like DE123456789/],
      [{ Quantity: 1.5, Total: 29.99 }, /"Quantity": in steps of 1/],
      [{ 'Unit price': -1, Total: -3 }, /"Unit price": at least 0/],
    ] as const) {
      const done = await refusal({ ...companyValues, ...bad });
      expect(done.status, JSON.stringify(bad)).toBe(422);
      expect(done.error!.message).toMatch(message);
    }
  });
});

/** The sealed documents' text and the audit trail's, read back with pdftotext. */
async function sealedText(id: number): Promise<{ documents: string; trail: string }> {
  await drainJobs(
    { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
    jobHandlers,
  );
  const done = await t.api('GET', `signature_requests/${id}`, { key: owner.key });
  expect(done.body.status, done.text).toBe('completed');
  const dir = tempDir('form-logic');
  const read = async (url: string, name: string) =>
    pdfText(writeTemp(dir, `${name}-${id}.pdf`, new Uint8Array(await (await fetch(url)).arrayBuffer())));
  const docs = await Promise.all(
    done.body.documents.map((d: { url: string }, i: number) => read(d.url, `doc${i}`)),
  );
  return { documents: docs.join('\n'), trail: await read(done.body.audit_trail_url, 'trail') };
}

const signing = () =>
  createCaller(createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link' }))
    .signing;

describe('issue 46: both paths signed; the sealed PDFs draw only each path’s fields', () => {
  it('company path: the Buyer must confirm VAT (a later role’s field required by an earlier answer); total drawn as computed', async () => {
    requireTool('pdftotext');
    const r = await sent();
    // The computed total may be left out: the server computes it.
    const { Total: _total, ...values } = companyValues;
    expect((await trpc(t, 'complete', { token: r.seller, values })).status).toBe(200);
    const req = await t.api('GET', `signature_requests/${r.id}`, { key: owner.key });
    const buyer = tokenOf(req.body.signers[1].signing_url);
    const missing = await trpc(t, 'complete', {
      token: buyer,
      values: { 'Buyer signature': signaturePng() },
    });
    expect(missing.error?.message).toMatch(/"Buyer VAT check": this field is required/);
    await signing().complete({
      token: buyer,
      values: { 'Buyer signature': signaturePng(), 'Buyer VAT check': true },
    });
    const { documents: text } = await sealedText(r.id);
    expect(text).toContain('ACME GmbH');
    expect(text).toContain('DE123456789');
    expect(text).toMatch(/59\.97 EUR/);
    expect(text).not.toContain('Jane');
    const seller = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body.signers[0];
    expect(seller.values).toContainEqual({ field: 'Total', value: 59.97 });
    // Issue 46.5: the audit entry keeps the rules in force, the hidden fields and why, the computed
    // and submitted values.
    const signed = await t.db
      .selectFrom('audit_events')
      .select('data')
      .where('signature_request_id', '=', r.id)
      .where('type', '=', 'signer.signed')
      .where('signer_id', '=', seller.id)
      .executeTakeFirstOrThrow();
    expect(signed.data.form).toMatchObject({
      rules: {
        'VAT number': { show_when: company },
        Total: { formula: 'round({Quantity} * {Unit price}, 2)' },
      },
      hidden: { 'Full name': ['Customer kind'] },
      computed: { Total: 59.97 },
      submitted: { 'Customer kind': 'Company', 'VAT number': 'DE123456789', IBAN },
    });
    expect(JSON.stringify(signed.data.form)).not.toContain('data:image');
  });

  it('person path: company fields are neither stored nor drawn, and the audit trail says which answer hid them', async () => {
    requireTool('pdftotext');
    const r = await sent();
    // The signer typed a company name, then chose Person: the saved name is dropped at completion.
    await signing().saveValues({
      token: r.seller,
      values: { 'Customer kind': 'Company', 'Company name': 'Old Ltd' },
    });
    const values = {
      'Customer kind': 'Person',
      'Company name': null,
      'Full name': 'Jane Roe',
      Quantity: 2,
      'Unit price': 12.5,
      Total: 25,
      IBAN,
      'Seller signature': signaturePng(),
    };
    expect((await trpc(t, 'complete', { token: r.seller, values })).status).toBe(200);
    const req = await t.api('GET', `signature_requests/${r.id}`, { key: owner.key });
    await signing().complete({
      token: tokenOf(req.body.signers[1].signing_url),
      values: { 'Buyer signature': signaturePng() },
    });
    const { documents: text, trail } = await sealedText(r.id);
    expect(text).toContain('Jane Roe');
    expect(text).toMatch(/25 EUR/);
    expect(text).not.toContain('Old Ltd');
    expect(text).not.toContain('ACME');
    expect(trail).toMatch(/hidden by the answer to Customer/);
    expect(trail).not.toContain('Old Ltd');
  });
});

describe('issue 46: the page’s evaluation and the server’s agree (fast-check)', () => {
  it('for random answers, the server refuses exactly when the page’s formIssues finds a problem, naming the same field', async () => {
    const value = fc.record({
      kind: fc.constantFrom('Company', 'Person'),
      company: fc.option(fc.constantFrom('ACME', ''), { nil: undefined }),
      vat: fc.option(fc.constantFrom('DE123456789', 'x'), { nil: undefined }),
      full: fc.option(fc.constantFrom('Jane', ''), { nil: undefined }),
      qty: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
      price: fc.option(fc.constantFrom(0, 1.25, 10, -2), { nil: undefined }),
      total: fc.option(fc.constantFrom(0, 2.5, 10, 99), { nil: undefined }),
      iban: fc.option(fc.constantFrom(IBAN, 'DE00 1234'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        const values: Record<string, unknown> = {
          'Customer kind': v.kind,
          'Seller signature': signaturePng(),
        };
        const put = (k: string, x: unknown) => {
          if (x !== undefined) values[k] = x;
        };
        put('Company name', v.company);
        put('VAT number', v.vat);
        put('Full name', v.full);
        put('Quantity', v.qty);
        put('Unit price', v.price);
        put('Total', v.total);
        put('IBAN', v.iban);
        const page = formIssues(fields, values as never, { role: 'Seller' }).issues;
        const r = await sent();
        const done = await trpc(t, 'complete', { token: r.seller, values });
        if (page.length === 0)
          expect(done.status, `${JSON.stringify(values).slice(0, 300)} ${done.error?.message}`).toBe(200);
        else {
          expect(done.status, JSON.stringify(page)).toBe(422);
          expect(done.error!.message).toContain(`"${page[0]!.field}"`);
        }
      }),
      { numRuns: 30 },
    );
  });
});

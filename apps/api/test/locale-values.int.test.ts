import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pdfText,
  requireTool,
  signaturePng,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 42 item 6: "Dates and numbers in values follow the signer's locale on the page, in review
// and in the sealed PDF (`1.234,5` accepted from a German signer), stored canonically." Driven
// through the signing procedures as the signing page calls them; the sealed document's drawn
// text is read back with pdftotext.

let t: TestApp;
let owner: TestAccount;
let templateId: number;
let dir: string;
const logger = createLogger('silent', 'test');
const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.5, h: 0.06, document: 0 });

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  dir = tempDir('locale-values');
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Invoice',
      documents: [{ name: 'Invoice', file: b64(await plainPdf(1, 'Invoice')) }],
      fields: [
        { name: 'Amount', type: 'number', role: 'Client', areas: [area(0.2)] },
        { name: 'Due', type: 'date', role: 'Client', areas: [area(0.3)] },
        { name: 'Signature', type: 'signature', role: 'Client', areas: [area(0.5)] },
      ],
    },
  });
  expect(tpl.status, tpl.text).toBe(201);
  templateId = tpl.body.id;
});
afterAll(() => t.close());

const signing = () =>
  createCaller(createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link' }))
    .signing;
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function send(locale: string, extra: Record<string, unknown> = {}) {
  const sent = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: templateId,
      signers: [{ role: 'Client', name: 'Greta Maier', email: 'greta@example.com', locale, ...extra }],
    },
  });
  return sent;
}

async function sentTo(locale: string) {
  const sent = await send(locale);
  expect(sent.status, sent.text).toBe(201);
  return { id: sent.body.id as number, token: tokenOf(sent.body.signers[0].signing_url) };
}

const valuesOf = async (id: number) => {
  const got = await t.api('GET', `signature_requests/${id}`, { key: owner.key });
  return Object.fromEntries(
    (got.body.signers[0].values as { field: string; value: unknown }[]).map((v) => [v.field, v.value]),
  );
};

describe('issue 42.6: numbers and dates as the signer writes them, stored canonically', () => {
  it('issue 42.6: a German signer’s 1.234,5 and 31.12.2026 are stored as 1234.5 and 2026-12-31 (the API’s form)', async () => {
    const r = await sentTo('de');
    await signing().open({ token: r.token });
    const saved = await signing().saveValues({
      token: r.token,
      values: { Amount: '1.234,5', Due: '31.12.2026' },
    });
    expect(saved.values).toMatchObject({ Amount: 1234.5, Due: '2026-12-31' });
    expect(await valuesOf(r.id)).toMatchObject({ Amount: 1234.5, Due: '2026-12-31' });
  });

  it('issue 42.6: an English signer’s 1,234.5 and 12/31/2026 are the same values; the page’s canonical ones too', async () => {
    const r = await sentTo('en');
    await signing().saveValues({ token: r.token, values: { Amount: '1,234.5', Due: '12/31/2026' } });
    expect(await valuesOf(r.id)).toMatchObject({ Amount: 1234.5, Due: '2026-12-31' });
    await signing().saveValues({ token: r.token, values: { Amount: 7.25, Due: '2027-01-02' } });
    expect(await valuesOf(r.id)).toMatchObject({ Amount: 7.25, Due: '2027-01-02' });
  });

  it('issue 42.6: ambiguous or invalid input is refused with invalid_request and an example in the signer’s format', async () => {
    const r = await sentTo('de');
    for (const [values, example] of [
      [{ Amount: '1.5' }, /1\.234,5/],
      [{ Amount: '1234.5' }, /1\.234,5/],
      [{ Amount: '12 Euro' }, /1\.234,5/],
      [{ Due: '12/31/2026' }, /31\.12\.2026/],
      [{ Due: '31.12.26' }, /31\.12\.2026/],
    ] as const) {
      const err = await signing()
        .saveValues({ token: r.token, values })
        .then(
          () => null,
          (e: unknown) => e as { code?: string; message: string; cause?: { code?: string } },
        );
      expect(err, JSON.stringify(values)).not.toBeNull();
      expect(err!.cause?.code ?? err!.code, JSON.stringify(values)).toBe('invalid_request');
      expect(err!.message, JSON.stringify(values)).toMatch(example);
    }
    expect(await valuesOf(r.id)).toEqual({});
  });

  it('issue 42.6: the API keeps one canonical form: prefill 1.234,5 is refused with 422, 1234.5 taken', async () => {
    const bad = await send('de', { prefill: { Amount: '1.234,5' } });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.error.code).toBe('invalid_request');
    const good = await send('de', { prefill: { Amount: 1234.5, Due: '2026-12-31' } });
    expect(good.status, good.text).toBe(201);
  });

  it('issue 42.6: the sealed PDF draws a German signer’s number and date in German (1.234,5 and 31.12.2026)', async () => {
    requireTool('pdftotext');
    const r = await sentTo('de');
    await signing().open({ token: r.token });
    await signing().complete({
      token: r.token,
      values: { Amount: '1.234,5', Due: '31.12.2026', Signature: signaturePng() },
    });
    await drainJobs(
      { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
    );
    const done = await t.api('GET', `signature_requests/${r.id}`, { key: owner.key });
    expect(done.body.status, done.text).toBe('completed');
    const url = done.body.documents[0].url as string;
    const pdf = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const text = pdfText(writeTemp(dir, `invoice-${r.id}.pdf`, pdf));
    expect(text).toContain('1.234,5');
    expect(text).toContain('31.12.2026');
    expect(text).not.toContain('1234.5');
    expect(text).not.toContain('2026-12-31');
    expect(await valuesOf(r.id)).toMatchObject({ Amount: 1234.5, Due: '2026-12-31' });
  });
});

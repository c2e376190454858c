import { renderTemplatePagesJob } from '@esign/core/testing';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { until } from '@esign/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDocumentPool, documentPoolStats } from '../../../packages/pdf/src/index.ts';
import { makeBombPdf, makeGibBombPdf, zerosDeflate } from '../../../packages/pdf/test/bombs.ts';
import { makeSlowPdf } from '../../../packages/pdf/test/ingest-fixtures.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 29, item 4: a 1 MB PDF whose page stream inflated to 1 GiB got 201; rendering it then
// failed on the memory limit, and every GET of its preview re-ran the 7–14 s render and answered
// 500. Now what a document may inflate to is bounded at ingest (422 invalid_document), a page that
// cannot be rendered is remembered in the database and answered at once, and page renders are the
// account's work in the document pool.

const MiB = 1024 * 1024;
let t: TestApp;
let a: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  a = await createTestAccount(t.db);
  configureDocumentPool({ size: 2 });
});
afterAll(async () => {
  await t.close();
  configureDocumentPool();
});

const createTemplate = (key: string, pdf: Uint8Array, name = 'contract') =>
  t.api('POST', 'templates', {
    key,
    body: { name, documents: [{ file: b64(pdf) }], fields: [signatureField()] },
  });

describe('issue 29 item 4: decompression bombs are refused at ingest', () => {
  it('a ~1 MB PDF whose page stream inflates to 1 GiB: POST /templates (JSON and multipart) answers 422 invalid_document and stores nothing', {
    timeout: 60_000,
  }, async () => {
    const bomb = makeGibBombPdf();
    expect(bomb.length).toBeLessThan(1.1 * MiB);
    const json = await createTemplate(a.key, bomb);
    expect(json.status, json.text).toBe(422);
    expect(json.body.error).toMatchObject({
      code: 'invalid_document',
      message: expect.stringMatching(/decompresses to more than 128 MB \(the limit for one stream\)/),
    });
    const form = new FormData();
    form.append('name', 'bomb');
    form.append('documents[]', new Blob([Buffer.from(bomb)], { type: 'application/pdf' }), 'bomb.pdf');
    const multipart = await fetch(`${t.baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}` },
      body: form,
    });
    expect(multipart.status).toBe(422);
    expect(((await multipart.json()) as { error: { code: string } }).error.code).toBe('invalid_document');
    const stored = await t.db
      .selectFrom('templates')
      .select('id')
      .where('account_id', '=', a.accountId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('many streams each under the per-stream limit but over the per-document limit together (DOCUMENT_INFLATED_MB) is 422 invalid_document; under it, 201', {
    timeout: 60_000,
  }, async () => {
    configureDocumentPool({ size: 2, streamInflatedMb: 8, inflatedMb: 16 });
    try {
      const many = makeBombPdf(Array.from({ length: 5 }, () => ({ data: zerosDeflate(4 * MiB) })));
      const refused = await createTemplate(a.key, many);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'invalid_document',
        message: expect.stringMatching(/more than 16 MB \(the limit for one document\)/),
      });
      const fewer = makeBombPdf(Array.from({ length: 3 }, () => ({ data: zerosDeflate(4 * MiB) })));
      expect((await createTemplate(a.key, fewer)).status).toBe(201);
    } finally {
      configureDocumentPool({ size: 2 });
    }
  });
});

describe('issue 29 item 4: a page that cannot be rendered is remembered', () => {
  it('the preview of a page over the time limit answers 422 invalid_document; later GETs answer at once from the database (no render, never a 5xx), and the prerender job skips it without failing', {
    timeout: 120_000,
  }, async () => {
    // One page of 1 MB of text operators: quick to ingest, ~10 s for pdf.js to draw.
    const created = await createTemplate(a.key, makeSlowPdf(1, 1_000_000), 'slow page');
    expect(created.status, created.text).toBe(201);
    const url: string = created.body.documents[0].preview_image_url;
    configureDocumentPool({ size: 2, timeoutMs: 3_000 });
    try {
      const first = await fetch(url);
      expect(first.status).toBe(422);
      expect(await first.json()).toMatchObject({
        error: {
          code: 'invalid_document',
          message: expect.stringMatching(/Page 1 .*cannot be displayed.*too long/),
        },
      });
      const [doc] = await t.db
        .selectFrom('template_documents')
        .select('storage_key')
        .where('template_id', '=', created.body.id)
        .execute();
      const remembered = await t.db
        .selectFrom('page_render_failures')
        .selectAll()
        .where('storage_key', '=', doc!.storage_key)
        .execute();
      expect(remembered).toMatchObject([{ page: 1, reason: expect.stringMatching(/too long/) }]);

      const times: number[] = [];
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        const again = await fetch(url);
        times.push(performance.now() - started);
        expect(again.status).toBe(422);
        expect(((await again.json()) as { error: { code: string } }).error.code).toBe('invalid_document');
        expect(documentPoolStats().running).toBe(0);
      }
      // A render would take the 3 s time limit each time.
      expect(Math.max(...times)).toBeLessThan(1_500);

      const started = performance.now();
      await renderTemplatePagesJob(
        { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
        { templateId: created.body.id },
        {} as never,
      );
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      configureDocumentPool({ size: 2 });
    }
  });
});

describe('issue 29 item 4: page renders count against the account’s share of the document pool', () => {
  it("account A's many preview GETs of slow pages hold at most its share (half the pool); account B's template is ingested meanwhile, its 201 before any of A's renders ends", {
    timeout: 180_000,
  }, async () => {
    const owner = await createTestAccount(t.db);
    const other = await createTestAccount(t.db);
    const urls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await createTemplate(owner.key, makeSlowPdf(1, 1_000_000), `slow ${i}`);
      expect(created.status).toBe(201);
      urls.push(created.body.documents[0].preview_image_url);
    }
    configureDocumentPool({ size: 2, timeoutMs: 4_000 });
    try {
      const finished: string[] = [];
      let mostOfA = 0;
      const watch = setInterval(() => {
        mostOfA = Math.max(mostOfA, documentPoolStats().runningByKey[owner.accountId] ?? 0);
      }, 20);
      // Eight GETs, as in the report: the same three previews asked for again and again.
      const gets = Array.from({ length: 8 }, (_, i) =>
        fetch(urls[i % 3]!).then(async (res) => {
          finished.push('A');
          return { status: res.status, body: (await res.json()) as { error: { code: string } } };
        }),
      );
      await until("A's renders in the pool", () => documentPoolStats().queued === 2, 10_000);
      expect(documentPoolStats()).toMatchObject({ running: 1, runningByKey: { [owner.accountId]: 1 } });
      const fromB = await createTemplate(other.key, await plainPdf(2), 'B');
      finished.push('B');
      expect(fromB.status).toBe(201);
      expect(finished[0]).toBe('B');
      const answers = await Promise.all(gets);
      clearInterval(watch);
      expect(mostOfA).toBe(1);
      for (const answer of answers) {
        expect(answer.status).toBe(422);
        expect(answer.body.error.code).toBe('invalid_document');
      }
    } finally {
      configureDocumentPool({ size: 2 });
    }
  });
});

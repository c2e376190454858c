import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { until } from '@esign/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDocumentPool, documentPoolStats } from '../../../packages/pdf/src/index.ts';
import { makeSlowPdf } from '../../../packages/pdf/test/ingest-fixtures.ts';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

// Issue 9, item 6, through the API: four hostile uploads from one account made another account's
// normal upload wait 66 s. The document pool gives one account at most half of its workers.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // Two workers, whatever this machine has; each document stopped after 8 s.
  configureDocumentPool({ size: 2, timeoutMs: 8_000 });
});
afterAll(async () => {
  await t.close();
  configureDocumentPool();
});

describe('POST /templates shares the document pool fairly between accounts (issue 9.6)', () => {
  it("account A's four hostile PDFs (each stopped at the time limit, 422 invalid_document) do not delay account B's template: B gets its 201 before any of A's answers", {
    timeout: 180_000,
  }, async () => {
    const a = await createTestAccount(t.db);
    const b = await createTestAccount(t.db);
    const hostile = b64(makeSlowPdf()); // ~30 s of work each
    const finished: string[] = [];
    const post = (key: string, file: string, label: string) =>
      t
        .api('POST', 'templates', {
          key,
          body: { name: label, documents: [{ file }], fields: [signatureField()] },
        })
        .then((res) => {
          finished.push(label);
          return res;
        });
    const fromA = Array.from({ length: 4 }, (_, i) => post(a.key, hostile, `A${i + 1}`));
    await until("A's four documents in the pool", () => documentPoolStats().queued === 3, 10_000);
    // A holds one worker; the other three wait for A's turn, not B's.
    expect(documentPoolStats()).toMatchObject({ running: 1, queued: 3, runningByKey: { [a.accountId]: 1 } });
    const fromB = await post(b.key, b64(await plainPdf(2)), 'B');
    expect(fromB.status).toBe(201);
    expect(finished).toEqual(['B']);
    for (const res of await Promise.all(fromA)) {
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_document');
      expect(res.body.error.message).toMatch(/took too long/);
    }
    expect(documentPoolStats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('over the waiting line of one account (the pool maxQueuedPerKey), an upload is refused at once with 429 rate_limited and Retry-After; the others are processed', {
    timeout: 60_000,
  }, async () => {
    configureDocumentPool({ size: 2, timeoutMs: 2_000, maxQueuedPerKey: 1 });
    const a = await createTestAccount(t.db);
    const hostile = b64(makeSlowPdf());
    const post = () =>
      t.api('POST', 'templates', {
        key: a.key,
        body: { name: 'slow', documents: [{ file: hostile }], fields: [signatureField()] },
      });
    const first = [post(), post()]; // one runs, one waits
    await until('one running, one waiting', () => documentPoolStats().queued === 1, 10_000);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('10');
    for (const res of await Promise.all(first)) expect(res.body.error.code).toBe('invalid_document');
  });

  it('a page image asked for while every worker is busy and the waiting line is full is 429 rate_limited with Retry-After (spec: Errors, rate_limited), and renders once the pool frees', {
    timeout: 60_000,
  }, async () => {
    configureDocumentPool({ size: 2 }); // the default time limit, whatever the tests before set
    const a = await createTestAccount(t.db);
    const b = await createTestAccount(t.db);
    const created = await t.api('POST', 'templates', {
      key: b.key,
      body: { name: 'viewer', documents: [{ file: b64(await plainPdf(1)) }], fields: [signatureField()] },
    });
    expect(created.status).toBe(201);
    const imageUrl: string = created.body.documents[0].preview_image_url;
    // One worker, no waiting line: A's slow document fills the pool.
    configureDocumentPool({ size: 1, perKey: 1, timeoutMs: 3_000, maxQueued: 0 });
    const slow = t.api('POST', 'templates', {
      key: a.key,
      body: { name: 'slow', documents: [{ file: b64(makeSlowPdf()) }], fields: [signatureField()] },
    });
    await until("A's document running", () => documentPoolStats().running === 1, 10_000);
    const busy = await fetch(imageUrl);
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('10');
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect((await slow).body.error.code).toBe('invalid_document');
    configureDocumentPool({ size: 1, perKey: 1, maxQueued: 0 }); // the default time limit again
    const later = await fetch(imageUrl);
    expect(later.status, await later.clone().text()).toBe(200);
    expect(later.headers.get('content-type')).toBe('image/png');
  });
});

/** A sealed 2,000-page file with 48 later revisions: @libpdf/core takes seconds to check it. */
async function slowToVerifyPdf(): Promise<Uint8Array> {
  const { loadSigningIdentity, sealDocument } = await import('../../../packages/pdf/src/seal/index.ts');
  const { forge } = await import('../../../packages/pdf/test/forgery.ts');
  const { sourcePdf, tempDir } = await import('../../../packages/pdf/test/seal-helpers.ts');
  const identity = await loadSigningIdentity({ dataDir: tempDir('verify-api') });
  const pdf = await sourcePdf(2000);
  let file = await sealDocument({ pdf, values: [], identity, name: 'c', signedAt: new Date() });
  // 48 revisions to check: about 2.5 s on this machine (12 took 0.6 s once sealing got faster), well
  // past the 1 s time limit the test sets.
  for (let i = 0; i < 48; i++) file = await forge(file, undefined, i % 3);
  return file;
}

describe('POST /documents/verify checks the file in the document pool (issue 18)', () => {
  it("a file that takes seconds to check runs as the account's pool work: other calls are answered meanwhile, the time limit stops it with 422 invalid_document, and the next verify is answered", {
    timeout: 120_000,
  }, async () => {
    const heavy = b64(await slowToVerifyPdf());
    configureDocumentPool({ size: 2, timeoutMs: 1_000 });
    const a = await createTestAccount(t.db);
    const pending = t.api('POST', 'documents/verify', { key: a.key, body: { file: heavy } });
    await until(
      "the check in A's share of the pool",
      () => documentPoolStats().runningByKey[a.accountId] === 1,
      30_000,
    );
    const started = performance.now();
    const me = await t.api('GET', 'me', { key: a.key });
    const meMs = performance.now() - started;
    expect(me.status).toBe(200);
    const res = await pending;
    // Checked on this process's event loop, the call could be neither stopped nor kept waiting.
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'invalid_document',
      message: expect.stringMatching(/took too long/),
    });
    console.log(`GET /me during a heavy verify: ${Math.round(meMs)} ms`);
    configureDocumentPool({ size: 2 });
    const next = await t.api('POST', 'documents/verify', {
      key: a.key,
      body: { file: b64(await plainPdf(1)) },
    });
    expect(next.status).toBe(200);
    expect(next.body.verdict).toBe('unsigned');
  });
});

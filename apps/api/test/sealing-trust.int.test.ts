import { execFileSync } from 'node:child_process';
import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import {
  drainJobs,
  type FileStore,
  type JobContext,
  type ProducedFile,
  SEAL_JOB,
  SIGNING_CONSENT_TEXT,
  sha256Hex,
} from '@esign/core/testing';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { PNG_DOT } from '@esign/testing/signing';
import { startTrustServices, type TrustServices } from '@esign/testing/trust-services';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  configureDocumentPool,
  documentPoolStats,
  loadSigningIdentity,
} from '../../../packages/pdf/src/index.ts';
import { forge } from '../../../packages/pdf/test/forgery.ts';
import { tempDir, writeTemp } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 15: sealing with TSA_URL against real trust services on loopback (an RFC 3161 TSA, an
// OCSP responder and a CRL of a test CA), and POST /documents/verify on what it produced and on a
// forgery built from it.

let services: TrustServices;
let t: TestApp;
let owner: TestAccount;
let jctx: JobContext;
let shiftMs = 0;
const logger = createLogger('silent', 'test');
let upload: Uint8Array;

beforeAll(async () => {
  services = await startTrustServices();
  t = await startTestApp(
    {
      TSA_URL: services.tsaUrl,
      SIGNING_CERT_P12: Buffer.from(services.leafP12).toString('base64'),
      SIGNING_CERT_PASSWORD: services.leafP12Password,
    },
    { outbound: { allowPrivate: true } },
  );
  owner = await createTestAccount(t.db, { credits: 10 });
  jctx = { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date(Date.now() + shiftMs) };
  upload = await plainPdf(2, 'Fee page');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await services?.close();
});

const requestRow = (id: number) =>
  t.db.selectFrom('signature_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const filesOf = async (id: number) => ((await requestRow(id)).documents as { files: ProducedFile[] }).files;
const verify = (bytes: Uint8Array) =>
  t.api('POST', 'documents/verify', { key: owner.key, body: { file: b64(bytes) } });

/** One signer signs a one-document request through the signing procedures. */
async function completedRequest(): Promise<number> {
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Fee agreement',
      documents: [{ name: 'Fees', file: b64(upload) }],
      fields: [
        { name: 'Fee', type: 'text', role: 'Client', areas: [{ page: 1, x: 0.1, y: 0.2, w: 0.4, h: 0.05 }] },
        {
          name: 'Signature',
          type: 'signature',
          role: 'Client',
          areas: [{ page: 2, x: 0.1, y: 0.8, w: 0.3, h: 0.08 }],
        },
      ],
    },
  });
  expect(tpl.status).toBe(201);
  const sent = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: tpl.body.id,
      signers: [{ role: 'Client', name: 'Jane', email: 'jane@example.com' }],
    },
  });
  expect(sent.status).toBe(201);
  const token = new URL(sent.body.signers[0].signing_url).pathname.split('/').pop()!;
  const ctx = createContext({
    db: t.db,
    logger,
    config: t.config,
    deps: t.rt.deps,
    source: 'link',
    ip: '203.0.113.5',
  });
  const caller = createCaller(ctx);
  await caller.signing.open({ token });
  // How the signature was made, as the signing page sends it; a method for a text field is dropped.
  await caller.signing.complete({
    token,
    values: { Fee: 'EUR 4,000', Signature: PNG_DOT },
    signature_methods: { Signature: 'typed', Fee: 'drawn' },
  });
  const signed = await t.db
    .selectFrom('audit_events')
    .select('data')
    .where('signature_request_id', '=', sent.body.id)
    .where('type', '=', 'signer.signed')
    .executeTakeFirstOrThrow();
  expect(signed.data).toEqual({
    consent: SIGNING_CONSENT_TEXT,
    locale: 'en',
    signature_methods: { Signature: 'typed' },
  });
  return sent.body.id;
}

describe('request.seal with TSA_URL (PAdES B-LTA against loopback trust services)', () => {
  let id: number;
  let files: ProducedFile[];

  it('a TSA that does not answer fails the attempt (sealing retried, nothing stored, no file without trusted time)', async () => {
    id = await completedRequest();
    services.fail['/tsa'] = 503;
    try {
      await drainJobs(jctx, jobHandlers);
    } finally {
      delete services.fail['/tsa'];
    }
    const row = await requestRow(id);
    expect(row.sealing_status).toBe('pending');
    expect(row.sealing_error).toMatch(/^attempt 1 of \d+: .*time-stamping authority.*HTTP 503/);
    expect(row.documents).toBeNull();
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', SEAL_JOB)
      .where(sql<boolean>`payload @> ${JSON.stringify({ requestId: id })}::jsonb`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });

    shiftMs = 120_000;
    await drainJobs(jctx, jobHandlers);
    shiftMs = 0;
    expect((await requestRow(id)).sealing_status).toBe('done');
    files = await filesOf(id);
    expect(files.map((f) => f.kind)).toEqual(['document', 'audit_trail', 'combined']);
  }, 180_000);

  it('every produced file verifies authentic at level B-LTA with a trusted time; pdfsig reports the seal valid', async () => {
    for (const f of files) {
      const bytes = await t.rt.deps.storage.get(f.storage_key);
      const res = await verify(bytes);
      expect(res.body, f.kind).toMatchObject({
        verdict: 'authentic',
        intact: true,
        certificate_is_service: true,
        level: 'B-LTA',
        changes: [],
      });
      const [seal, stamp] = res.body.signatures;
      expect(seal).toMatchObject({ kind: 'certification', level: 'B-LTA', modified_after_signing: false });
      expect(seal.timestamp_time).toMatch(/^\d{4}-/);
      expect(stamp).toMatchObject({
        kind: 'document_timestamp',
        signer_subject: 'O=esign tests, CN=Test Time Stamping Unit',
      });
      const sig = execFileSync('pdfsig', [writeTemp(tempDir('trust-int'), `${f.kind}.pdf`, bytes)], {
        encoding: 'utf8',
      });
      expect(sig).toMatch(
        /Signature #1:[\s\S]*Signer Certificate Common Name: Test Sealing Leaf[\s\S]*Signature is Valid\./,
      );
    }
  }, 120_000);

  it('the audit trail says how: uploaded and stored SHA-256 labelled, authentication, consent, signature method, seal level and TSA time', async () => {
    const trail = await t.rt.deps.storage.get(files[1]!.storage_key);
    const file = writeTemp(tempDir('trust-int-trail'), 'trail.pdf', trail);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(
      /[ \t]+/g,
      ' ',
    );
    expect(text).toContain(`SHA-256 as uploaded ${sha256Hex(upload)}`);
    expect(text).toMatch(/SHA-256 after tag removal [0-9a-f]{64}\n/);
    expect(text).toContain('Authentication Signing link sent by email to jane@example.com');
    expect(text).toContain('Consent text By selecting Sign you agree that your electronic signature');
    expect(text).toMatch(/Values\n[\s\S]*Signature \(typed\)/);
    expect(text).toContain('Seal level PAdES B-LTA');
    expect(text).toContain(`Timestamp authority ${services.tsaUrl}`);
    expect(text).toMatch(/Trusted time \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    const sealed = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('signature_request_id', '=', id)
      .where('type', '=', 'signature_request.sealed')
      .executeTakeFirstOrThrow();
    expect(sealed.data).toMatchObject({ level: 'B-LTA', timestamp_authority: services.tsaUrl });
    expect((sealed.data as { timestamp_time: string }).timestamp_time).toMatch(/^\d{4}-/);
  }, 60_000);

  it('POST /documents/verify: "EUR 40,000" painted over the fee and signed with another certificate is modified, naming page 1', async () => {
    const sealed = await t.rt.deps.storage.get(files[0]!.storage_key);
    const forger = await loadSigningIdentity({ dataDir: tempDir('trust-int-forger'), commonName: 'Forger' });
    const forged = await forge(sealed, forger);
    const res = await verify(forged);
    expect(res.body).toMatchObject({ verdict: 'modified', intact: false, produced_by_service: false });
    expect(res.body.summary).toMatch(/changed after this service's seal: .*page 1/);
    expect(res.body.changes).toContainEqual(expect.objectContaining({ kind: 'page_content', page: 1 }));
    const ours = res.body.signatures.find(
      (s: { certificate_is_service: boolean }) => s.certificate_is_service,
    );
    expect(ours).toMatchObject({ valid: true, modified_after_signing: true, kind: 'certification' });
    expect(res.body.signatures.at(-1)).toMatchObject({ valid: true, signer_subject: 'CN=Forger' });
  }, 60_000);
});

describe('request.seal with TSA_URL runs in the document pool (issue 18)', () => {
  const sealJob = (id: number) =>
    t.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', SEAL_JOB)
      .where(sql<boolean>`payload @> ${JSON.stringify({ requestId: id })}::jsonb`)
      .executeTakeFirstOrThrow();
  const sealedEvents = (id: number) =>
    t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('signature_request_id', '=', id)
      .where('type', '=', 'signature_request.sealed')
      .execute();
  /** The job context with a storage that notes the produced files put, to show what a failed attempt left. */
  function recording(deps: Partial<JobContext['deps']> = {}) {
    const storage = t.rt.deps.storage;
    const put: string[] = [];
    const noting: FileStore = {
      put: (key, bytes, type) => {
        // A request's produced files (drainJobs also runs the templates' page-image jobs).
        if (key.startsWith('requests/')) put.push(key);
        return storage.put(key, bytes, type);
      },
      get: (key) => storage.get(key),
      open: (key) => storage.open(key),
      copyToFile: (key, path) => storage.copyToFile(key, path),
      exists: (key) => storage.exists(key),
      delete: (key) => storage.delete(key),
    };
    return { put, ctx: { ...jctx, deps: { ...t.rt.deps, storage: noting, ...deps } } };
  }
  const restorePool = () =>
    configureDocumentPool({
      size: t.config.DOCUMENT_WORKERS,
      timeoutMs: t.config.DOCUMENT_TIMEOUT_SECONDS * 1000,
      maxHeapMb: t.config.DOCUMENT_MEMORY_MB,
    });

  it('a sealing worker over DOCUMENT_MEMORY_MB is ended: the attempt fails with the pool’s memory error before any TSA request, nothing is left stored, the job is retried; the retry seals at B-LTA with every TSA / OCSP / CRL request made while the account’s document runs in the pool, and pdfsig reports the seal and its timestamp', {
    timeout: 180_000,
  }, async () => {
    const id = await completedRequest();
    const tsaBefore = services.hits['/tsa'] ?? 0;
    const failed = recording();
    // 64 MB: a worker process is ended as soon as loading the sealing code takes it past that. In
    // this process, as before issue 18, the seal would not have noticed.
    configureDocumentPool({ maxHeapMb: 64 });
    try {
      await drainJobs(failed.ctx, jobHandlers);
    } finally {
      restorePool();
    }
    const row = await requestRow(id);
    expect(row).toMatchObject({ sealing_status: 'pending', documents: null, audit_trail_storage_key: null });
    expect(row.sealing_error).toMatch(/^attempt 1 of \d+: .*too much memory/);
    expect(await sealJob(id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await sealedEvents(id)).toEqual([]);
    expect(services.hits['/tsa'] ?? 0).toBe(tsaBefore);
    for (const key of failed.put) expect(await t.rt.deps.storage.exists(key), key).toBe(false);

    const running: { path: string; running: number }[] = [];
    services.onRequest = (path) =>
      running.push({ path, running: documentPoolStats().runningByKey[String(owner.accountId)] ?? 0 });
    try {
      shiftMs = 120_000;
      await drainJobs(jctx, jobHandlers);
    } finally {
      shiftMs = 0;
      services.onRequest = null;
    }
    expect((await requestRow(id)).sealing_status).toBe('done');
    // The document, the audit trail and the combined file: two timestamps each, and the OCSP / CRL.
    expect(running.filter((r) => r.path === '/tsa')).toHaveLength(6);
    expect(running.map((r) => r.path)).toEqual(expect.arrayContaining(['/ocsp', '/root.crl']));
    expect(running.filter((r) => r.running !== 1)).toEqual([]);
    const [sealed] = await sealedEvents(id);
    expect(sealed?.data).toMatchObject({ level: 'B-LTA', timestamp_authority: services.tsaUrl });
    const document = await t.rt.deps.storage.get((await filesOf(id))[0]!.storage_key);
    const sig = execFileSync('pdfsig', [writeTemp(tempDir('trust-pool'), 'document.pdf', document)], {
      encoding: 'utf8',
    });
    expect(sig).toMatch(
      /Signature #1:[\s\S]*Signer Certificate Common Name: Test Sealing Leaf[\s\S]*Signature is Valid\./,
    );
    expect(sig).toMatch(/Signature #2:[\s\S]*Signature Field Name: Timestamp_/);
  });

  it('the worker’s exchanges still go through the outbound guard: a TSA_URL on a private address without WEBHOOK_ALLOW_PRIVATE fails the seal (no fallback to B-B), nothing is stored, the job is retried', {
    timeout: 120_000,
  }, async () => {
    expect(t.config.WEBHOOK_ALLOW_PRIVATE).toBe(false);
    const id = await completedRequest();
    const tsaBefore = services.hits['/tsa'] ?? 0;
    // The job process as deployed: no test loosening of the guard.
    const guarded = recording({ outbound: undefined });
    await drainJobs(guarded.ctx, jobHandlers);
    const row = await requestRow(id);
    expect(row).toMatchObject({ sealing_status: 'pending', documents: null, audit_trail_storage_key: null });
    expect(row.sealing_error).toMatch(
      /^attempt 1 of \d+: The time-stamping authority at http:\/\/127\.0\.0\.1:\d+\/tsa could not be reached: 127\.0\.0\.1 is a loopback address; only public addresses are allowed/,
    );
    expect(await sealJob(id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await sealedEvents(id)).toEqual([]);
    expect(services.hits['/tsa'] ?? 0).toBe(tsaBefore);
    for (const key of guarded.put) expect(await t.rt.deps.storage.exists(key), key).toBe(false);
    // Allowed to reach the loopback TSA (the tests' loosening of the guard), the retry seals.
    shiftMs = 120_000;
    try {
      await drainJobs(jctx, jobHandlers);
    } finally {
      shiftMs = 0;
    }
    expect((await requestRow(id)).sealing_status).toBe('done');
    expect((await sealedEvents(id))[0]?.data).toMatchObject({ level: 'B-LTA' });
  });

  it('a TSA that fails while the combined file is signed fails the attempt: the request is not sealed without its combined file, nothing is left stored', {
    timeout: 120_000,
  }, async () => {
    const id = await completedRequest();
    // The document and the audit trail take two timestamps each; the fifth is the combined file's.
    let tsa = 0;
    services.onRequest = (path) => {
      if (path === '/tsa' && ++tsa === 5) services.fail['/tsa'] = 503;
    };
    const attempt = recording();
    try {
      await drainJobs(attempt.ctx, jobHandlers);
    } finally {
      services.onRequest = null;
      delete services.fail['/tsa'];
    }
    expect(tsa).toBe(5);
    const row = await requestRow(id);
    expect(row).toMatchObject({ sealing_status: 'pending', documents: null, combined_storage_key: null });
    expect(row.sealing_error).toMatch(
      /^attempt 1 of \d+: The time-stamping authority at .* answered HTTP 503$/,
    );
    expect(await sealedEvents(id)).toEqual([]);
    expect(attempt.put).toHaveLength(2);
    for (const key of attempt.put) expect(await t.rt.deps.storage.exists(key), key).toBe(false);
  });
});

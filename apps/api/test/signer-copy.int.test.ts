import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import {
  drainJobs,
  type FileStore,
  type JobContext,
  type ProducedFile,
  SIGNER_COPY_JOB,
  SIGNING_CONSENT_TEXT,
} from '@esign/core/testing';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectValidSignedPdf,
  pdfText,
  signaturePng,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Spec, Signer object: `documents` "the signer's signed documents; present only once they signed".
// A signer whose signature does not complete the request gets their own sealed copy (job
// signer.copy) right after signing; the final seal at completion replaces it. Also here:
// signing.open's `filled_by_others` and the consent recorded with the signature.

let t: TestApp;
let owner: TestAccount;
let dir: string;
let shiftMs = 0;
const logger = createLogger('silent', 'test');
const png = signaturePng();
const jctx = (storage?: FileStore): JobContext => ({
  db: t.db,
  logger,
  config: t.config,
  deps: { ...t.rt.deps, ...(storage ? { storage } : {}) },
  now: () => new Date(Date.now() + shiftMs),
});

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  dir = tempDir('signer-copy');
});
afterAll(() => t.close());

const area = (page: number, y: number) => ({ page, x: 0.1, y, w: 0.4, h: 0.06, document: 0 });

async function sequentialRequest(order: 'sequential' | 'parallel' = 'sequential', sendEmail = true) {
  const tpl = await t.api('POST', 'templates', {
    key: owner.key,
    body: {
      name: 'Lease',
      documents: [{ name: 'Lease', file: b64(await plainPdf(1, 'Lease page')) }],
      fields: [
        { name: 'Landlord name', type: 'text', role: 'Landlord', areas: [area(1, 0.2)] },
        { name: 'Landlord signature', type: 'signature', role: 'Landlord', areas: [area(1, 0.3)] },
        { name: 'Tenant name', type: 'text', role: 'Tenant', areas: [area(1, 0.5)] },
        { name: 'Tenant signature', type: 'signature', role: 'Tenant', areas: [area(1, 0.6)] },
      ],
    },
  });
  expect(tpl.status, tpl.text).toBe(201);
  const sent = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: {
      template_id: tpl.body.id,
      signing_order: order,
      send_email: sendEmail,
      signers: [
        { role: 'Landlord', name: 'Lara Landlord', email: 'lara@example.com' },
        { role: 'Tenant', name: 'Tom Tenant', email: 'tom@example.com' },
      ],
    },
  });
  expect(sent.status, sent.text).toBe(201);
  return {
    id: sent.body.id as number,
    signers: sent.body.signers as { id: number; signing_url: string }[],
  };
}

const caller = () =>
  createCaller(createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, source: 'link' }));
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;
const getSigner = async (id: number) => (await t.api('GET', `signers/${id}`, { key: owner.key })).body;
const copyJobs = (signerId: number) =>
  t.db
    .selectFrom('jobs')
    .select(['status', 'attempts'])
    .where('kind', '=', SIGNER_COPY_JOB)
    .where(sql<boolean>`payload @> ${JSON.stringify({ signerId })}::jsonb`)
    .execute();
const signerFiles = async (id: number) =>
  (
    (await t.db.selectFrom('signers').select('documents').where('id', '=', id).executeTakeFirstOrThrow())
      .documents as { files: ProducedFile[] } | null
  )?.files ?? null;

async function signLandlord(req: { signers: { signing_url: string }[] }) {
  const token = tokenOf(req.signers[0]!.signing_url);
  await caller().signing.complete({
    token,
    values: { 'Landlord name': 'Lara L. Landlord', 'Landlord signature': png },
  });
}

describe("signer.copy: a signer's own signed copy right after they sign", () => {
  it('signer 1 of a sequential request gets documents sealed with their values (pdfsig), and an email with the links', async () => {
    const req = await sequentialRequest();
    await signLandlord(req);
    // Signing stays fast: the copy is a queued job, not work done in the signing call.
    expect(await copyJobs(req.signers[0]!.id)).toEqual([{ status: 'queued', attempts: 0 }]);
    expect((await getSigner(req.signers[0]!.id)).documents).toEqual([]);
    await drainJobs(jctx(), jobHandlers);
    const s = await getSigner(req.signers[0]!.id);
    expect(s.status).toBe('signed');
    expect(s.documents).toEqual([{ name: 'Lease', url: expect.stringMatching(/^http.*\/files\//) }]);
    const pdf = new Uint8Array(await (await fetch(s.documents[0].url)).arrayBuffer());
    const file = writeTemp(dir, `copy-${req.id}.pdf`, pdf);
    expect(expectValidSignedPdf(file)).toContain('esign document sealing');
    const text = pdfText(file);
    expect(text).toContain('Lara L. Landlord');
    expect(text).not.toContain('Tom');
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body', 'to_address'])
      .where('kind', '=', 'signer.copy')
      .where('signer_id', '=', req.signers[0]!.id)
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.to_address).toBe('lara@example.com');
    expect(mail[0]!.subject).toBe('Your signed copy: Lease');
    expect(mail[0]!.text_body).toContain('/files/');
    // The later signer is still unsigned and has no documents.
    expect((await getSigner(req.signers[1]!.id)).documents).toBeUndefined();
  });

  it('the last signer gets no separate copy: the final seal gives every signer the sealed documents', async () => {
    const req = await sequentialRequest();
    await signLandlord(req);
    await drainJobs(jctx(), jobHandlers);
    const firstCopy = await signerFiles(req.signers[0]!.id);
    await caller().signing.complete({
      token: tokenOf(req.signers[1]!.signing_url),
      values: { 'Tenant name': 'Tom T. Tenant', 'Tenant signature': png },
    });
    expect(await copyJobs(req.signers[1]!.id)).toEqual([]);
    await drainJobs(jctx(), jobHandlers);
    const final = await signerFiles(req.signers[1]!.id);
    expect(final).toHaveLength(1);
    // Signer 1's documents are now the final seal's, with both signers' values.
    expect(await signerFiles(req.signers[0]!.id)).toEqual(final);
    expect(final![0]!.storage_key).not.toBe(firstCopy![0]!.storage_key);
    const text = pdfText(
      writeTemp(dir, `final-${req.id}.pdf`, await t.rt.deps.storage.get(final![0]!.storage_key)),
    );
    expect(text).toContain('Lara L. Landlord');
    expect(text).toContain('Tom T. Tenant');
  });

  it("issue 30 item 6: a signer's copy verifies as authentic, signer N's copy, via REST and MCP verify_document, before and after the final seal", async () => {
    const req = await sequentialRequest();
    await signLandlord(req);
    await drainJobs(jctx(), jobHandlers);
    const [copy] = (await signerFiles(req.signers[0]!.id))!;
    const bytes = await t.rt.deps.storage.get(copy!.storage_key);
    const audit = await t.db
      .selectFrom('audit_events')
      .select('data')
      .where('type', '=', 'signer.copy_sealed')
      .where('signer_id', '=', req.signers[0]!.id)
      .executeTakeFirstOrThrow();
    expect(audit.data).toMatchObject({
      signer_number: 1,
      documents: [{ name: 'Lease', sha256: copy!.sha256 }],
    });
    const verify = () => t.api('POST', 'documents/verify', { key: owner.key, body: { file: b64(bytes) } });
    const before = await verify();
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({
      verdict: 'authentic',
      sha256: copy!.sha256,
      produced_by_service: true,
      match: {
        kind: 'signer_copy',
        name: 'Lease',
        signature_request_id: req.id,
        test_mode: false,
        signer_number: 1,
        final_document_exists: false,
      },
    });
    expect(before.body.summary).toContain("Signer 1's own signed copy");

    // The final seal replaces the signer's documents; the copy is still one the service produced.
    await caller().signing.complete({
      token: tokenOf(req.signers[1]!.signing_url),
      values: { 'Tenant name': 'Tom T. Tenant', 'Tenant signature': png },
    });
    await drainJobs(jctx(), jobHandlers);
    expect((await signerFiles(req.signers[0]!.id))![0]!.sha256).not.toBe(copy!.sha256);
    const after = await verify();
    expect(after.body).toMatchObject({
      verdict: 'authentic',
      match: { kind: 'signer_copy', signer_number: 1, final_document_exists: true },
    });
    expect(after.body.summary).toContain('final documents');
    // Another account learns it is a copy the service produced, not which request.
    const other = await createTestAccount(t.db);
    const theirs = await t.api('POST', 'documents/verify', { key: other.key, body: { file: b64(bytes) } });
    expect(theirs.body.match).toMatchObject({ kind: 'signer_copy', signature_request_id: null });

    const ro = await owner.newKey({ permission: 'read' });
    const client = new Client({ name: 'signer-copy-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${ro.key}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'verify_document', arguments: { file: b64(bytes) } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        verdict: 'authentic',
        match: {
          kind: 'signer_copy',
          signature_request_id: req.id,
          signer_number: 1,
          final_document_exists: true,
        },
      });
    } finally {
      await client.close();
    }
  });

  it('a failed attempt commits nothing and leaves no file; the retry produces the copy', async () => {
    const req = await sequentialRequest('sequential', false);
    await drainJobs(jctx(), jobHandlers); // the template's page images
    await signLandlord(req);
    const stored: string[] = [];
    let failPuts = 1;
    const flaky: FileStore = {
      ...t.rt.deps.storage,
      get: (k) => t.rt.deps.storage.get(k),
      open: (k) => t.rt.deps.storage.open(k),
      copyToFile: (k, path) => t.rt.deps.storage.copyToFile(k, path),
      exists: (k) => t.rt.deps.storage.exists(k),
      delete: (k) => t.rt.deps.storage.delete(k),
      async put(key, bytes, type) {
        if (key.includes('/signers/') && failPuts-- > 0) {
          await t.rt.deps.storage.put(key, bytes, type);
          stored.push(key);
          throw new Error('disk full');
        }
        return t.rt.deps.storage.put(key, bytes, type);
      },
    };
    await drainJobs(jctx(flaky), jobHandlers);
    expect(await copyJobs(req.signers[0]!.id)).toEqual([{ status: 'queued', attempts: 1 }]);
    expect(await signerFiles(req.signers[0]!.id)).toBeNull();
    expect(await t.rt.deps.storage.exists(stored[0]!)).toBe(false);
    shiftMs = 60_000;
    try {
      await drainJobs(jctx(flaky), jobHandlers);
    } finally {
      shiftMs = 0;
    }
    expect(await signerFiles(req.signers[0]!.id)).toHaveLength(1);
    // send_email false: the sender handles signer communication, so no email.
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'signer.copy')
      .where('signer_id', '=', req.signers[0]!.id)
      .execute();
    expect(mails).toEqual([]);
  });
});

describe('signing.open: what other signers filled in (filled_by_others)', () => {
  it('in sequential order, signer 2 sees signer 1’s signed values at their areas, read-only', async () => {
    const req = await sequentialRequest();
    const before = await caller().signing.open({ token: tokenOf(req.signers[0]!.signing_url) });
    expect(before.filled_by_others).toEqual([]);
    await signLandlord(req);
    const open = await caller().signing.open({ token: tokenOf(req.signers[1]!.signing_url) });
    expect(open.fields.map((f) => f.name)).toEqual(['Tenant name', 'Tenant signature']);
    expect(open.filled_by_others).toEqual([
      {
        id: expect.any(String),
        name: 'Landlord name',
        type: 'text',
        role: 'Landlord',
        signer_name: 'Lara Landlord',
        areas: [area(1, 0.2)],
        value: 'Lara L. Landlord',
      },
      expect.objectContaining({ name: 'Landlord signature', type: 'signature', value: png }),
    ]);
  });

  it('in parallel order, only values of signers who signed are shown (not another signer’s draft)', async () => {
    const req = await sequentialRequest('parallel');
    const tenant = tokenOf(req.signers[1]!.signing_url);
    await caller().signing.saveValues({ token: tenant, values: { 'Tenant name': 'Draft' } });
    const landlordView = await caller().signing.open({ token: tokenOf(req.signers[0]!.signing_url) });
    expect(landlordView.filled_by_others).toEqual([]);
    await signLandlord(req);
    const tenantView = await caller().signing.open({ token: tenant });
    expect(tenantView.filled_by_others.map((f) => f.name)).toEqual(['Landlord name', 'Landlord signature']);
  });
});

describe('consent (review step): recorded with the signature for the audit trail', () => {
  it('signing.open returns the consent sentence; signing.complete records it in signer.signed, and the sealed audit trail prints it', async () => {
    const req = await sequentialRequest();
    const open = await caller().signing.open({ token: tokenOf(req.signers[0]!.signing_url) });
    expect(open.consent_text).toBe(SIGNING_CONSENT_TEXT);
    await signLandlord(req);
    await caller().signing.complete({
      token: tokenOf(req.signers[1]!.signing_url),
      values: { 'Tenant name': 'Tom T. Tenant', 'Tenant signature': png },
    });
    const events = await t.db
      .selectFrom('audit_events')
      .select(['data', 'created_at', 'signer_id'])
      .where('signature_request_id', '=', req.id)
      .where('type', '=', 'signer.signed')
      .execute();
    expect(events).toHaveLength(2);
    for (const e of events) expect(e.data).toEqual({ consent: SIGNING_CONSENT_TEXT, locale: 'en' });
    await drainJobs(jctx(), jobHandlers);
    const row = await t.db
      .selectFrom('signature_requests')
      .select('audit_trail_storage_key')
      .where('id', '=', req.id)
      .executeTakeFirstOrThrow();
    const trail = pdfText(
      writeTemp(dir, `trail-${req.id}.pdf`, await t.rt.deps.storage.get(row.audit_trail_storage_key!)),
    );
    expect(trail.replace(/\s+/g, ' ')).toContain('By selecting Sign you agree');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCaller, createContext, createLogger } from '@esign/core';
import { jobHandlers, requeueStuckSealing } from '@esign/core/jobs';
import {
  COMPLETION_LINK_TTL_SECONDS,
  drainJobs,
  type JobContext,
  type ProducedFile,
  SEAL_JOB,
  sha256Hex,
  verifyFileLink,
} from '@esign/core/testing';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureDocumentPool, loadSigningIdentity, sealDocument } from '../../../packages/pdf/src/index.ts';
import {
  expectValidSignedPdf,
  pdfText,
  signaturePng,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Sealing (spec: once everyone signed, "signed documents and audit trail become available") and
// POST /documents/verify (docs/verify.md), on requests completed through the real API and
// signing procedures.

let t: TestApp;
let owner: TestAccount;
let other: TestAccount;
let jctx: JobContext;
let dir: string;
/** Moves the worker's clock forward so retried jobs become due. */
let shiftMs = 0;
const logger = createLogger('silent', 'test');
const png = signaturePng();
const attachment = {
  name: 'evidence.txt',
  type: 'text/plain',
  data: `data:text/plain;base64,${b64(new TextEncoder().encode('exhibit A'))}`,
};

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 20 });
  other = await createTestAccount(t.db, { credits: 5 });
  jctx = { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date(Date.now() + shiftMs) };
  dir = tempDir('sealing-int');
});
afterAll(() => t.close());

const area = (page: number, y: number, document = 0) => ({ page, x: 0.1, y, w: 0.4, h: 0.06, document });

async function makeTwoRoleTemplate(key: string) {
  const res = await t.api('POST', 'templates', {
    key,
    body: {
      name: 'Service agreement',
      documents: [
        { name: 'Agreement', file: b64(await plainPdf(2, 'Agreement page')) },
        { name: 'Annex', file: b64(await plainPdf(1, 'Annex page')) },
      ],
      fields: [
        { name: 'Full name', type: 'text', role: 'Client', areas: [area(1, 0.2)] },
        {
          name: 'Client signature',
          type: 'signature',
          role: 'Client',
          areas: [area(2, 0.7), area(1, 0.8, 1)],
        },
        { name: 'Signed on', type: 'date', role: 'Client', areas: [area(2, 0.8)] },
        {
          name: 'I agree',
          type: 'checkbox',
          role: 'Client',
          required: false,
          areas: [{ ...area(1, 0.3), w: 0.04, h: 0.04 }],
        },
        { name: 'Witness name', type: 'text', role: 'Witness', areas: [area(1, 0.2, 1)] },
        { name: 'Attachment', type: 'file', role: 'Witness', required: false, areas: [area(1, 0.4, 1)] },
      ],
    },
  });
  if (res.status !== 201) throw new Error(`template: ${res.status} ${res.text}`);
  return res.body;
}

interface Completed {
  id: number;
  signers: any[];
}

/** A request sent through POST /signature_requests and signed by both signers on the signing procedures. */
async function completedRequest(key: string): Promise<Completed> {
  const tpl = await makeTwoRoleTemplate(key);
  const sent = await t.api('POST', 'signature_requests', {
    key,
    body: {
      template_id: tpl.id,
      signing_order: 'parallel',
      signers: [
        {
          role: 'Client',
          name: 'Jane Client',
          email: 'jane.client@example.com',
          prefill: { 'Full name': 'Jane Q. Client' },
        },
        { role: 'Witness', name: 'Walter Witness', email: 'walter@example.com' },
      ],
    },
  });
  if (sent.status !== 201) throw new Error(`send: ${sent.status} ${sent.text}`);
  const values: Record<string, Record<string, unknown>> = {
    Client: { 'Client signature': png, 'Signed on': '2026-03-04', 'I agree': true },
    Witness: { 'Witness name': 'Walter W. Witness', Attachment: attachment },
  };
  for (const [i, s] of sent.body.signers.entries()) {
    const token = new URL(s.signing_url).pathname.split('/').pop()!;
    const caller = createCaller(
      createContext({
        db: t.db,
        logger,
        config: t.config,
        deps: t.rt.deps,
        source: 'link',
        ip: `203.0.113.${10 + i}`,
        userAgent: `SignerBrowser/${i + 1}.0`,
      }),
    );
    await caller.signing.open({ token });
    await caller.signing.complete({ token, values: values[s.role]! });
  }
  const row = await t.db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', sent.body.id)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe('completed');
  return { id: sent.body.id, signers: sent.body.signers };
}

const forRequest = (id: number) => sql<boolean>`payload @> ${JSON.stringify({ requestId: id })}::jsonb`;
const requestRow = (id: number) =>
  t.db.selectFrom('signature_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const filesOf = async (id: number) => ((await requestRow(id)).documents as { files: ProducedFile[] }).files;

const verify = (key: string, bytes: Uint8Array) =>
  t.api('POST', 'documents/verify', { key, body: { file: b64(bytes) } });

describe('request.seal: sealed documents, audit trail and combined file', () => {
  let req: Completed;
  let files: ProducedFile[];
  const stored = new Map<string, Uint8Array>();

  beforeAll(async () => {
    req = await completedRequest(owner.key);
    expect((await requestRow(req.id)).sealing_status).toBe('pending');
    await drainJobs(jctx, jobHandlers);
    files = await filesOf(req.id);
    for (const f of files) stored.set(f.storage_key, await t.rt.deps.storage.get(f.storage_key));
  });

  it('the job commits every produced file under requests/<account>/<request>/ and marks sealing done', async () => {
    const row = await requestRow(req.id);
    expect(row.sealing_status).toBe('done');
    expect(row.sealing_error).toBeNull();
    expect(files.map((f) => f.kind)).toEqual(['document', 'document', 'audit_trail', 'combined']);
    expect(files.map((f) => f.name).slice(0, 2)).toEqual(['Agreement', 'Annex']);
    for (const f of files) {
      expect(f.storage_key.startsWith(`requests/${owner.accountId}/${req.id}/`)).toBe(true);
      expect(sha256Hex(stored.get(f.storage_key)!)).toBe(f.sha256);
    }
    expect(row.audit_trail_storage_key).toBe(files[2]!.storage_key);
    expect(row.combined_storage_key).toBe(files[3]!.storage_key);
    const snapshot = row.snapshot as { documents: { sha256: string }[] };
    expect(files.slice(0, 2).map((f) => f.original_sha256)).toEqual(snapshot.documents.map((d) => d.sha256));
    // Every signer holds the sealed documents.
    const signers = await t.db
      .selectFrom('signers')
      .select('documents')
      .where('signature_request_id', '=', req.id)
      .execute();
    for (const s of signers)
      expect((s.documents as { files: ProducedFile[] }).files).toEqual(files.slice(0, 2));
  });

  it('every output is one valid PAdES signature over the whole file (pdfsig) and a sound PDF (qpdf --check)', () => {
    for (const f of files) {
      const sig = expectValidSignedPdf(
        writeTemp(dir, `${req.id}-${f.kind}-${f.name}.pdf`.replace(/\s+/g, '_'), stored.get(f.storage_key)!),
      );
      expect(sig).toContain('esign document sealing');
    }
  });

  it("values are drawn where each signer's fields are: prefill, typed text, dates, file names", () => {
    const agreement = pdfText(writeTemp(dir, 'agreement.pdf', stored.get(files[0]!.storage_key)!));
    expect(agreement).toContain('Jane Q. Client');
    // Issue 42.6: a date is drawn in its signer's language (English: 03/04/2026), stored as 2026-03-04.
    expect(agreement).toContain('03/04/2026');
    expect(agreement).not.toContain('TEST DOCUMENT');
    const annex = pdfText(writeTemp(dir, 'annex.pdf', stored.get(files[1]!.storage_key)!));
    expect(annex).toContain('Walter W. Witness');
    expect(annex).toContain('evidence.txt');
    // The drawn signature is an image on the Agreement's page 2 and the Annex's page 1.
    const images = (file: string) =>
      execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(images(writeTemp(dir, 'agreement.pdf', stored.get(files[0]!.storage_key)!))).toContain(2);
    expect(images(writeTemp(dir, 'annex.pdf', stored.get(files[1]!.storage_key)!))).toContain(1);
    const combined = pdfText(writeTemp(dir, 'combined.pdf', stored.get(files[3]!.storage_key)!));
    for (const text of ['Jane Q. Client', 'Walter W. Witness', 'Audit trail'])
      expect(combined).toContain(text);
  });

  it('the audit trail holds the request and document ids, every SHA-256, signer IP, user agent, timestamps and values', async () => {
    const text = pdfText(writeTemp(dir, 'trail.pdf', stored.get(files[2]!.storage_key)!));
    const flat = text.replace(/\s+/g, '');
    for (const f of files.slice(0, 2)) {
      expect(flat).toContain(f.sha256);
      expect(flat).toContain(f.original_sha256);
    }
    const row = await requestRow(req.id);
    const snapshot = row.snapshot as { documents: { template_document_id: number }[] };
    expect(text).toContain(`#${req.id}`);
    for (const d of snapshot.documents) expect(text).toContain(`#${d.template_document_id}`);
    for (const s of req.signers) expect(text).toContain(`#${s.id}`);
    for (const needle of [
      '203.0.113.10',
      '203.0.113.11',
      'SignerBrowser/1.0',
      'SignerBrowser/2.0',
      'jane.client@example.com',
      'Walter W. Witness',
      'Signed',
      'Viewed',
      'Invited',
    ]) {
      expect(text).toContain(needle);
    }
    // The attachment is identified by name, size and SHA-256 of its bytes.
    expect(flat).toContain(sha256Hex(new TextEncoder().encode('exhibit A')));
  });

  it('GET /signature_requests/{id} lists the documents, audit_trail_url and combined_document_url; the links serve the stored bytes', async () => {
    const res = await t.api('GET', `signature_requests/${req.id}`, { key: owner.key });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.documents.map((d: any) => d.name)).toEqual(['Agreement', 'Annex']);
    const urls = [
      ...res.body.documents.map((d: any) => d.url),
      res.body.audit_trail_url,
      res.body.combined_document_url,
    ];
    const expected = files.map((f) => stored.get(f.storage_key)!);
    for (const [i, url] of urls.entries()) {
      expect(url.startsWith(`${t.baseUrl}/files/`)).toBe(true);
      const dl = await fetch(url);
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-type')).toContain('application/pdf');
      expect(sha256Hex(new Uint8Array(await dl.arrayBuffer()))).toBe(sha256Hex(expected[i]!));
    }
    for (const s of res.body.signers)
      expect(s.documents.map((d: any) => d.name)).toEqual(['Agreement', 'Annex']);
  });

  it('completion emails go to every signer and the sender, with signed links valid for 30 days', async () => {
    const mails = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('kind', '=', 'request.completed')
      .where('account_id', '=', owner.accountId)
      .execute();
    const keyOf = (link: string) =>
      verifyFileLink(t.config, new URL(link).pathname.split('/')[2]!, new Date()).k;
    const mine = mails.filter((m) => (m.links as string[]).some((l) => keyOf(l) === files[0]!.storage_key));
    expect(mine.map((m) => m.to_address).sort()).toEqual(
      [owner.email, 'jane.client@example.com', 'walter@example.com'].sort(),
    );
    for (const m of mine) {
      expect(m.html_body).toContain('<a href=');
      expect(m.subject).toBe('Completed: Service agreement');
      const links = m.links as string[];
      expect(links).toHaveLength(4);
      for (const [i, link] of links.entries()) {
        expect(link.startsWith(`${t.config.PUBLIC_URL}/files/`)).toBe(true);
        const token = new URL(link).pathname.split('/')[2]!;
        const decoded = verifyFileLink(
          t.config,
          token,
          new Date(Date.now() + (COMPLETION_LINK_TTL_SECONDS - 3600) * 1000),
        );
        expect(decoded.k).toBe(files[i]!.storage_key);
        expect(() =>
          verifyFileLink(t.config, token, new Date(Date.now() + (COMPLETION_LINK_TTL_SECONDS + 3600) * 1000)),
        ).toThrow(/expired/);
      }
    }
    const dl = await fetch((mine[0]!.links as string[])[0]!);
    expect(sha256Hex(new Uint8Array(await dl.arrayBuffer()))).toBe(files[0]!.sha256);
  });

  it('running the job again changes nothing (no second set of files or emails)', async () => {
    const before = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'request.completed')
      .execute();
    await t.db
      .insertInto('jobs')
      .values({ kind: SEAL_JOB, payload: JSON.stringify({ requestId: req.id }) })
      .execute();
    await drainJobs(jctx, jobHandlers);
    expect(await filesOf(req.id)).toEqual(files);
    const after = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'request.completed')
      .execute();
    expect(after).toHaveLength(before.length);
  });

  describe('POST /documents/verify', () => {
    it('every produced file is authentic: produced_by_service, intact, the service certificate, and the owner sees the request id', async () => {
      for (const f of files) {
        const res = await verify(owner.key, stored.get(f.storage_key)!);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          object: 'verification',
          verdict: 'authentic',
          sha256: f.sha256,
          produced_by_service: true,
          match: { kind: f.kind, name: f.name, signature_request_id: req.id, test_mode: false },
          intact: true,
          certificate_is_service: true,
        });
        expect(res.body.signatures).toHaveLength(1);
        expect(res.body.signatures[0]).toMatchObject({
          valid: true,
          covers_whole_document: true,
          modified_after_signing: false,
          certificate_is_service: true,
          signer_subject: 'CN=esign document sealing',
          error: null,
        });
        expect(res.body.signatures[0].signer_certificate_sha256).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    it("another account, or the owner's test side, gets the match without the request id", async () => {
      const bytes = stored.get(files[0]!.storage_key)!;
      const theirs = await verify(other.key, bytes);
      expect(theirs.body).toMatchObject({
        verdict: 'authentic',
        produced_by_service: true,
        match: { kind: 'document', name: 'Agreement', signature_request_id: null },
      });
      const testKey = await owner.newKey({ environment: 'test' });
      expect((await verify(testKey.key, bytes)).body.match.signature_request_id).toBeNull();
    });

    it('a read-only key may verify, as JSON with a data: URI or as a multipart file upload', async () => {
      const ro = await owner.newKey({ permission: 'read' });
      const bytes = stored.get(files[1]!.storage_key)!;
      const asDataUri = await t.api('POST', 'documents/verify', {
        key: ro.key,
        body: { file: `data:application/pdf;base64,${b64(bytes)}` },
      });
      expect(asDataUri.status).toBe(200);
      expect(asDataUri.body.verdict).toBe('authentic');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'annex.pdf');
      const res = await fetch(`${t.baseUrl}/api/v1/documents/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ro.key}` },
        body: form,
      });
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({
        verdict: 'authentic',
        sha256: files[1]!.sha256,
        match: { signature_request_id: req.id },
      });
      const wrongPart = new FormData();
      wrongPart.append('document', new Blob([new Uint8Array(bytes)]), 'annex.pdf');
      const bad = await fetch(`${t.baseUrl}/api/v1/documents/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ro.key}` },
        body: wrongPart,
      });
      expect(bad.status).toBe(422);
    });

    it('MCP verify_document (read scope) gives the same result', async () => {
      const ro = await owner.newKey({ permission: 'read' });
      const client = new Client({ name: 'sealing-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${ro.key}` } },
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((x) => x.name)).toContain('verify_document');
        const small = stored.get(files[1]!.storage_key)!;
        const result = await client.callTool({ name: 'verify_document', arguments: { file: b64(small) } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({
          verdict: 'authentic',
          match: { signature_request_id: req.id },
        });
        const missing = await client.callTool({ name: 'verify_document', arguments: {} });
        expect(missing.isError).toBe(true);
        expect(JSON.stringify(missing.content)).toContain('missing_parameter');
      } finally {
        await client.close();
      }
    });

    it('any one-byte change is detected: not produced_by_service, and not intact unless it is in the unsigned padding after a CMS', async () => {
      for (const f of [files[1]!, files[2]!]) {
        const original = stored.get(f.storage_key)!;
        const text = Buffer.from(original).toString('latin1');
        const contents = text.lastIndexOf('/Contents <');
        const positions = new Set<number>([
          0,
          5,
          original.length - 1,
          original.length - 20,
          contents + 11,
          contents + 40,
          contents + 5000,
        ]);
        for (let i = 1; i < 24; i++) positions.add(Math.floor((original.length * i) / 24));
        for (const pos of positions) {
          const changed = original.slice();
          changed[pos] = changed[pos] === 0x30 ? 0x31 : changed[pos] === 0x20 ? 0x0a : 0x30;
          const res = await verify(owner.key, changed);
          if (res.status === 422) {
            // The change broke the %PDF- header: not accepted as a PDF at all.
            expect(pos).toBeLessThan(8);
            expect(res.body.error.code).toBe('invalid_document');
            continue;
          }
          expect(res.status).toBe(200);
          // Inside the last signature's /Contents, past its CMS, bytes are padding that nothing
          // signs (issue 40: real files carry other bytes there): the file is no longer the one
          // produced, and its signatures stay intact. Anywhere else the change is caught.
          const gapEnd = text.indexOf('>', contents + 11);
          if (pos > contents + 10 && pos < gapEnd && res.body.intact) {
            expect(res.body).toMatchObject({ produced_by_service: false, verdict: 'intact_signature' });
            continue;
          }
          expect({
            pos,
            produced: res.body.produced_by_service,
            intact: res.body.intact,
            verdict: res.body.verdict,
          }).toEqual({
            pos,
            produced: false,
            intact: false,
            verdict: 'modified',
          });
        }
        // One byte appended after the signature: the signature no longer covers the whole file. A
        // letter is bytes no revision holds (modified); an end of line after the last %%EOF shows
        // nothing in any reader (issue 40: OpenPDF writes one), so the signatures stay intact.
        const appended = await verify(owner.key, new Uint8Array([...original, 0x78]));
        expect(appended.body).toMatchObject({
          produced_by_service: false,
          intact: false,
          verdict: 'modified',
        });
        expect(appended.body.signatures[0]).toMatchObject({
          valid: true,
          covers_whole_document: false,
          modified_after_signing: true,
        });
        const newline = await verify(owner.key, new Uint8Array([...original, 0x0a]));
        expect(newline.body).toMatchObject({ produced_by_service: false, verdict: 'intact_signature' });
        expect(newline.body.signatures[0]).toMatchObject({ valid: true, covers_whole_document: false });
      }
    });
  });
});

describe('POST /documents/verify: other files and invalid input', () => {
  it('a random unsigned PDF is neither produced_by_service nor intact (verdict unsigned)', async () => {
    const res = await verify(owner.key, await plainPdf(1, 'Random'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verdict: 'unsigned',
      produced_by_service: false,
      match: null,
      intact: false,
      certificate_is_service: false,
      signatures: [],
    });
  });

  it("a PDF validly signed with someone else's certificate is intact but not produced_by_service nor the service certificate", async () => {
    const identity = await loadSigningIdentity({
      dataDir: tempDir('foreign-identity'),
      commonName: 'Someone Else',
    });
    const signed = await sealDocument({ pdf: await plainPdf(1), values: [], identity, name: 'Foreign' });
    const res = await verify(owner.key, signed);
    expect(res.body).toMatchObject({
      verdict: 'intact_signature',
      produced_by_service: false,
      match: null,
      intact: true,
      certificate_is_service: false,
    });
    expect(res.body.signatures[0]).toMatchObject({
      valid: true,
      signer_subject: 'CN=Someone Else',
      certificate_is_service: false,
    });
  });

  it('empty, invalid base64, URLs and non-PDF files are 422 invalid_document; a missing file is missing_parameter', async () => {
    for (const file of [
      '',
      '   ',
      'not base64 !!!',
      'https://example.com/a.pdf',
      b64(new TextEncoder().encode('hello, not a pdf')),
    ]) {
      const res = await t.api('POST', 'documents/verify', { key: owner.key, body: { file } });
      expect({ file: file.slice(0, 30), status: res.status, code: res.body.error?.code }).toEqual({
        file: file.slice(0, 30),
        status: 422,
        code: 'invalid_document',
      });
    }
    const missing = await t.api('POST', 'documents/verify', { key: owner.key, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe('missing_parameter');
  });

  it('a document larger than 25 MB is 422 document_too_large (JSON and multipart)', async () => {
    const big = new Uint8Array(25 * 1024 * 1024 + 10);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    const json = await verify(owner.key, big);
    expect(json.status).toBe(422);
    expect(json.body.error.code).toBe('document_too_large');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(big)], { type: 'application/pdf' }), 'big.pdf');
    const res = await fetch(`${t.baseUrl}/api/v1/documents/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
      body: form,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).error.code).toBe('document_too_large');
  });
});

describe('request.seal in test mode', () => {
  it('test-mode documents carry the test mark, and verify reports test_mode', async () => {
    const testKey = await owner.newKey({ environment: 'test' });
    const req = await completedRequest(testKey.key);
    await drainJobs(jctx, jobHandlers);
    const files = await filesOf(req.id);
    const doc = await t.rt.deps.storage.get(files[0]!.storage_key);
    expectValidSignedPdf(writeTemp(dir, 'test-mode.pdf', doc));
    expect(pdfText(writeTemp(dir, 'test-mode.pdf', doc))).toContain('TEST DOCUMENT - NOT LEGALLY BINDING');
    const trail = await t.rt.deps.storage.get(files[2]!.storage_key);
    expect(pdfText(writeTemp(dir, 'test-mode-trail.pdf', trail))).toContain('TEST DOCUMENT');
    const res = await verify(testKey.key, doc);
    expect(res.body.match).toEqual({
      kind: 'document',
      name: 'Agreement',
      signature_request_id: req.id,
      test_mode: true,
    });
    // The live side of the same account does not see the test request's id.
    expect((await verify(owner.key, doc)).body.match.signature_request_id).toBeNull();
  });
});

describe('request.seal failures', () => {
  it('a missing stored original is retried with back-off and visible in sealing_error, never completed without documents; it succeeds once the file is back', async () => {
    const req = await completedRequest(owner.key);
    const row = await requestRow(req.id);
    const key = (row.snapshot as { documents: { storage_key: string }[] }).documents[1]!.storage_key;
    const original = await t.rt.deps.storage.get(key);
    await t.rt.deps.storage.delete(key);

    await drainJobs(jctx, jobHandlers);
    let after = await requestRow(req.id);
    expect(after.sealing_status).toBe('pending');
    expect(after.sealing_error).toMatch(/^attempt 1 of 8: /);
    expect(after.documents).toBeNull();
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', SEAL_JOB)
      .where(forRequest(req.id))
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job.run_at.getTime()).toBeGreaterThan(Date.now() + 3_000);
    // Nothing partial stays in storage, and the API shows no documents yet.
    const res = await t.api('GET', `signature_requests/${req.id}`, { key: owner.key });
    expect(res.body.audit_trail_url ?? null).toBeNull();

    shiftMs = 6_000;
    await drainJobs(jctx, jobHandlers);
    after = await requestRow(req.id);
    expect(after.sealing_error).toMatch(/^attempt 2 of 8: /);

    await t.rt.deps.storage.put(key, original, 'application/pdf');
    shiftMs = 60_000;
    await drainJobs(jctx, jobHandlers);
    after = await requestRow(req.id);
    expect(after.sealing_status).toBe('done');
    expect(after.sealing_error).toBeNull();
    expect((after.documents as { files: ProducedFile[] }).files).toHaveLength(4);
    shiftMs = 0;
  });

  it('a stored original that is not the one sent (SHA-256 differs: swapped or corrupted) is never sealed: the attempt fails and stores nothing', async () => {
    const req = await completedRequest(owner.key);
    const row = await requestRow(req.id);
    const doc = (row.snapshot as { documents: { storage_key: string; sha256: string }[] }).documents[0]!;
    const original = await t.rt.deps.storage.get(doc.storage_key);
    const swapped = await plainPdf(2, 'Not the agreement that was sent');
    await t.rt.deps.storage.put(doc.storage_key, swapped, 'application/pdf');
    await drainJobs(jctx, jobHandlers);
    let after = await requestRow(req.id);
    expect(after.sealing_status).toBe('pending');
    expect(after.sealing_error).toContain(
      `the stored original's SHA-256 ${sha256Hex(swapped)} is not the one sent (${doc.sha256})`,
    );
    expect(after.documents).toBeNull();
    // Nothing was stored for the request (its files go under DATA_DIR/files/requests/<account>/<id>/).
    const requestDir = join(t.config.DATA_DIR, 'files', 'requests', String(owner.accountId), String(req.id));
    expect(existsSync(requestDir) ? readdirSync(requestDir, { recursive: true }) : []).toEqual([]);

    await t.rt.deps.storage.put(doc.storage_key, original, 'application/pdf');
    shiftMs = 60_000;
    await drainJobs(jctx, jobHandlers);
    shiftMs = 0;
    after = await requestRow(req.id);
    expect(after.sealing_status).toBe('done');
    expect((after.documents as { files: ProducedFile[] }).files[0]!.original_sha256).toBe(doc.sha256);
  });

  it('a sealing worker over its memory limit (DOCUMENT_MEMORY_MB) is ended and the attempt fails cleanly: sealing_error says so, the job is retried, nothing is stored, the originals are intact, and the retry seals', {
    timeout: 120_000,
  }, async () => {
    const req = await completedRequest(owner.key);
    const row = await requestRow(req.id);
    const keys = (row.snapshot as { documents: { storage_key: string }[] }).documents.map(
      (d) => d.storage_key,
    );
    const originals = await Promise.all(keys.map((k) => t.rt.deps.storage.get(k)));
    // 64 MB: a worker process is ended as soon as loading the sealing code takes it past that.
    configureDocumentPool({ maxHeapMb: 64 });
    try {
      await drainJobs(jctx, jobHandlers);
    } finally {
      configureDocumentPool();
    }
    let after = await requestRow(req.id);
    expect(after.sealing_status).toBe('pending');
    expect(after.sealing_error).toMatch(/^attempt 1 of 8: .*too much memory/);
    expect(after.documents).toBeNull();
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', SEAL_JOB)
      .where(forRequest(req.id))
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    for (const [i, k] of keys.entries()) expect(await t.rt.deps.storage.get(k)).toEqual(originals[i]);
    // The originals handed to the ended worker as files were removed all the same.
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith(`esign-pool-${process.pid}-`))).toEqual([]);

    shiftMs = 60_000;
    await drainJobs(jctx, jobHandlers);
    shiftMs = 0;
    after = await requestRow(req.id);
    expect(after.sealing_status).toBe('done');
    expect((after.documents as { files: ProducedFile[] }).files).toHaveLength(4);
  });

  it('documents over a quarter of DOCUMENT_MEMORY_MB together get no combined file; the request is sealed with its documents and audit trail', async () => {
    const req = await completedRequest(owner.key);
    // A worker memory of a few kB: the budget for the combined file (a quarter of it) is smaller
    // than these documents, as 120 MB is smaller than ten sealed 25 MB documents.
    const tight = { ...jctx, config: { ...jctx.config, DOCUMENT_MEMORY_MB: 0.004 } };
    await drainJobs(tight, jobHandlers);
    const after = await requestRow(req.id);
    expect(after.sealing_status).toBe('done');
    expect(after.combined_storage_key).toBeNull();
    const kinds = (after.documents as { files: ProducedFile[] }).files.map((f) => f.kind);
    expect(kinds).toEqual(['document', 'document', 'audit_trail']);
    const got = await t.api('GET', `signature_requests/${req.id}`, { key: owner.key });
    expect(got.body.combined_document_url).toBeNull();
  });

  it("the last failed attempt marks sealing_status 'failed' (and the job failed)", async () => {
    const req = await completedRequest(owner.key);
    const row = await requestRow(req.id);
    const key = (row.snapshot as { documents: { storage_key: string }[] }).documents[0]!.storage_key;
    // A stored original that no longer matches the SHA-256 the request was sent with.
    await t.rt.deps.storage.put(key, await plainPdf(1, 'Swapped'), 'application/pdf');
    await t.db
      .updateTable('jobs')
      .set({ attempts: 7 })
      .where('kind', '=', SEAL_JOB)
      .where(forRequest(req.id))
      .execute();
    await drainJobs(jctx, jobHandlers);
    const after = await requestRow(req.id);
    expect(after.sealing_status).toBe('failed');
    expect(after.sealing_error).toMatch(/^attempt 8 of 8: .*SHA-256/);
    expect(after.documents).toBeNull();
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', SEAL_JOB)
      .where(forRequest(req.id))
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('failed');
  });

  it('requeueStuckSealing re-enqueues completed requests left pending without a live job, once', async () => {
    const req = await completedRequest(owner.key);
    await t.db.deleteFrom('jobs').where('kind', '=', SEAL_JOB).where(forRequest(req.id)).execute();
    const later = new Date(Date.now() + 30 * 60_000);
    expect(await requeueStuckSealing(jctx, new Date(), { olderThanMinutes: 15 })).not.toContain(req.id);
    expect(await requeueStuckSealing(jctx, later, { olderThanMinutes: 15 })).toContain(req.id);
    expect(await requeueStuckSealing(jctx, later, { olderThanMinutes: 15 })).not.toContain(req.id);
    await drainJobs(jctx, jobHandlers);
    expect((await requestRow(req.id)).sealing_status).toBe('done');
  });
});

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { MAX_DOCUMENT_BYTES } from '@esign/core';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { until } from '@esign/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 18: multipart uploads are streamed to disk as they arrive (DATA_DIR/uploads) and read
// back one document at a time, instead of being collected in memory and re-encoded as base64
// (a 25 MB document was held as chunks, their concatenation, a 33 MB string and a decoded copy).
// The files are removed once the response is sent, whatever the outcome.

let t: TestApp;
let owner: TestAccount;
const uploadsDir = () => join(t.config.DATA_DIR, 'uploads');
const uploadFiles = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()) : []);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db);
});
afterAll(async () => {
  await t?.close();
});

const BOUNDARY = 'esign-upload-boundary';
const filePart = (name: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`;

/**
 * POST `path` as multipart, written in two steps: `first` (headers and the file), a pause while
 * `whilePaused` runs, then `rest`. Resolves with the status and JSON body.
 */
function slowMultipart(
  path: string,
  first: Buffer,
  rest: Buffer,
  whilePaused: () => Promise<void>,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.baseUrl}${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.key}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(first.length + rest.length),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.write(first);
    whilePaused().then(() => req.end(rest), reject);
  });
}

describe('multipart uploads stream to disk (issue 18)', () => {
  it('POST /templates: the document is on disk, whole, while the request is still arriving; the stored document is byte-identical; the upload is removed after the response', async () => {
    const pdf = Buffer.from(await plainPdf(3));
    // The part's closing CRLF comes first: the parser may hold it back as the start of the next
    // boundary, but every byte of the file can be written.
    const first = Buffer.concat([
      Buffer.from(filePart('documents[]', 'Lease.pdf')),
      pdf,
      Buffer.from('\r\n'),
    ]);
    const rest = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="folder"\r\n\r\nHR\r\n--${BOUNDARY}--\r\n`,
    );
    const res = await slowMultipart('/api/v1/templates', first, rest, async () => {
      // Collected in memory, nothing would be on disk before the body ended.
      await until(
        'the upload on disk',
        () => uploadFiles().some((f) => statSync(join(uploadsDir(), f)).size === pdf.length),
        10_000,
      );
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Lease', folder: 'HR' });
    const row = await t.db
      .selectFrom('template_documents')
      .select(['uploaded_sha256', 'byte_size'])
      .where('template_id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.uploaded_sha256).toBe(sha256(pdf));
    await until('uploads removed', () => uploadFiles().length === 0, 5_000);
  });

  it('POST /documents/verify: the file part is checked from disk with the same answer as JSON, and removed after', async () => {
    const pdf = Buffer.from(await plainPdf(1));
    const first = Buffer.concat([Buffer.from(filePart('file', 'check.pdf')), pdf]);
    const res = await slowMultipart(
      '/api/v1/documents/verify',
      first,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      async () => {},
    );
    expect(res.status).toBe(200);
    const json = await t.api('POST', 'documents/verify', { key: owner.key, body: { file: b64(pdf) } });
    expect(res.body).toEqual(json.body);
    expect(res.body).toMatchObject({ verdict: 'unsigned', sha256: sha256(pdf), byte_size: pdf.length });
    await until('uploads removed', () => uploadFiles().length === 0, 5_000);
  });

  it('a document over 25 MB is 422 document_too_large while streaming, and nothing is left on disk', {
    timeout: 60_000,
  }, async () => {
    const form = new FormData();
    form.append('documents[]', new Blob([Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x25)]), 'big.pdf');
    const res = await fetch(`${t.baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
      body: form,
    });
    expect(res.status).toBe(422);
    expect((await res.json()).error.code).toBe('document_too_large');
    await until('uploads removed', () => uploadFiles().length === 0, 5_000);
  });

  it("a JSON body cannot name an upload reference (another request's file): 422 invalid_document", async () => {
    const pdf = await plainPdf(1);
    const res = await t.api('POST', 'templates', {
      key: owner.key,
      body: { documents: [{ name: 'x', file: `upload:${sha256(pdf)}` }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_document');
  });
});

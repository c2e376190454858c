import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TEMPLATE_FIELDS } from '@esign/core';
import { makeTemplate } from '@esign/testing/fixtures';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../../../packages/webhooks/test/loopback-server.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

const fixtures = join(import.meta.dirname, '../../../packages/webhooks/test/fixtures');
const cert = readFileSync(join(fixtures, 'hooks.example.test.cert.pem'), 'utf8');
const key = readFileSync(join(fixtures, 'hooks.example.test.key.pem'), 'utf8');

let t: TestApp;
let owner: TestAccount;
let pdf2: string;

beforeAll(async () => {
  t = await startTestApp(
    {},
    { outbound: { allowPrivate: true, ca: cert, lookup: async () => ['127.0.0.1'] } },
  );
  owner = await createTestAccount(t.db, { credits: 5 });
  pdf2 = b64(await plainPdf(2));
});
afterAll(() => t.close());

const create = (body: unknown, k = owner.key, headers: Record<string, string> = {}) =>
  t.api('POST', 'templates', { key: k, body, headers });

describe('POST /templates (JSON)', () => {
  it('defaults: name = first document name, document names "Document <n>", field names like "Signature 1", role = first role, required = true', async () => {
    const res = await create({
      documents: [{ name: 'NDA.pdf', file: pdf2 }, { file: pdf2 }],
      fields: [
        { type: 'signature', areas: [{ page: 2, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }] },
        {
          type: 'text',
          role: 'Witness',
          required: false,
          areas: [{ page: 1, x: 0, y: 0, w: 1, h: 1, document: 1 }],
        },
        { type: 'signature', role: 'Witness', areas: [{ page: 1, x: 0.5, y: 0.5, w: 0.2, h: 0.05 }] },
      ],
    });
    expect(res.status).toBe(201);
    const tpl = res.body;
    expect(tpl).toMatchObject({
      object: 'template',
      name: 'NDA',
      external_id: null,
      folder: null,
      archived_at: null,
    });
    expect(tpl.roles).toEqual(['Witness']);
    expect(tpl.documents.map((d: any) => d.name)).toEqual(['NDA', 'Document 2']);
    expect(tpl.fields).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Signature 1',
        type: 'signature',
        role: 'Witness',
        required: true,
        areas: [{ page: 2, x: 0.1, y: 0.1, w: 0.2, h: 0.05, document: 0 }],
      },
      {
        id: expect.any(String),
        name: 'Text Field 1',
        type: 'text',
        role: 'Witness',
        required: false,
        areas: [{ page: 1, x: 0, y: 0, w: 1, h: 1, document: 1 }],
      },
      {
        id: expect.any(String),
        name: 'Signature 2',
        type: 'signature',
        role: 'Witness',
        required: true,
        areas: [expect.objectContaining({ page: 1 })],
      },
    ]);
    expect(tpl.edit_url).toBe(`${t.baseUrl}/templates/${tpl.id}/edit`);
    expect(tpl.created_by).toEqual({ id: owner.userId, email: owner.email, name: expect.any(String) });
  });

  it('roles come from fields in order; fields without a role take the first role; a template with none gets "Signer"', async () => {
    const a = await create({
      documents: [{ file: pdf2 }],
      fields: [signatureField('Client'), signatureField('Agent'), signatureField()],
    });
    expect(a.body.roles).toEqual(['Client', 'Agent']);
    expect(a.body.fields.map((f: any) => f.role)).toEqual(['Client', 'Agent', 'Client']);
    const b = await create({ documents: [{ file: pdf2 }] });
    expect(b.body.roles).toEqual(['Signer']);
    expect(b.body.fields).toEqual([]);
  });

  it('a data: URI prefix is allowed; folder is created if missing; external_id kept', async () => {
    const res = await create({
      name: 'Lease',
      external_id: 'ext-1',
      folder: 'Legal',
      documents: [{ file: `data:application/pdf;base64,${pdf2}` }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Lease', external_id: 'ext-1', folder: 'Legal' });
    expect(res.body.documents[0].page_count).toBe(2);
  });

  it('document url and preview_image_url are signed links that work without an API key and cannot be altered', async () => {
    const tpl = await makeTemplate(t, owner);
    const doc = tpl.documents[0];
    const pdf = await fetch(doc.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const png = await fetch(doc.preview_image_url);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const tampered = doc.url.replace(
      /\/files\/(\w)/,
      (_m: string, c: string) => `/files/${c === 'A' ? 'B' : 'A'}`,
    );
    expect((await fetch(tampered)).status).toBe(404);
  });

  it('an https:// URL is downloaded through the outbound guard', async () => {
    const bytes = await plainPdf(3);
    const server = await startLoopbackServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(Buffer.from(bytes));
      },
      { cert, key },
    );
    try {
      const res = await create({
        documents: [{ file: `https://hooks.example.test:${server.port}/doc.pdf` }],
      });
      expect(res.status).toBe(201);
      expect(res.body.documents[0].page_count).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('Idempotent: a retry with the same Idempotency-Key replays the first 201 with Idempotent-Replayed: true', async () => {
    const body = { name: 'Idem', documents: [{ file: pdf2 }] };
    const first = await create(body, owner.key, { 'idempotency-key': 'tpl-1' });
    const second = await create(body, owner.key, { 'idempotency-key': 'tpl-1' });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    const reused = await create({ ...body, name: 'Other' }, owner.key, { 'idempotency-key': 'tpl-1' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    const failed = await create({ documents: [] }, owner.key, { 'idempotency-key': 'tpl-2' });
    expect(failed.status).toBe(422);
    expect((await create(body, owner.key, { 'idempotency-key': 'tpl-2' })).status).toBe(201);
  });

  it('template.created is written as an event row in the same transaction', async () => {
    const tpl = await makeTemplate(t, owner);
    const events = await t.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('object_type', '=', 'template')
      .where('object_id', '=', tpl.id)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['template.created']);
  });
});

describe('POST /templates document errors', () => {
  const code = async (body: unknown) => {
    const res = await create(body);
    return [res.status, res.body?.error?.code, res.body?.error?.message];
  };

  it('422 missing_documents without documents', async () => {
    expect((await code({ name: 'x' })).slice(0, 2)).toEqual([422, 'missing_documents']);
    expect((await code({ documents: [] })).slice(0, 2)).toEqual([422, 'missing_documents']);
  });

  it('422 too_many_documents for more than 10', async () => {
    expect(
      (await code({ documents: Array.from({ length: 11 }, () => ({ file: pdf2 })) })).slice(0, 2),
    ).toEqual([422, 'too_many_documents']);
  });

  it('422 document_too_large over 25 MB, detected before decoding', async () => {
    const big = 'A'.repeat(Math.ceil(((25 * 1024 * 1024 + 10) * 4) / 3));
    expect((await code({ documents: [{ file: big }] })).slice(0, 2)).toEqual([422, 'document_too_large']);
  });

  it('422 invalid_document: empty, not base64, not downloadable, http://, private address', async () => {
    for (const file of ['   ', 'not base64!!', 'http://example.com/a.pdf']) {
      expect((await code({ documents: [{ file }] })).slice(0, 2)).toEqual([422, 'invalid_document']);
    }
    const strict = await startTestApp();
    try {
      const a = await createTestAccount(strict.db);
      const res = await strict.api('POST', 'templates', {
        key: a.key,
        body: { documents: [{ file: 'https://127.0.0.1:9/x.pdf' }] },
      });
      expect(res.body.error.code).toBe('invalid_document');
      expect(res.body.error.message).toMatch(/not allowed/);
    } finally {
      await strict.close();
    }
  });

  it('422 invalid_document "document empty": an empty file, in JSON and as an empty multipart file', async () => {
    const [status, errorCode, message] = await code({ documents: [{ file: '' }] });
    expect([status, errorCode]).toEqual([422, 'invalid_document']);
    expect(message).toMatch(/documents\[0\].* empty/);
    const form = new FormData();
    form.append('documents[]', new Blob([]), 'empty.pdf');
    const res = await fetch(`${t.baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
      body: form,
    });
    expect([res.status, (await res.json()).error.code]).toEqual([422, 'invalid_document']);
  });

  it('422 invalid_document for a corrupt PDF; 422 invalid_file_type for a file that is neither PDF nor image', async () => {
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200, 7)]);
    expect((await code({ documents: [{ file: corrupt.toString('base64') }] })).slice(0, 2)).toEqual([
      422,
      'invalid_document',
    ]);
    const zip = Buffer.from('PK\u0003\u0004 this is a zip archive, not a document');
    expect((await code({ documents: [{ file: zip.toString('base64') }] })).slice(0, 2)).toEqual([
      422,
      'invalid_file_type',
    ]);
  });
});

describe('field definitions: 422 invalid_field', () => {
  const field = (over: Record<string, unknown>) => ({
    type: 'text',
    areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }],
    ...over,
  });
  const cases: [string, unknown][] = [
    ['unknown type', field({ type: 'hologram' })],
    ['missing options for select', field({ type: 'select' })],
    ['missing options for radio', field({ type: 'radio' })],
    ['missing options for multiple', field({ type: 'multiple' })],
    ['missing areas', { type: 'text' }],
    ['empty areas', field({ areas: [] })],
    ['a page that does not exist', field({ areas: [{ page: 3, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] })],
    ['page 0', field({ areas: [{ page: 0, x: 0.1, y: 0.1, w: 0.1, h: 0.1 }] })],
    ['x out of 0..1', field({ areas: [{ page: 1, x: 1.2, y: 0.1, w: 0.1, h: 0.1 }] })],
    ['w of 0', field({ areas: [{ page: 1, x: 0.1, y: 0.1, w: 0, h: 0.1 }] })],
    ['h above 1', field({ areas: [{ page: 1, x: 0, y: 0, w: 0.1, h: 1.5 }] })],
    [
      'document index out of range',
      field({ areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.1, h: 0.1, document: 1 }] }),
    ],
  ];
  it.each(cases)('%s', async (_name, f) => {
    const res = await create({ documents: [{ file: pdf2 }], fields: [f] });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_field');
    expect(res.body.error.message).toContain('fields[0]');
  });

  it('more than 10 roles', async () => {
    const res = await create({
      documents: [{ file: pdf2 }],
      fields: Array.from({ length: 11 }, (_, i) => signatureField(`R${i}`)),
    });
    expect(res.body.error.code).toBe('invalid_field');
  });

  it('options are kept only on select, radio and multiple', async () => {
    const res = await create({
      documents: [{ file: pdf2 }],
      fields: [field({ type: 'select', options: ['a', 'b'] }), field({ options: ['x'] })],
    });
    expect(res.body.fields[0].options).toEqual(['a', 'b']);
    expect(res.body.fields[1]).not.toHaveProperty('options');
  });
});

describe('POST /templates (multipart/form-data)', () => {
  it('documents[] files and text fields; name defaults to the first file name', async () => {
    const form = new FormData();
    form.append(
      'documents[]',
      new Blob([Buffer.from(await plainPdf(1))], { type: 'application/pdf' }),
      'Offer Letter.pdf',
    );
    form.append(
      'documents[]',
      new Blob([Buffer.from(await plainPdf(2))], { type: 'application/pdf' }),
      'Annex.pdf',
    );
    form.append('folder', 'HR');
    const res = await fetch(`${t.baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
      body: form,
    });
    const body = await res.json();
    expect(res.status).toBe(201);
    expect(body).toMatchObject({ name: 'Offer Letter', folder: 'HR' });
    expect(body.documents.map((d: any) => [d.name, d.page_count])).toEqual([
      ['Offer Letter', 1],
      ['Annex', 2],
    ]);
  });

  it('`fields` is accepted in JSON requests only', async () => {
    const form = new FormData();
    form.append('documents[]', new Blob([Buffer.from(await plainPdf(1))]), 'a.pdf');
    form.append('fields', '[]');
    const res = await fetch(`${t.baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
      body: form,
    });
    expect(res.status).toBe(422);
    expect((await res.json()).error.code).toBe('invalid_parameter');
  });

  it('422 missing_documents with no files', async () => {
    const form = new FormData();
    form.append('name', 'Nothing');
    const res = await fetch(`${t.baseUrl}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}` },
      body: form,
    });
    expect((await res.json()).error.code).toBe('missing_documents');
  });
});

describe('GET /templates', () => {
  it('newest first, items omit fields and documents, archived excluded unless archived=true, filters q/external_id/folder', async () => {
    const acct = await createTestAccount(t.db);
    const mk = (body: Record<string, unknown>) => makeTemplate(t, acct, body);
    const a = await mk({ name: 'Alpha Lease', external_id: 'A', folder: 'F1' });
    const b = await mk({ name: 'Beta NDA', external_id: 'B' });
    const c = await mk({ name: 'Gamma lease' });
    await t.api('POST', `templates/${b.id}/archive`, { key: acct.key });
    const list = await t.api('GET', 'templates', { key: acct.key });
    expect(list.body.object).toBe('list');
    expect(list.body.data.map((x: any) => x.id)).toEqual([c.id, a.id]);
    expect(list.body.data[0]).not.toHaveProperty('fields');
    expect(list.body.data[0]).not.toHaveProperty('documents');
    expect(
      (await t.api('GET', 'templates?archived=true', { key: acct.key })).body.data.map((x: any) => x.id),
    ).toEqual([b.id]);
    expect(
      (await t.api('GET', 'templates?q=LEASE', { key: acct.key })).body.data.map((x: any) => x.id),
    ).toEqual([c.id, a.id]);
    expect(
      (await t.api('GET', 'templates?external_id=A', { key: acct.key })).body.data.map((x: any) => x.id),
    ).toEqual([a.id]);
    expect(
      (await t.api('GET', 'templates?folder=F1', { key: acct.key })).body.data.map((x: any) => x.id),
    ).toEqual([a.id]);
    expect((await t.api('GET', 'templates?q=%25', { key: acct.key })).body.data).toEqual([]);
  });

  it('Pagination: cursor walks pages; limit below 1 becomes 20, above 100 becomes 100', async () => {
    const acct = await createTestAccount(t.db);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await makeTemplate(t, acct)).id);
    const p1 = await t.api('GET', 'templates?limit=2', { key: acct.key });
    expect(p1.body).toMatchObject({ has_more: true, next_cursor: ids[3] });
    expect(p1.body.data.map((x: any) => x.id)).toEqual([ids[4], ids[3]]);
    const p3 = await t.api('GET', `templates?limit=2&cursor=${ids[1]}`, { key: acct.key });
    expect(p3.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(p3.body.data.map((x: any) => x.id)).toEqual([ids[0]]);
    expect((await t.api('GET', 'templates?limit=0', { key: acct.key })).body.data).toHaveLength(5);
    expect((await t.api('GET', 'templates?limit=1000', { key: acct.key })).status).toBe(200);
    expect((await t.api('GET', 'templates?limit=abc', { key: acct.key })).body.error.code).toBe(
      'invalid_parameter',
    );
  });
});

describe('PATCH /templates/{id}', () => {
  it('roles are renamed by position (fields follow), extra names add roles, roles are never removed', async () => {
    const tpl = await makeTemplate(t, owner, { fields: [signatureField('A'), signatureField('B')] });
    const res = await t.api('PATCH', `templates/${tpl.id}`, {
      key: owner.key,
      body: { roles: ['B', 'A', 'C'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual(['B', 'A', 'C']);
    expect(res.body.fields.map((f: any) => f.role)).toEqual(['B', 'A']);
    const fewer = await t.api('PATCH', `templates/${tpl.id}`, { key: owner.key, body: { roles: ['First'] } });
    expect(fewer.body.roles).toEqual(['First', 'A', 'C']);
  });

  it('fields replaces all, [] removes all, new roles named there are added; external_id null clears; PUT is an alias', async () => {
    const tpl = await makeTemplate(t, owner, { external_id: 'x1' });
    const replaced = await t.api('PUT', `templates/${tpl.id}`, {
      key: owner.key,
      body: { fields: [signatureField('Buyer')], external_id: null, name: 'N2', folder: 'New' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'N2', external_id: null, folder: 'New' });
    expect(replaced.body.roles).toEqual(['Signer', 'Buyer']);
    expect(replaced.body.fields).toHaveLength(1);
    const cleared = await t.api('PATCH', `templates/${tpl.id}`, { key: owner.key, body: { fields: [] } });
    expect(cleared.body.fields).toEqual([]);
    const events = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_id', '=', tpl.id)
      .where('type', '=', 'template.updated')
      .execute();
    expect(events).toHaveLength(2);
  });

  it('invalid fields give 422 invalid_field and change nothing', async () => {
    const tpl = await makeTemplate(t, owner);
    const res = await t.api('PATCH', `templates/${tpl.id}`, {
      key: owner.key,
      body: { name: 'Nope', fields: [{ type: 'text', areas: [{ page: 9, x: 0, y: 0, w: 0.1, h: 0.1 }] }] },
    });
    expect(res.body.error.code).toBe('invalid_field');
    expect((await t.api('GET', `templates/${tpl.id}`, { key: owner.key })).body.name).toBe(tpl.name);
  });
});

describe('duplicate and archive', () => {
  it('duplicate copies documents, fields (new ids) and roles with a (Clone) suffix', async () => {
    const tpl = await makeTemplate(t, owner, { fields: [signatureField('Boss')] });
    const res = await t.api('POST', `templates/${tpl.id}/duplicate`, { key: owner.key });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(`${tpl.name} (Clone)`);
    expect(res.body.roles).toEqual(tpl.roles);
    expect(res.body.fields.map((f: any) => f.name)).toEqual(tpl.fields.map((f: any) => f.name));
    expect(res.body.fields[0].id).not.toBe(tpl.fields[0].id);
    expect(res.body.documents).toHaveLength(1);
    const named = await t.api('POST', `templates/${tpl.id}/duplicate`, {
      key: owner.key,
      body: { name: 'Copy', folder: 'Copies', external_id: 'c' },
    });
    expect(named.body).toMatchObject({ name: 'Copy', folder: 'Copies', external_id: 'c' });
  });

  it('archive is idempotent, sets archived_at, and template.archived fires only the first time', async () => {
    const tpl = await makeTemplate(t, owner);
    const a1 = await t.api('POST', `templates/${tpl.id}/archive`, { key: owner.key });
    const a2 = await t.api('POST', `templates/${tpl.id}/archive`, { key: owner.key });
    expect(a1.status).toBe(200);
    expect(a1.body.archived_at).not.toBeNull();
    expect(a2.body.archived_at).toBe(a1.body.archived_at);
    const events = await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_id', '=', tpl.id)
      .where('type', '=', 'template.archived')
      .execute();
    expect(events).toHaveLength(1);
  });
});

describe('page images', () => {
  it('the worker renders a new template’s page images ahead of the first view (cached in storage)', async () => {
    const tpl = await makeTemplate(t, owner);
    const row = await t.db
      .selectFrom('template_documents')
      .select('storage_key')
      .where('template_id', '=', tpl.id)
      .executeTakeFirstOrThrow();
    expect(await t.rt.deps.storage.exists(`${row.storage_key}.page-1.png`)).toBe(false);
    const { drainJobs } = await import('@esign/core/testing');
    const { jobHandlers } = await import('@esign/core/jobs');
    await drainJobs(
      { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
    );
    expect(await t.rt.deps.storage.exists(`${row.storage_key}.page-1.png`)).toBe(true);
    expect(await t.rt.deps.storage.exists(`${row.storage_key}.page-2.png`)).toBe(true);
  });
});

// After 'page images', whose drain of every queued job should not also render these templates.
describe('issue 29 item 3: many fields', () => {
  /** `n` text fields spread over the document's pages, two roles, unnamed (names are generated). */
  const manyFields = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      type: 'text',
      role: i % 2 ? 'Agent' : 'Client',
      required: false,
      areas: [{ page: (i % 2) + 1, x: (i % 100) / 100, y: Math.floor(i / 100) / 101, w: 0.01, h: 0.009 }],
    }));

  it(`issue 29 item 3: a template with ${MAX_TEMPLATE_FIELDS.toLocaleString('en')} fields (the documented maximum) is 201 and readable, sending a signature request from it works, and PATCH replaces them`, async () => {
    const acct = await createTestAccount(t.db, { credits: 1 });
    const res = await create(
      { documents: [{ file: pdf2 }], fields: manyFields(MAX_TEMPLATE_FIELDS) },
      acct.key,
    );
    expect(res.status).toBe(201);
    expect(res.body.fields).toHaveLength(MAX_TEMPLATE_FIELDS);
    const got = await t.api('GET', `templates/${res.body.id}`, { key: acct.key });
    expect(got.status).toBe(200);
    expect(got.body.fields).toHaveLength(MAX_TEMPLATE_FIELDS);
    expect(got.body.fields.at(-1)).toMatchObject({
      name: `Text Field ${MAX_TEMPLATE_FIELDS}`,
      role: 'Agent',
    });
    const sent = await t.api('POST', 'signature_requests', {
      key: acct.key,
      body: {
        template_id: res.body.id,
        signers: [
          { role: 'Client', email: 'client@example.com' },
          { role: 'Agent', email: 'agent@example.com' },
        ],
        send_email: false,
      },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.signers).toHaveLength(2);
    // PATCH carries as many (its body limit leaves room for them) and replaces them all.
    const patched = await t.api('PATCH', `templates/${res.body.id}`, {
      key: acct.key,
      body: { fields: manyFields(MAX_TEMPLATE_FIELDS).reverse() },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.fields).toHaveLength(MAX_TEMPLATE_FIELDS);
    expect(patched.body.fields[0].role).toBe('Agent');
  }, 120_000);

  it('issue 29 item 3: one field past the maximum is 422 invalid_field naming `fields`, through POST and PATCH', async () => {
    const over = manyFields(MAX_TEMPLATE_FIELDS + 1);
    const res = await create({ documents: [{ file: pdf2 }], fields: over });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_field');
    expect(res.body.error.message).toContain('fields');
    expect(res.body.error.message).toContain(MAX_TEMPLATE_FIELDS.toLocaleString('en'));
    const tpl = await create({ documents: [{ file: pdf2 }], fields: [signatureField()] });
    const patched = await t.api('PATCH', `templates/${tpl.body.id}`, {
      key: owner.key,
      body: { fields: over },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.error.code).toBe('invalid_field');
  });

  it('issue 29 item 3: the maximum counts the fields text tags bring: the maximum in `fields` plus one tag is 422 invalid_field', async () => {
    const tagged = b64(await plainPdf(2, '{{Sign here;type=signature}}'));
    const res = await create({ documents: [{ file: tagged }], fields: manyFields(MAX_TEMPLATE_FIELDS) });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_field');
    expect(res.body.error.message).toMatch(/^fields: .*would have 10,00[12]/);
  });
});

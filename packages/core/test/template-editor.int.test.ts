import type { TestAccount } from '@esign/testing/accounts';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTaggedPdf } from '../../pdf/test/ingest-fixtures.ts';
import { MAX_TEMPLATE_FIELDS } from '../src/contracts/templates.ts';
import { toCoreError } from '../src/trpc.ts';
import { type CoreHarness, codeOf, startCore, twoRoleTemplate } from './caller.ts';

// The template editor's procedures (issue 12): templates.editor, editorSave (PATCH /templates/{id}'s
// rules plus a version precondition), addDocument and preview.

let h: CoreHarness;
let owner: TestAccount;
let api: Awaited<ReturnType<CoreHarness['as']>>;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 5 });
  api = await h.as(owner.key);
});
afterAll(async () => h?.close());

type Template = Awaited<ReturnType<typeof twoRoleTemplate>>;
type Def = NonNullable<Parameters<typeof api.templates.editorSave>[0]['fields']>[number];

/** The template's fields as field definitions, the way the editor sends them back. */
const defsOf = (t: Pick<Template, 'fields'>): Def[] =>
  (t.fields ?? []).map((f) => ({
    name: f.name!,
    type: f.type,
    role: f.role,
    required: f.required,
    ...(f.options ? { options: f.options } : {}),
    areas: f.areas,
  }));

const updatedEvents = async (id: number) =>
  (
    await h.db
      .selectFrom('webhook_events')
      .select('id')
      .where('type', '=', 'template.updated')
      .where('object_id', '=', id)
      .execute()
  ).length;

const area = (page = 1) => ({ page, x: 0.1, y: 0.1, w: 0.3, h: 0.05, document: 0 });

describe('templates.editorSave: PATCH /templates/{id} with a version precondition', () => {
  it('saves roles (renamed by position) and fields together, counts the version up and records template.updated once', async () => {
    const tpl = await twoRoleTemplate(api);
    const opened = await api.templates.editor({ id: tpl.id });
    expect(opened.version).toBe(1);
    expect(opened.documents[0]!.pages).toHaveLength(2);
    expect(opened.documents[0]!.pages[0]!.image_url).toMatch(/\/files\/.+\.png$/);
    const before = await updatedEvents(tpl.id);
    const fields = defsOf(tpl).map((f) => (f.role === 'Client' ? { ...f, role: 'Buyer' } : f));
    const saved = await api.templates.editorSave({
      id: tpl.id,
      version: 1,
      roles: ['Buyer', 'Agent'],
      fields,
    });
    expect(saved.status).toBe('saved');
    expect(saved.version).toBe(2);
    expect(saved.template.roles).toEqual(['Buyer', 'Agent']);
    expect(saved.template.fields!.filter((f) => f.role === 'Buyer')).toHaveLength(3);
    expect(await updatedEvents(tpl.id)).toBe(before + 1);
  });

  it('a save naming an older version is a conflict: nothing changes, no event, the current template comes back', async () => {
    const tpl = await twoRoleTemplate(api);
    await api.templates.editorSave({ id: tpl.id, version: 1, name: 'First editor' });
    const events = await updatedEvents(tpl.id);
    const stale = await api.templates.editorSave({
      id: tpl.id,
      version: 1,
      name: 'Second editor',
      fields: [],
    });
    expect(stale.status).toBe('conflict');
    expect(stale.version).toBe(2);
    expect(stale.template.name).toBe('First editor');
    expect(stale.template.fields).toHaveLength(4);
    expect(await updatedEvents(tpl.id)).toBe(events);
  });

  it('PATCH /templates/{id} counts the version up too (it needs no version), so an editor opened before it meets a conflict', async () => {
    const tpl = await twoRoleTemplate(api);
    const opened = await api.templates.editor({ id: tpl.id });
    await api.templates.update({ id: tpl.id, name: 'Changed over the API' });
    const answer = await api.templates.editorSave({ id: tpl.id, version: opened.version, name: 'Editor' });
    expect(answer.status).toBe('conflict');
    expect(answer.template.name).toBe('Changed over the API');
  });

  it('invalid fields give 422 invalid_field as PATCH does (page out of range, options missing, area beyond the page), and change nothing', async () => {
    const tpl = await twoRoleTemplate(api);
    const bad: Def[] = [
      { name: 'Far', type: 'text', role: 'Client', required: true, areas: [area(3)] },
      { name: 'Pick', type: 'select', role: 'Client', required: true, areas: [area()] },
      { name: 'Wide', type: 'text', role: 'Client', required: true, areas: [{ ...area(), x: 0.8, w: 0.3 }] },
    ];
    for (const field of bad) {
      expect(await codeOf(api.templates.editorSave({ id: tpl.id, version: 1, fields: [field] }))).toBe(
        'invalid_field',
      );
      expect(await codeOf(api.templates.update({ id: tpl.id, fields: [field as never] }))).toBe(
        'invalid_field',
      );
    }
    const after = await api.templates.editor({ id: tpl.id });
    expect(after.version).toBe(1);
    expect(after.template.fields).toHaveLength(4);
  });

  it('roles: at most 10 (spec limit "Roles per template"): 10 are saved, an 11th role or an 11th role named by fields is refused', async () => {
    const tpl = await twoRoleTemplate(api);
    const ten = ['Client', 'Agent', ...Array.from({ length: 8 }, (_, i) => `Witness ${i + 1}`)];
    const saved = await api.templates.editorSave({ id: tpl.id, version: 1, roles: ten });
    expect(saved.template.roles).toEqual(ten);
    expect(
      await codeOf(api.templates.editorSave({ id: tpl.id, version: 2, roles: [...ten, 'Eleventh'] })),
    ).toBe('invalid_parameter');
    const eleventh: Def = { name: 'X', type: 'text', role: 'Eleventh', required: true, areas: [area()] };
    expect(
      await codeOf(api.templates.editorSave({ id: tpl.id, version: 2, fields: [...defsOf(tpl), eleventh] })),
    ).toBe('invalid_field');
    expect((await api.templates.editor({ id: tpl.id })).template.roles).toEqual(ten);
  });

  it('a field has areas on several pages under one name, at most 100 areas (101 is invalid_field)', async () => {
    const tpl = await twoRoleTemplate(api);
    const twoPages: Def = {
      name: 'Initials',
      type: 'initials',
      role: 'Client',
      required: true,
      areas: [area(1), area(2)],
    };
    const saved = await api.templates.editorSave({ id: tpl.id, version: 1, fields: [twoPages] });
    expect(saved.template.fields).toEqual([
      expect.objectContaining({ name: 'Initials', areas: [area(1), area(2)] }),
    ]);
    const many = { ...twoPages, areas: Array.from({ length: 101 }, () => area(1)) };
    expect(await codeOf(api.templates.editorSave({ id: tpl.id, version: 2, fields: [many] }))).toBe(
      'invalid_field',
    );
  });

  it('issue 42: a template read (GET, its cells field included) is written back by PATCH as read, and reads the same', async () => {
    const tpl = await twoRoleTemplate(api);
    const cells: Def = {
      name: 'Account number',
      type: 'cells',
      role: 'Client',
      required: true,
      areas: [area()],
    };
    await api.templates.editorSave({ id: tpl.id, version: 1, fields: [...defsOf(tpl), cells] });
    const read = await api.templates.get({ id: tpl.id });
    expect(read.fields!.map((f) => f.type)).toContain('cells');
    const written = await api.templates.update({ ...read, fields: read.fields! });
    expect(defsOf(written)).toEqual(defsOf(read));
    expect(written.roles).toEqual(read.roles);
  });

  it('cells fields (which only text tags and PDF forms make) can be saved back by the editor and by PATCH', async () => {
    const tpl = await twoRoleTemplate(api);
    const cells: Def = {
      name: 'Account number',
      type: 'cells',
      role: 'Client',
      required: true,
      areas: [area()],
    };
    const saved = await api.templates.editorSave({ id: tpl.id, version: 1, fields: [cells] });
    expect(saved.template.fields!.map((f) => f.type)).toEqual(['cells']);
    const patched = await api.templates.update({ id: tpl.id, fields: [cells] });
    expect(patched.fields!.map((f) => f.type)).toEqual(['cells']);
  });

  it('a read-only key cannot save, add documents or preview; another account sees 404 not_found', async () => {
    const tpl = await twoRoleTemplate(api);
    const read = await h.as((await owner.newKey({ permission: 'read' })).key);
    expect((await read.templates.editor({ id: tpl.id })).version).toBe(1);
    expect(await codeOf(read.templates.editorSave({ id: tpl.id, version: 1, name: 'x' }))).toBe(
      'read_only_api_key',
    );
    expect(await codeOf(read.templates.preview({ id: tpl.id, role: 'Client' }))).toBe('read_only_api_key');
    expect(
      await codeOf(read.templates.addDocument({ id: tpl.id, version: 1, file: b64(await plainPdf(1)) })),
    ).toBe('read_only_api_key');
    const other = await h.as((await h.account()).key);
    expect(await codeOf(other.templates.editor({ id: tpl.id }))).toBe('not_found');
    expect(await codeOf(other.templates.editorSave({ id: tpl.id, version: 1, name: 'x' }))).toBe('not_found');
  });
});

/** Two documents (one and two pages), a field on each. */
async function twoDocumentTemplate() {
  return api.templates.create({
    name: 'Two documents',
    documents: [
      { name: 'main.pdf', file: b64(await plainPdf(1, 'Main')) },
      { name: 'annex.pdf', file: b64(await plainPdf(2, 'Annex')) },
    ],
    fields: [
      { name: 'On main', type: 'text', role: 'Client', required: true, areas: [area(1)] },
      {
        name: 'On annex',
        type: 'signature',
        role: 'Client',
        required: true,
        areas: [{ ...area(2), document: 1 }],
      },
    ],
  });
}

async function taggedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Witness: {{Witness signature;type=signature;role=Witness}}', {
    x: 72,
    y: 600,
    size: 12,
    font,
  });
  return doc.save();
}

describe('documents in the editor', () => {
  it('reordered and removed by id: the fields\u2019 areas follow their document, those on a removed one go', async () => {
    const tpl = await twoDocumentTemplate();
    const [main, annex] = tpl.documents!.map((d) => d.id);
    const swapped = await api.templates.editorSave({ id: tpl.id, version: 1, documents: [annex!, main!] });
    expect(swapped.documents.map((d) => d.id)).toEqual([annex, main]);
    expect(swapped.template.fields!.map((f) => [f.name, f.areas[0]!.document])).toEqual([
      ['On main', 1],
      ['On annex', 0],
    ]);
    const removed = await api.templates.editorSave({ id: tpl.id, version: 2, documents: [annex!] });
    expect(removed.template.documents!.map((d) => d.name)).toEqual(['annex']);
    expect(removed.template.fields!.map((f) => f.name)).toEqual(['On annex']);
    expect(await codeOf(api.templates.editorSave({ id: tpl.id, version: 3, documents: [] }))).toBe(
      'invalid_parameter',
    );
    expect(await codeOf(api.templates.editorSave({ id: tpl.id, version: 3, documents: [main!] }))).toBe(
      'invalid_parameter',
    );
    expect(
      await codeOf(api.templates.editorSave({ id: tpl.id, version: 3, documents: [annex!, annex!] })),
    ).toBe('invalid_parameter');
  });

  it('addDocument appends a document whose text tags become fields (new role added) and counts the version up; a stale version is a conflict', async () => {
    const tpl = await twoDocumentTemplate();
    const added = await api.templates.addDocument({
      id: tpl.id,
      version: 1,
      name: 'witness.pdf',
      file: b64(await taggedPdf()),
    });
    expect(added.status).toBe('saved');
    expect(added.version).toBe(2);
    expect(added.documents.map((d) => d.name)).toEqual(['main', 'annex', 'witness']);
    expect(added.template.roles).toEqual(['Client', 'Witness']);
    const tagged = added.template.fields!.find((f) => f.name === 'Witness signature')!;
    expect(tagged).toMatchObject({ type: 'signature', role: 'Witness' });
    expect(tagged.areas[0]!.document).toBe(2);
    const stale = await api.templates.addDocument({ id: tpl.id, version: 1, file: b64(await plainPdf(1)) });
    expect(stale.status).toBe('conflict');
    expect(stale.documents).toHaveLength(3);
  });

  it('issue 47: a document added with role tags adds the role with its kind; a role tag making a role with fields a viewer is 422 invalid_field and changes nothing', async () => {
    const tpl = await twoDocumentTemplate();
    const pdf = await makeTaggedPdf([
      [
        { runs: ['Checked by {{role=Reviewer;kind=approver}}'], y: 700 },
        { runs: ['Witness: {{Witness signature;type=signature;role=Witness}}'], y: 600 },
      ],
    ]);
    const added = await api.templates.addDocument({ id: tpl.id, version: 1, file: b64(pdf) });
    expect(added.status).toBe('saved');
    expect(added.template.roles).toEqual(['Client', 'Reviewer', 'Witness']);
    expect(added.template.role_kinds).toEqual({ Reviewer: 'approver' });
    expect(added.template.fields!.filter((f) => f.role === 'Reviewer')).toEqual([]);
    const viewer = await makeTaggedPdf([[{ runs: ['{{role=Client;kind=viewer}}'], y: 700 }]]);
    const refused = await api.templates
      .addDocument({ id: tpl.id, version: 2, file: b64(viewer) })
      .catch((e: unknown) => toCoreError(e));
    expect(refused).toMatchObject({
      code: 'invalid_field',
      message: expect.stringContaining('role "Client" is a viewer role'),
    });
    const after = await api.templates.get({ id: tpl.id });
    expect(after.documents).toHaveLength(3);
    expect(after.role_kinds).toEqual({ Reviewer: 'approver' });
  });

  it('a template has at most 10 documents (spec limit "Documents per template"): the 11th is 422 too_many_documents', async () => {
    const one = b64(await plainPdf(1));
    const tpl = await api.templates.create({ documents: Array.from({ length: 10 }, () => ({ file: one })) });
    expect(await codeOf(api.templates.addDocument({ id: tpl.id, version: 1, file: one }))).toBe(
      'too_many_documents',
    );
    expect((await api.templates.editor({ id: tpl.id })).documents).toHaveLength(10);
  });
});

describe('issue 29 item 3: the editor shares the field maximum of the API and MCP', () => {
  /** `count` one-area text fields of the Client role, as the editor sends them. */
  const manyDefs = (count: number): Def[] =>
    Array.from({ length: count }, (_, i) => ({
      name: `Field ${i + 1}`,
      type: 'text' as const,
      role: 'Client',
      required: false,
      areas: [{ ...area(1), y: (i % 90) / 100 }],
    }));

  it(`editorSave keeps ${MAX_TEMPLATE_FIELDS.toLocaleString('en')} fields; one more is 422 invalid_field naming \`fields\` and the maximum, and changes nothing`, async () => {
    const tpl = await twoRoleTemplate(api);
    const over = await api.templates
      .editorSave({ id: tpl.id, version: 1, fields: manyDefs(MAX_TEMPLATE_FIELDS + 1) })
      .then(
        () => null,
        (err: unknown) => toCoreError(err),
      );
    expect(over).toMatchObject({ code: 'invalid_field', status: 422 });
    expect(over!.message).toMatch(/fields/);
    expect(over!.message).toContain(MAX_TEMPLATE_FIELDS.toLocaleString('en'));
    expect((await api.templates.editor({ id: tpl.id })).version).toBe(1);
    const saved = await api.templates.editorSave({
      id: tpl.id,
      version: 1,
      fields: manyDefs(MAX_TEMPLATE_FIELDS),
    });
    expect(saved.status).toBe('saved');
    expect(saved.template.fields).toHaveLength(MAX_TEMPLATE_FIELDS);
  }, 120_000);

  it('a document added in the editor whose text tag would pass the maximum is 422 invalid_field; the template keeps its documents and fields', async () => {
    const tpl = await api.templates.create({
      documents: [{ file: b64(await plainPdf(1)) }],
      fields: manyDefs(MAX_TEMPLATE_FIELDS) as never,
    });
    const added = await api.templates
      .addDocument({ id: tpl.id, version: 1, file: b64(await taggedPdf()) })
      .then(
        () => null,
        (err: unknown) => toCoreError(err),
      );
    expect(added).toMatchObject({ code: 'invalid_field' });
    expect(added!.message).toMatch(/would have 10,001/);
    const after = await api.templates.editor({ id: tpl.id });
    expect(after.version).toBe(1);
    expect(after.documents).toHaveLength(1);
    expect(after.template.fields).toHaveLength(MAX_TEMPLATE_FIELDS);
  }, 120_000);
});

describe('templates.preview: the signing page as a role sees the template, nothing saved', () => {
  const tokenOfUrl = (url: string) => url.split('/s/')[1]!;

  it('opens the role\u2019s fields with nothing filled; saving, signing or declining with it is refused; no request, no credit', async () => {
    const tpl = await twoRoleTemplate(api);
    const credits = await api.account.credits();
    const { url, expires_at } = await api.templates.preview({ id: tpl.id, role: 'Client' });
    expect(new Date(expires_at).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const token = tokenOfUrl(url);
    const signer = h.anonymous();
    const open = await signer.signing.open({ token });
    expect(open.preview).toBe(true);
    expect(open.signer.role).toBe('Client');
    expect(open.fields.map((f) => f.name).sort()).toEqual([
      'Client name',
      'Client photo',
      'Client signature',
    ]);
    expect(open.fields.every((f) => f.value === null && !f.prefilled)).toBe(true);
    expect(open.documents[0]!.page_count).toBe(2);
    expect(open.documents[0]!.page_sizes.reduce((n, [count]) => n + count, 0)).toBe(2);
    expect(await codeOf(signer.signing.saveValues({ token, values: { 'Client name': 'x' } }))).toBe(
      'not_found',
    );
    expect(await codeOf(signer.signing.complete({ token, values: {} } as never))).toBe('not_found');
    expect(await codeOf(signer.signing.decline({ token, reason: 'no' }))).toBe('not_found');
    const requests = await h.db
      .selectFrom('signature_requests')
      .select('id')
      .where('account_id', '=', owner.accountId)
      .execute();
    expect(requests).toEqual([]);
    expect(await api.account.credits()).toEqual(credits);
  });

  it('a changed, expired or unknown-role preview is refused', async () => {
    const tpl = await twoRoleTemplate(api);
    const token = tokenOfUrl((await api.templates.preview({ id: tpl.id, role: 'Agent' })).url);
    const signer = h.anonymous();
    const forged = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect(await codeOf(signer.signing.open({ token: forged }))).toBe('not_found');
    expect(await codeOf(api.templates.preview({ id: tpl.id, role: 'Nobody' }))).toBe('invalid_parameter');
    h.clock.now = new Date(Date.now() + 16 * 60_000);
    try {
      expect(await codeOf(signer.signing.open({ token }))).toBe('not_found');
    } finally {
      h.clock.now = null;
    }
  });
});

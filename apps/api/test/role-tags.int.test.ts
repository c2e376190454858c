import { b64 } from '@esign/testing/pdfs';
import { sendRequest } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTaggedPdf } from '../../../packages/pdf/test/ingest-fixtures.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 47 (docs/roles.md, docs/fields.md): a role tag `{{role=Manager;kind=approver}}` in an
// uploaded document names a role's part; it makes no field, as approvers and viewers fill none.

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
});
afterAll(() => t?.close());

const upload = async (lines: string[]) => {
  const pdf = await makeTaggedPdf([lines.map((text, i) => ({ runs: [text], y: 740 - i * 50 }))]);
  return t.api('POST', 'templates', { key: owner.key, body: { documents: [{ file: b64(pdf) }] } });
};

describe('issue 47: role tags name a role’s kind in POST /templates', () => {
  it('roles stand where their tags are, role_kinds come from the role tags, only the signer has fields; a send gives each participant that kind', async () => {
    const res = await upload([
      'Approved by: {{role=Manager;kind=approver}}',
      'Name: {{Full name;role=Client}}',
      'Seen by: {{role=Reader;kind=viewer}}',
      'Signature: {{signature;role=Client}}',
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.roles).toEqual(['Manager', 'Client', 'Reader']);
    expect(res.body.role_kinds).toEqual({ Manager: 'approver', Reader: 'viewer' });
    expect(res.body.fields.map((f: any) => [f.name, f.role])).toEqual([
      ['Full name', 'Client'],
      ['Signature', 'Client'],
    ]);
    expect(res.body.warnings).toBeUndefined();
    const sent = await sendRequest(t, owner, {
      template_id: res.body.id,
      send_email: false,
      signers: [
        { role: 'Manager', email: 'mia-tags@example.com' },
        { role: 'Client', email: 'cleo-tags@example.com' },
        { role: 'Reader', email: 'rob-tags@example.com' },
      ],
    });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.signers.map((s: any) => [s.role, s.kind])).toEqual([
      ['Manager', 'approver'],
      ['Client', undefined],
      ['Reader', 'viewer'],
    ]);
  });

  it('a field tag on a role a role tag makes an approver is 422 invalid_field naming the field and the role; nothing is created', async () => {
    const before = await t.db
      .selectFrom('templates')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const res = await upload(['{{role=Manager;kind=approver}}', 'Note: {{Comment;role=Manager}}']);
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.code).toBe('invalid_field');
    expect(res.body.error.message).toContain('Field "Comment": role "Manager" is an approver role');
    const after = await t.db
      .selectFrom('templates')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(after?.n).toBe(before?.n);
  });

  it('fields that name no role go to a signing role, never to the approver (a Signer role when no role signs)', async () => {
    const res = await upload(['{{role=Manager;kind=approver}}', 'Sign: {{signature}}']);
    expect(res.status, res.text).toBe(201);
    expect(res.body.roles).toEqual(['Manager', 'Signer']);
    expect(res.body.fields.map((f: any) => f.role)).toEqual(['Signer']);
    expect(res.body.role_kinds).toEqual({ Manager: 'approver' });
  });

  it('a malformed role tag is a warning, its text left on the page (the spec’s tag errors)', async () => {
    const res = await upload(['{{Approval;role=Manager;kind=approver}}', 'Sign: {{signature;role=Client}}']);
    expect(res.status, res.text).toBe(201);
    expect(res.body.roles).toEqual(['Client']);
    expect(res.body.warnings).toEqual([expect.stringContaining('a role tag (kind=) makes no field')]);
  });
});

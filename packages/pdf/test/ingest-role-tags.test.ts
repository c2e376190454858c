import { describe, expect, it } from 'vitest';
import { DocumentInputError, ingestDocument, parseTag } from '../src/ingest/index.ts';
import { extractTextWithPdfJs, makeTaggedPdf } from './ingest-fixtures.ts';

// Issue 47: a role tag, `{{role=Manager;kind=approver}}`, names a role's part (signer, approver,
// viewer) and makes no field: approvers and viewers fill none, so they need a tag of their own.

describe('issue 47: role tags (kind=) in the text tag grammar', () => {
  it('`{{role=Manager;kind=approver}}` is a role tag: its role and kind, no field settings', () => {
    const parsed = parseTag('role=Manager;kind=approver');
    expect(parsed).toEqual({
      ok: true,
      tag: { type: 'text', required: false, role: 'Manager', kind: 'approver' },
      notes: [],
    });
    expect(parseTag(' role = Reader ; KIND = Viewer ')).toMatchObject({
      ok: true,
      tag: { role: 'Reader', kind: 'viewer' },
    });
    expect(parseTag('role=Client;kind=signer')).toMatchObject({ ok: true, tag: { kind: 'signer' } });
  });

  it('an unknown kind, a role tag without role, or with a name or a field setting is skipped with the reason', () => {
    expect(parseTag('role=Manager;kind=boss')).toMatchObject({
      ok: false,
      error: 'unknown kind "boss" (expected one of signer, approver, viewer)',
    });
    expect(parseTag('kind=approver')).toMatchObject({
      ok: false,
      error: expect.stringContaining('needs role='),
    });
    for (const body of [
      'Approval;role=Manager;kind=approver',
      'role=Manager;kind=approver;type=signature',
      'role=Manager;kind=approver;required=false',
      'role=Manager;kind=approver;width=100',
    ]) {
      const parsed = parseTag(body);
      expect(parsed.ok, body).toBe(false);
      if (!parsed.ok) expect(parsed.error, body).toContain('a role tag (kind=) makes no field');
    }
  });

  it('a tag without kind is unchanged (the spec’s field tags)', () => {
    expect(parseTag('role=Manager')).toMatchObject({ ok: true, tag: { type: 'text', role: 'Manager' } });
    expect(parseTag('signature;role=Client')).toMatchObject({
      ok: true,
      tag: { name: 'Signature', type: 'signature' },
    });
  });
});

describe('issue 47: role tags in documents', () => {
  const pages = [
    [
      { runs: ['Approval: {{role=Manager;kind=approver}}'], y: 740 },
      { runs: ['Name: {{Full name;role=Client}}'], y: 600 },
      { runs: ['Read by {{role=Reader;kind=viewer}} later'], y: 500 },
      { runs: ['Sign here: {{signature;role=Client}}'], y: 450 },
      { runs: ['Again {{role=Manager;kind=viewer}}'], y: 300 },
    ],
  ];

  it('make no field, are listed in order with the fields before them, and their text is removed', async () => {
    const input = await makeTaggedPdf(pages);
    const doc = await ingestDocument({ bytes: input });
    expect(doc.fields.map((f) => [f.name, f.role])).toEqual([
      ['Full name', 'Client'],
      ['Signature', 'Client'],
    ]);
    expect(doc.roles).toEqual([
      { role: 'Manager', kind: 'approver', fieldsBefore: 0 },
      { role: 'Reader', kind: 'viewer', fieldsBefore: 1 },
    ]);
    // The second, different kind for Manager: the first counts, with a warning.
    expect(doc.warnings).toEqual([expect.stringContaining('the first one counts')]);
    const text = (await extractTextWithPdfJs(doc.pdf))[0]!.map((i) => i.str).join(' ');
    expect(text).not.toContain('{{');
    expect(text).not.toContain('kind=');
    expect(text).toContain('Read by');
  });

  it("a malformed role tag fails with invalid_field under tagErrors: 'error'", async () => {
    const input = await makeTaggedPdf([[{ runs: ['{{Approval;role=Manager;kind=approver}}'], y: 700 }]]);
    await expect(ingestDocument({ bytes: input, tagErrors: 'error' })).rejects.toThrow(DocumentInputError);
    const lenient = await ingestDocument({ bytes: input });
    expect(lenient.roles).toBeUndefined();
    expect(lenient.fields).toEqual([]);
    expect(lenient.warnings[0]).toContain('a role tag (kind=) makes no field');
  });
});

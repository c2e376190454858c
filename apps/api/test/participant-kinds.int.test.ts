import { fourParts, partsTemplate } from '@esign/testing/parts';
import { PNG_DOT, sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 47: approvers and viewers over REST and the signing procedures (/trpc).

let t: TestApp;
let owner: TestAccount;
let tpl: { id: number; roles: string[] };

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  tpl = await partsTemplate(t, owner);
});
afterAll(() => t?.close());

const CLIENT_VALUES = { 'Client signature': PNG_DOT, 'Client name': 'Cleo Client' };

async function eventsOf(signerIds: number[]) {
  const rows = await t.db
    .selectFrom('webhook_events')
    .select(['type', 'object_id'])
    .where('object_type', '=', 'signer')
    .where('object_id', 'in', signerIds)
    .orderBy('id')
    .execute();
  // Events of one transaction share a time; their ids are not in order: compared as sets.
  return rows.map((r) => `${r.object_id}:${r.type}`).sort();
}

async function send(tag: string, extra: Record<string, unknown> = {}) {
  const res = await sendRequest(t, owner, {
    template_id: tpl.id,
    signers: fourParts(tag),
    send_email: false,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('issue 47: kind per participant in the REST contract', () => {
  it('the template has Manager and Reader without fields before Client and Agent', () => {
    expect(tpl.roles).toEqual(['Manager', 'Reader', 'Client', 'Agent']);
  });

  it('POST /signature_requests takes kind; the response shows it for approvers and viewers only (signers unchanged)', async () => {
    const r = await send('shape');
    expect(r.signers.map((s: any) => [s.role, s.kind, s.status])).toEqual([
      ['Manager', 'approver', 'ready'],
      ['Reader', 'viewer', 'waiting'],
      ['Client', undefined, 'waiting'],
      ['Agent', undefined, 'waiting'],
    ]);
    expect('kind' in r.signers[2]).toBe(false);
    const got = await t.api('GET', `signers/${r.signers[0].id}`, { key: owner.key });
    expect(got.body.kind).toBe('approver');
  });

  it('a request without kind keeps working unchanged (every participant a signer)', async () => {
    const res = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: [{ role: 'Client', email: 'plain@example.com' }],
      send_email: false,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.signers[0]).not.toHaveProperty('kind');
  });

  it('an approver or viewer on a role with fields: 422 invalid_signer naming the signer and role (approvers have no fields)', async () => {
    for (const kind of ['approver', 'viewer']) {
      const res = await sendRequest(t, owner, {
        template_id: tpl.id,
        signers: [{ role: 'Client', kind, email: 'x@example.com' }],
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('invalid_signer');
      expect(res.body.error.message).toContain(`signers[0].kind ${kind}`);
      expect(res.body.error.message).toContain('role "Client"');
    }
  });

  it('an unknown kind: 422 invalid_signer (as every bad signer entry) naming signers[0].kind', async () => {
    const res = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: [{ role: 'Manager', kind: 'boss', email: 'x@example.com' }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('invalid_signer');
    expect(res.body.error.message).toContain('signers[0].kind');
  });
});

describe('issue 47: approver, viewer and two signers in order run to completion', () => {
  it('each is invited only after the previous approved / acknowledged / signed; the request completes', async () => {
    const r = await send('order');
    const [mgr, reader, client, agent] = r.signers;
    const ids = r.signers.map((s: any) => s.id);
    const open = await trpc(t, 'open', { token: tokenOf(mgr.signing_url) }, 'query');
    expect(open.data.signer.kind).toBe('approver');
    expect(open.data.fields).toEqual([]);
    // Not the viewer's turn yet.
    const early = await trpc(t, 'acknowledge', { token: tokenOf(reader.signing_url) });
    expect(early.error?.code).toBe('invalid_request');

    expect((await trpc(t, 'approve', { token: tokenOf(mgr.signing_url) })).error).toBeNull();
    let now = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(now.signers.map((s: any) => s.status)).toEqual(['signed', 'ready', 'waiting', 'waiting']);
    expect(now.status).toBe('in_progress');

    expect((await trpc(t, 'acknowledge', { token: tokenOf(reader.signing_url) })).error).toBeNull();
    now = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(now.signers.map((s: any) => s.status)).toEqual(['signed', 'signed', 'ready', 'waiting']);

    const c = await trpc(t, 'complete', { token: tokenOf(client.signing_url), values: CLIENT_VALUES });
    expect(c.error).toBeNull();
    const a = await trpc(t, 'complete', {
      token: tokenOf(agent.signing_url),
      values: { 'Agent signature': PNG_DOT },
    });
    expect(a.error).toBeNull();
    now = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(now.status).toBe('completed');
    expect(await eventsOf(ids)).toEqual(
      [
        `${ids[0]}:signer.viewed`,
        `${ids[0]}:signer.approved`,
        `${ids[1]}:signer.viewed_confirmed`,
        `${ids[2]}:signer.started`,
        `${ids[2]}:signer.signed`,
        `${ids[3]}:signer.started`,
        `${ids[3]}:signer.signed`,
      ].sort(),
    );
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['type', 'signer_id', 'data'])
      .where('signature_request_id', '=', r.id)
      .where('type', 'in', ['signer.approved', 'signer.viewed_confirmed'])
      .orderBy('id')
      .execute();
    expect(audit.map((e) => [e.type, e.signer_id, (e.data as any).part])).toEqual([
      ['signer.approved', ids[0], 'approver'],
      ['signer.viewed_confirmed', ids[1], 'viewer'],
    ]);
  });
});

describe('issue 47: invitations ask approvers to approve and viewers to read', () => {
  it('the approver is emailed "Please approve" and reminded "please approve", and after the approval the viewer "Please read"', async () => {
    const r = await sendRequest(t, owner, { template_id: tpl.id, signers: fourParts('mail') });
    expect(r.status, r.text).toBe(201);
    const mailTo = (to: string) =>
      t.db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', to)
        .orderBy('id')
        .execute();
    const [approver] = await mailTo('mia-mail@example.com');
    expect(approver?.subject).toBe('Please approve "Service Agreement"');
    expect(approver?.text_body).toContain('and approve or reject it');
    expect(approver?.text_body).toContain('Review and approve');
    expect(await mailTo('rob-mail@example.com')).toEqual([]);
    // The reminder asks for the approval too, not a signature.
    const remind = await t.api('POST', `signature_requests/${r.body.id}/remind`, { key: owner.key });
    expect(remind.status, remind.text).toBeLessThan(300);
    const reminder = (await mailTo('mia-mail@example.com'))[1];
    expect(reminder?.subject).toBe('Reminder: please approve "Service Agreement"');
    expect(reminder?.text_body).toContain('is waiting for your approval of "Service Agreement"');
    expect(reminder?.text_body).toContain('Review and approve');
    expect(reminder?.text_body).not.toContain('your signature');
    expect((await trpc(t, 'approve', { token: tokenOf(r.body.signers[0].signing_url) })).error).toBeNull();
    const [viewer] = await mailTo('rob-mail@example.com');
    expect(viewer?.subject).toBe('Please read "Service Agreement"');
    expect(viewer?.text_body).toContain('confirm that you have read it');
  });
});

describe('issue 47: SMS invitations and reminders ask approvers to approve and viewers to read', () => {
  it('a phone-only approver is texted "approve or reject", reminded of "your approval"; after it the viewer is texted "read"', async () => {
    const [mia, rob, ...signers] = fourParts('sms');
    const r = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: [
        { ...mia, email: undefined, phone: '+49 30 1234561' },
        { ...rob, email: undefined, phone: '+49 30 1234562' },
        ...signers,
      ],
    });
    expect(r.status, r.text).toBe(201);
    const smsTo = (to: string) =>
      t.db
        .selectFrom('sms_outbox')
        .select(['kind', 'text_body'])
        .where('to_number', '=', to)
        .orderBy('id')
        .execute();
    const [approver] = await smsTo('+49301234561');
    expect(approver?.text_body).toContain('asks you to approve or reject "Service Agreement".');
    expect(approver?.text_body).not.toMatch(/\bsign\b/);
    expect(await smsTo('+49301234562')).toEqual([]);
    const remind = await t.api('POST', `signature_requests/${r.body.id}/remind`, { key: owner.key });
    expect(remind.status, remind.text).toBeLessThan(300);
    const reminder = (await smsTo('+49301234561')).find((m) => m.kind === 'reminder');
    expect(reminder?.text_body).toContain('is waiting for your approval of "Service Agreement".');
    expect((await trpc(t, 'approve', { token: tokenOf(r.body.signers[0].signing_url) })).error).toBeNull();
    const [viewer] = await smsTo('+49301234562');
    expect(viewer?.text_body).toContain('asks you to read "Service Agreement" and confirm you have read it.');
    expect(viewer?.text_body).not.toMatch(/\bsign\b/);
  });
});

describe('issue 47 attacks: an approver cannot fill a field, a viewer cannot sign', () => {
  it('approver: saveValues and complete are 403 forbidden, nothing is stored', async () => {
    const r = await send('atk1');
    const token = tokenOf(r.signers[0].signing_url);
    const save = await trpc(t, 'saveValues', { token, values: { 'Client name': 'forged' } });
    expect([save.status, save.error?.code]).toEqual([403, 'forbidden']);
    const done = await trpc(t, 'complete', { token, values: CLIENT_VALUES });
    expect([done.status, done.error?.code]).toEqual([403, 'forbidden']);
    expect(done.error?.message).toContain('an approver');
    const row = await t.db
      .selectFrom('signers')
      .select(['values', 'status'])
      .where('id', '=', r.signers[0].id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ values: {}, status: 'ready' });
  });

  it('viewer: complete, approve and reject are 403 forbidden; a signer cannot approve or acknowledge', async () => {
    const r = await send('atk2', { signing_order: 'parallel' });
    const viewer = tokenOf(r.signers[1].signing_url);
    for (const [proc, input] of [
      ['complete', { values: CLIENT_VALUES }],
      ['approve', {}],
      ['reject', { reason: 'no' }],
    ] as const) {
      const res = await trpc(t, proc, { token: viewer, ...input });
      expect([proc, res.status, res.error?.code]).toEqual([proc, 403, 'forbidden']);
    }
    const signer = tokenOf(r.signers[2].signing_url);
    for (const proc of ['approve', 'acknowledge']) {
      const res = await trpc(t, proc, { token: signer });
      expect([proc, res.status, res.error?.code]).toEqual([proc, 403, 'forbidden']);
    }
    const rows = await t.db
      .selectFrom('signers')
      .select('status')
      .where('signature_request_id', '=', r.id)
      .execute();
    expect(rows.every((s) => s.status !== 'signed')).toBe(true);
  });
});

describe('issue 47: the approver rejects with a reason', () => {
  it('the request is declined; the reason is on the signer, in signer.rejected + signer.declined, the audit trail and the notices', async () => {
    const r = await send('reject', { notify: ['boss@example.com'] });
    const mgr = r.signers[0];
    const empty = await trpc(t, 'reject', { token: tokenOf(mgr.signing_url), reason: '  ' });
    expect(empty.status).toBe(422);
    const res = await trpc(t, 'reject', { token: tokenOf(mgr.signing_url), reason: 'Price is wrong' });
    expect(res.error).toBeNull();
    const now = (await t.api('GET', `signature_requests/${r.id}`, { key: owner.key })).body;
    expect(now.status).toBe('declined');
    expect(now.signers[0]).toMatchObject({
      kind: 'approver',
      status: 'declined',
      decline_reason: 'Price is wrong',
    });
    expect(now.signers[1].signing_url).toBeNull();
    expect(await eventsOf([mgr.id])).toEqual([`${mgr.id}:signer.declined`, `${mgr.id}:signer.rejected`]);
    const audit = await t.db
      .selectFrom('audit_events')
      .select('data')
      .where('signer_id', '=', mgr.id)
      .where('type', '=', 'signer.rejected')
      .executeTakeFirstOrThrow();
    expect(audit.data).toMatchObject({ reason: 'Price is wrong', part: 'approver' });
    const notice = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', 'boss@example.com')
      .executeTakeFirstOrThrow();
    expect(notice.text_body).toContain('rejected by the approver Mia Manager: "Price is wrong"');
    // The link no longer works.
    const again = await trpc(t, 'approve', { token: tokenOf(mgr.signing_url) });
    expect(again.error?.code).toBe('signer_finished');
  });
});

describe('issue 47: template role kinds (approver and viewer roles have no fields)', () => {
  it('PATCH role_kinds marks Manager approver and Reader viewer; the Template shows them; a send without kind takes them', async () => {
    const own = await partsTemplate(t, owner);
    const plain = await t.api('GET', `templates/${own.id}`, { key: owner.key });
    expect(plain.body).not.toHaveProperty('role_kinds');
    const res = await t.api('PATCH', `templates/${own.id}`, {
      key: owner.key,
      body: { role_kinds: { Manager: 'approver', Reader: 'viewer' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.role_kinds).toEqual({ Manager: 'approver', Reader: 'viewer' });
    const signers = fourParts('tplkinds').map(({ kind: _kind, ...s }) => s);
    const sent = await sendRequest(t, owner, { template_id: own.id, signers, send_email: false });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.signers.map((s: any) => s.kind)).toEqual(['approver', 'viewer', undefined, undefined]);
    // Renaming a role keeps its kind (kinds follow roles by position).
    const renamed = await t.api('PATCH', `templates/${own.id}`, {
      key: owner.key,
      body: { roles: ['Boss'] },
    });
    expect(renamed.body.role_kinds).toEqual({ Boss: 'approver', Reader: 'viewer' });
    const copy = await t.api('POST', `templates/${own.id}/duplicate`, { key: owner.key, body: {} });
    expect(copy.body.role_kinds).toEqual({ Boss: 'approver', Reader: 'viewer' });
  });

  it('a field on an approver or viewer role: 422 invalid_field naming field and role, by PATCH fields, PATCH role_kinds or the editor; nothing changes', async () => {
    const own = await partsTemplate(t, owner);
    await t.api('PATCH', `templates/${own.id}`, {
      key: owner.key,
      body: { role_kinds: { Manager: 'approver' } },
    });
    const before = await t.api('GET', `templates/${own.id}`, { key: owner.key });
    const onManager = [
      { name: 'Note', type: 'text', role: 'Manager', areas: [{ page: 1, x: 0.5, y: 0.5, w: 0.2, h: 0.05 }] },
    ];
    const placed = await t.api('PATCH', `templates/${own.id}`, {
      key: owner.key,
      body: { fields: onManager },
    });
    expect([placed.status, placed.body.error.code]).toEqual([422, 'invalid_field']);
    expect(placed.body.error.message).toContain('Field "Note": role "Manager" is an approver role');
    const marked = await t.api('PATCH', `templates/${own.id}`, {
      key: owner.key,
      body: { role_kinds: { Client: 'viewer' } },
    });
    expect([marked.status, marked.body.error.code]).toEqual([422, 'invalid_field']);
    expect(marked.body.error.message).toContain('role "Client" is a viewer role');
    const unknown = await t.api('PATCH', `templates/${own.id}`, {
      key: owner.key,
      body: { role_kinds: { Nope: 'viewer' } },
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([422, 'invalid_parameter']);
    expect(unknown.body.error.message).toContain('role_kinds: "Nope"');
    const { version } = await t.db
      .selectFrom('templates')
      .select('version')
      .where('id', '=', own.id)
      .executeTakeFirstOrThrow();
    const editor = await fetch(`${t.baseUrl}/trpc/templates.editorSave`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${owner.key}`,
        origin: t.baseUrl,
      },
      body: JSON.stringify({ id: own.id, version, fields: onManager }),
    });
    const editorBody = (await editor.json()) as any;
    expect([editor.status, editorBody.error?.data.code]).toEqual([422, 'invalid_field']);
    const after = await t.api('GET', `templates/${own.id}`, { key: owner.key });
    expect(after.body.fields).toEqual(before.body.fields);
    expect(after.body.role_kinds).toEqual({ Manager: 'approver' });
  });
});

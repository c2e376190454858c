import { dashboardSession, fourParts, hostSigner, partsTemplate } from '@esign/testing/parts';
import { PNG_DOT, sendRequest, tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 47, in-person signing: a dashboard user hosts a signer on their own device.

let t: TestApp;
let owner: TestAccount;
let tplId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  tplId = (await twoRoleTemplate(t, owner)).id;
});
afterAll(() => t?.close());

const VALUES = { 'Client signature': PNG_DOT, 'Client name': 'Cleo Client' };

async function request(extra: Record<string, unknown> = {}) {
  const res = await sendRequest(t, owner, {
    template_id: tplId,
    send_email: false,
    signers: [
      { role: 'Client', name: 'Cleo Client', email: 'cleo@example.com' },
      { role: 'Agent', name: 'Avi Agent', email: 'avi@example.com' },
    ],
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('issue 47: in-person signing hosted on the sender’s device', () => {
  it('the host starts a session, the signer confirms their name and signs; the audit trail records host, device, presence; the code is replaced', async () => {
    const r = await request({ require_email_otp: true });
    const session = await dashboardSession(t, owner);
    const host = await hostSigner(t, session, r.signers[0].id);
    expect(host.status).toBe(200);
    expect(host.data).toMatchObject({ object: 'hosted_session', signer_id: r.signers[0].id });
    expect(host.data.signing_url).toBe(`${r.signers[0].signing_url}?hosted=1`);
    expect(host.hostCookie).toMatch(/^esign_host_\d+=/);
    const headers = { cookie: host.hostCookie!, 'user-agent': 'Tablet/1.0 (host device)' };
    const token = tokenOf(r.signers[0].signing_url);
    const open = await trpc(t, 'open', { token, hosted: true }, 'query', headers);
    // The host's confirmation replaces the email code: the document is shown.
    expect(open.data).toMatchObject({ code_required: false, hosted_by: { email: owner.email } });
    expect(open.data.fields.length).toBeGreaterThan(0);
    // Without the signer confirming their name as written: 422 naming confirmed_name.
    const unnamed = await trpc(t, 'complete', { token, hosted: true, values: VALUES }, 'mutation', headers);
    expect([unnamed.status, unnamed.error?.code]).toEqual([422, 'invalid_parameter']);
    expect(unnamed.error?.message).toContain('confirmed_name');
    const wrong = await trpc(
      t,
      'complete',
      { token, hosted: true, values: VALUES, confirmed_name: 'Someone Else' },
      'mutation',
      headers,
    );
    expect(wrong.status).toBe(422);
    const done = await trpc(
      t,
      'complete',
      { token, hosted: true, values: VALUES, confirmed_name: ' cleo  client ' },
      'mutation',
      headers,
    );
    expect(done.error).toBeNull();
    // The device returns to the host: the request's page in the dashboard.
    expect(done.data.redirect_url).toBe(`${t.config.PUBLIC_URL}/requests/${r.id}`);
    const entries = await t.db
      .selectFrom('audit_events')
      .select(['type', 'data', 'user_agent'])
      .where('signer_id', '=', r.signers[0].id)
      .where('type', 'in', ['signer.hosting_started', 'signer.signed'])
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.type)).toEqual(['signer.hosting_started', 'signer.signed']);
    expect(entries[1]!.data).toMatchObject({
      hosted_by: { email: owner.email },
      device: 'Tablet/1.0 (host device)',
      signer_present: true,
      confirmed_name: 'cleo  client',
    });
    // The session is spent: the hosted page cannot be reopened, even on the host's device.
    const reopen = await trpc(t, 'open', { token, hosted: true }, 'query', headers);
    expect(reopen.error?.code).toBe('signer_finished');
  });
});

describe('issue 47: hosted approvers, and the session’s end', () => {
  it('an approver approves in person: name confirmed, the audit entry names the host and device', async () => {
    const tpl = await partsTemplate(t, owner);
    const sent = await sendRequest(t, owner, {
      template_id: tpl.id,
      signers: fourParts('hosted'),
      send_email: false,
    });
    const mgr = sent.body.signers[0];
    const host = await hostSigner(t, await dashboardSession(t, owner), mgr.id);
    const headers = { cookie: host.hostCookie!, 'user-agent': 'Tablet/1.0 (host device)' };
    const token = tokenOf(mgr.signing_url);
    const open = await trpc(t, 'open', { token, hosted: true }, 'query', headers);
    expect(open.data.signer.kind).toBe('approver');
    const done = await trpc(
      t,
      'approve',
      { token, hosted: true, confirmed_name: 'Mia Manager' },
      'mutation',
      headers,
    );
    expect(done.error).toBeNull();
    expect(done.data.redirect_url).toBe(`${t.config.PUBLIC_URL}/requests/${sent.body.id}`);
    const entry = await t.db
      .selectFrom('audit_events')
      .select('data')
      .where('signer_id', '=', mgr.id)
      .where('type', '=', 'signer.approved')
      .executeTakeFirstOrThrow();
    expect(entry.data).toMatchObject({
      part: 'approver',
      hosted_by: { email: owner.email },
      signer_present: true,
    });
  });

  it('a hosted session ends after two hours (HOSTED_SESSION_MS): the page is refused, a new one can be started', async () => {
    const r = await request();
    const session = await dashboardSession(t, owner);
    const host = await hostSigner(t, session, r.signers[0].id);
    const token = tokenOf(r.signers[0].signing_url);
    t.clock.now = new Date(Date.now() + 2 * 3600_000 + 60_000);
    try {
      const late = await trpc(t, 'open', { token, hosted: true }, 'query', { cookie: host.hostCookie! });
      expect([late.status, late.error?.code]).toEqual([403, 'forbidden']);
    } finally {
      t.clock.now = null;
    }
    const again = await hostSigner(t, session, r.signers[0].id);
    const open = await trpc(t, 'open', { token, hosted: true }, 'query', { cookie: again.hostCookie! });
    expect(open.status).toBe(200);
  });
});

describe('issue 47 attacks on in-person signing', () => {
  it('a hosted session cannot be reopened from another device (no cookie, or another signer’s cookie)', async () => {
    const r = await request({ signing_order: 'parallel' });
    const session = await dashboardSession(t, owner);
    const host = await hostSigner(t, session, r.signers[0].id);
    const other = await hostSigner(t, session, r.signers[1].id);
    const token = tokenOf(r.signers[0].signing_url);
    const bare = await trpc(t, 'open', { token, hosted: true }, 'query');
    expect([bare.status, bare.error?.code]).toEqual([403, 'forbidden']);
    // Signer 1's cookie renamed to signer 0's: its hash is not signer 0's session.
    const forged = other.hostCookie!.replace(/esign_host_\d+/, `esign_host_${r.signers[0].id}`);
    const stolen = await trpc(t, 'open', { token, hosted: true }, 'query', { cookie: forged });
    expect([stolen.status, stolen.error?.code]).toEqual([403, 'forbidden']);
    const sign = await trpc(t, 'complete', {
      token,
      hosted: true,
      values: VALUES,
      confirmed_name: 'Cleo Client',
    });
    expect([sign.status, sign.error?.code]).toEqual([403, 'forbidden']);
    // The real device still works.
    const ok = await trpc(t, 'open', { token, hosted: true }, 'query', { cookie: host.hostCookie! });
    expect(ok.status).toBe(200);
  });

  it('a host cannot act for a signer of another account: 404 not_found, no session, no cookie', async () => {
    const r = await request();
    const stranger = await createTestAccount(t.db, { lifetime: true });
    const res = await hostSigner(t, await dashboardSession(t, stranger), r.signers[0].id);
    expect([res.status, res.code, res.hostCookie]).toEqual([404, 'not_found', undefined]);
    const rows = await t.db
      .selectFrom('signer_host_sessions')
      .select('signer_id')
      .where('signer_id', '=', r.signers[0].id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('an API key cannot start a hosted session (the device is the dashboard user’s browser): 403', async () => {
    const r = await request();
    const res = await fetch(`${t.baseUrl}/trpc/signers.host`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.key}` },
      body: JSON.stringify({ id: r.signers[0].id }),
    });
    expect(res.status).toBe(403);
  });

  it('a signer whose turn has not come cannot be hosted: 422 invalid_request', async () => {
    const r = await request();
    const res = await hostSigner(t, await dashboardSession(t, owner), r.signers[1].id);
    expect([res.status, res.code]).toEqual([422, 'invalid_request']);
  });
});

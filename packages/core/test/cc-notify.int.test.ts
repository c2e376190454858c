import type { TestAccount } from '@esign/testing/accounts';
import { PNG_DOT } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../src/jobs.ts';
import { expireOverdueRequests } from '../src/services/signature-requests/lifecycle.ts';
import { drainJobs } from '../src/services/worker.ts';
import { type CoreHarness, codeOf, startCore, tokenOf, twoRoleTemplate } from './caller.ts';

// Issue 34 items 1 (CC recipients) and 4 (completion notices), through appRouter's procedures on a
// real database: what is stored and shown, which emails the outbox holds, and that a CC link is
// never a way to sign.

let h: CoreHarness;
let owner: TestAccount;
let caller: Awaited<ReturnType<CoreHarness['as']>>;
let tpl: Awaited<ReturnType<typeof twoRoleTemplate>>;

beforeAll(async () => {
  h = await startCore();
  owner = await h.account({ credits: 50 });
  caller = await h.as(owner.key);
  tpl = await twoRoleTemplate(caller);
});
afterAll(() => h?.close());

const signers = [
  { name: 'Cleo Client', email: 'cleo@example.com' },
  { name: 'Andy Agent', email: 'andy@example.com' },
];

const mailTo = (to: string) =>
  h.db
    .selectFrom('mail_outbox')
    .select(['kind', 'subject', 'text_body', 'html_body', 'links'])
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();

const ccLinkOf = async (to: string) => {
  const mail = (await mailTo(to)).find((m) => m.kind === 'cc')!;
  return (mail.links as string[]).find((l) => l.includes('/cc/'))!;
};

async function signAll(request: { signers: { role: string | null; signing_url: string | null }[] }) {
  for (const s of request.signers) {
    const values =
      s.role === 'Client'
        ? { 'Client signature': PNG_DOT, 'Client name': 'Cleo' }
        : { 'Agent signature': PNG_DOT };
    await h.anonymous().signing.complete({ token: tokenOf(s.signing_url), values });
  }
}

describe('issue 34.1: CC recipients', () => {
  it('issue 34.1: cc is stored and shown (GET and list), the account defaults are added once, each CC is emailed a read-only link on send, and the audit trail names them', async () => {
    await caller.recipients.setDefaults({ cc: ['Lawyer@Example.com'], notify: [] });
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      signing_order: 'parallel',
      cc: ['lawyer@example.com', 'hr@example.com'],
    });
    expect(sent.cc).toEqual(['lawyer@example.com', 'hr@example.com']);
    const got = await caller.signatureRequests.get({ id: sent.id });
    expect(got.cc).toEqual(['lawyer@example.com', 'hr@example.com']);
    expect(got.notify).toEqual([]);
    const listed = await caller.signatureRequests.list({ limit: 5 });
    expect(listed.data.find((r) => r.id === sent.id)?.cc).toEqual(got.cc);

    const mails = await mailTo('hr@example.com');
    expect(mails.map((m) => m.kind)).toEqual(['cc']);
    expect(mails[0]!.text_body).toContain('You are not asked to sign');
    const link = await ccLinkOf('hr@example.com');
    expect(link).toMatch(/\/cc\/[A-Za-z0-9_-]{43}$/);
    // No signer's link in a CC email.
    for (const s of got.signers) expect(mails[0]!.text_body).not.toContain(tokenOf(s.signing_url));
    // The token is stored as its SHA-256 only.
    const stored = await h.db
      .selectFrom('request_recipients')
      .selectAll()
      .where('signature_request_id', '=', sent.id)
      .execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(link.split('/cc/')[1]);
    const audit = await h.db
      .selectFrom('audit_events')
      .select(['type', 'data'])
      .where('signature_request_id', '=', sent.id)
      .where('type', '=', 'request.recipients')
      .executeTakeFirstOrThrow();
    expect(audit.data).toEqual({ cc: ['lawyer@example.com', 'hr@example.com'], notify: [] });
    await caller.recipients.setDefaults({ cc: [], notify: [] });
  });

  it('issue 34.1: a CC link must not sign: every signing procedure refuses its token, and its view has documents and who signed, never a signing link', async () => {
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      signing_order: 'parallel',
      cc: ['observer@example.com'],
    });
    const token = (await ccLinkOf('observer@example.com')).split('/cc/')[1]!;
    const signing = h.anonymous().signing;
    expect(await codeOf(signing.open({ token }))).toBe('not_found');
    expect(await codeOf(signing.complete({ token, values: { 'Client signature': PNG_DOT } }))).toBe(
      'not_found',
    );
    expect(await codeOf(signing.saveValues({ token, values: { 'Client name': 'X' } }))).toBe('not_found');
    expect(await codeOf(signing.decline({ token, reason: 'no' }))).toBe('not_found');
    const first = sent.signers[0]!;
    await h.anonymous().signing.complete({
      token: tokenOf(first.signing_url),
      values: { 'Client signature': PNG_DOT, 'Client name': 'Cleo' },
    });
    const view = await h.anonymous().recipients.view({ token });
    expect(view.title).toBe('Service Agreement');
    expect(view.status).toBe('in_progress');
    expect(view.signers.map((s) => [s.name, s.status])).toEqual([
      ['Cleo Client', 'signed'],
      ['Andy Agent', 'sent'],
    ]);
    expect(view.documents).toHaveLength(1);
    expect(view.documents[0]!.url).toContain('/files/');
    expect(JSON.stringify(view)).not.toContain('/s/');
    expect(JSON.stringify(view)).not.toContain('@example.com');
    expect(await codeOf(h.anonymous().recipients.view({ token: `${token}x` }))).toBe('not_found');
  });

  it('issue 34.1 + 34.4: at completion CCs get the signed documents and audit trail, notify addresses the notice with the request page; a CC gets nothing else', async () => {
    const sent = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      signing_order: 'parallel',
      cc: ['done-cc@example.com'],
      notify: ['done-notify@example.com'],
    });
    await signAll(sent);
    await drainJobs(h.sc, jobHandlers);
    const cc = await mailTo('done-cc@example.com');
    expect(cc.map((m) => m.kind)).toEqual(['cc', 'cc.completed']);
    expect(cc[1]!.text_body).toMatch(/audit trail: http/i);
    expect(cc[1]!.text_body).not.toContain('/requests/');
    const notice = await mailTo('done-notify@example.com');
    expect(notice.map((m) => [m.kind, m.subject])).toEqual([
      ['request.notice', 'Completed: Service Agreement'],
    ]);
    expect(notice[0]!.text_body).toContain(`${h.config.PUBLIC_URL}/requests/${sent.id}`);
    expect(notice[0]!.text_body).toMatch(/audit trail: http/i);
    // Issue 34 leftover (c): the HTML part links every file (the text part keeps `label: url` lines).
    const fileLinks = (html: string) => [...html.matchAll(/<li><a href="(http[^"]+)">([^<]+)<\/a><\/li>/g)];
    for (const mail of [notice[0]!, cc[1]!]) {
      const anchors = fileLinks(mail.html_body);
      expect(anchors.map((a) => a[2])).toContain('Audit trail');
      for (const [, url, label] of anchors)
        expect(mail.text_body).toContain(`${label}: ${url!.replaceAll('&amp;', '&')}`);
    }
    // The CC's view now offers the signed documents and the audit trail.
    const token = (await ccLinkOf('done-cc@example.com')).split('/cc/')[1]!;
    const view = await h.anonymous().recipients.view({ token });
    expect(view.status).toBe('completed');
    expect(view.audit_trail_url).toContain('/files/');
    // Sealing (and the template's page images the jobs render too) takes minutes on a loaded machine.
  }, 240_000);
});

describe('issue 34.4: completion notices', () => {
  const noticesTo = async (to: string) =>
    (await mailTo(to)).filter((m) => m.kind === 'request.notice').map((m) => m.subject);

  it('issue 34.4: notify addresses (given and account default) are told when a request is canceled, with the request page link', async () => {
    await caller.recipients.setDefaults({ cc: [], notify: ['office@example.com'] });
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      notify: ['cancel@example.com'],
    });
    expect(r.notify).toEqual(['cancel@example.com', 'office@example.com']);
    expect(await noticesTo('cancel@example.com')).toEqual([]);
    await caller.signatureRequests.cancel({ id: r.id });
    await caller.signatureRequests.cancel({ id: r.id });
    expect(await noticesTo('cancel@example.com')).toEqual(['Canceled: Service Agreement']);
    const office = await mailTo('office@example.com');
    expect(office.filter((m) => m.text_body.includes(`/requests/${r.id}`)).map((m) => m.subject)).toEqual([
      'Canceled: Service Agreement',
    ]);
    await caller.recipients.setDefaults({ cc: [], notify: [] });
  });

  it('issue 34.4: notify addresses are told when a signer declines, with who and why; CCs are not', async () => {
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      notify: ['decline@example.com'],
      cc: ['decline-cc@example.com'],
    });
    await h
      .anonymous()
      .signing.decline({ token: tokenOf(r.signers[0]!.signing_url), reason: 'Wrong address' });
    const notices = (await mailTo('decline@example.com')).filter((m) => m.kind === 'request.notice');
    expect(notices.map((m) => m.subject)).toEqual(['Declined: Service Agreement']);
    expect(notices[0]!.text_body).toContain('by Cleo Client: "Wrong address"');
    expect((await mailTo('decline-cc@example.com')).map((m) => m.kind)).toEqual(['cc']);
  });

  it('issue 34.4: notify addresses are told when the expiry sweep expires a request, once', async () => {
    const r = await caller.signatureRequests.create({
      template_id: tpl.id,
      signers,
      notify: ['expire@example.com'],
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    const later = new Date(Date.now() + 61_000);
    expect(await expireOverdueRequests(h.sc, later)).toBeGreaterThanOrEqual(1);
    await expireOverdueRequests(h.sc, later);
    expect(await noticesTo('expire@example.com')).toEqual(['Expired: Service Agreement']);
    expect((await caller.signatureRequests.get({ id: r.id })).status).toBe('expired');
  });
});

describe('issue 34: validation', () => {
  const send = (extra: Record<string, unknown>) =>
    caller.signatureRequests.create({ template_id: tpl.id, signers, send_email: false, ...extra } as never);
  const errorOf = (call: Promise<unknown>) =>
    call.then(
      () => null,
      (e: { data?: { code?: string }; cause?: { code?: string; message?: string }; message: string }) => e,
    );

  it('issue 34.1/34.4: a bad address or more than 10 is 422 invalid_parameter naming the field; nothing is written', async () => {
    expect(await codeOf(send({ cc: ['not-an-email'] }))).toBe('invalid_parameter');
    expect((await errorOf(send({ cc: ['not-an-email'] })))?.message).toContain('cc');
    expect(await codeOf(send({ notify: ['a@example.com', 'nope'] }))).toBe('invalid_parameter');
    expect((await errorOf(send({ notify: ['a@example.com', 'nope'] })))?.message).toContain('notify');
    const eleven = Array.from({ length: 11 }, (_, i) => `p${i}@example.com`);
    expect(await codeOf(send({ cc: eleven }))).toBe('invalid_parameter');
    expect((await errorOf(send({ cc: eleven })))?.message).toContain('cc');
    expect(await codeOf(caller.recipients.setDefaults({ cc: ['x'], notify: [] }))).toBe('invalid_parameter');
  });
});

import { jobHandlers, purgeMailSecrets } from '@esign/core/jobs';
import { listMail } from '@esign/core/operator';
import { drainJobs } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { PNG_DOT, sendRequest, tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpReceiver, startSmtpReceiver } from '../../../packages/core/test/smtp-receiver.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Signing links and email codes at rest: mail_outbox keeps what it needs to send and to show, and
// no more. Without SMTP_URL the outbox is the delivery channel (the operator reads it with
// `esign mail list`), so a body stays while its code or link can still be used; with SMTP_URL a
// body is purged as soon as it went out.

let t: TestApp;
let owner: TestAccount;
let otpTemplateId: number;
let twoRole: any;
let n = 0;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 50 });
  otpTemplateId = (
    await makeTemplate(t, owner, {
      fields: [{ name: 'Company', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
    })
  ).id;
  twoRole = await twoRoleTemplate(t, owner);
});
afterEach(() => {
  t.clock.now = null;
});
afterAll(() => t.close());

const mailsOf = (signerId: number, kind?: string) => {
  let q = t.db.selectFrom('mail_outbox').selectAll().where('signer_id', '=', signerId).orderBy('id');
  if (kind) q = q.where('kind', '=', kind);
  return q.execute();
};

/** Nothing in the stored row gives the secret away. */
function expectPurged(mail: Awaited<ReturnType<typeof mailsOf>>[number], secret: string) {
  expect(mail.redacted_at).toBeInstanceOf(Date);
  for (const part of [mail.subject, mail.text_body, mail.html_body, JSON.stringify(mail.links)])
    expect(part).not.toContain(secret);
  expect(mail.links).toEqual([]);
  expect(mail.to_address).toMatch(/@/);
}

async function otpSigner() {
  n += 1;
  const res = await sendRequest(t, owner, {
    template_id: otpTemplateId,
    signers: [{ email: `coded${n}@example.com` }],
    require_email_otp: true,
  });
  return { token: tokenOf(res.body.signers[0].signing_url), id: res.body.signers[0].id as number };
}

async function requestCode(token: string, signerId: number): Promise<string> {
  const r = await trpc(t, 'requestCode', { token });
  if (r.error) throw new Error(r.error.message);
  const mail = (await mailsOf(signerId, 'otp')).at(-1)!;
  return /\b(\d{6})\b/.exec(mail.text_body)![1]!;
}

describe('without SMTP_URL (the outbox is the delivery channel)', () => {
  it('a code email holds its code only while the code can be used: purged once verified, replaced, locked or expired', async () => {
    // verified
    const a = await otpSigner();
    const codeA = await requestCode(a.token, a.id);
    expect((await mailsOf(a.id, 'otp'))[0]!.redacted_at).toBeNull();
    expect((await trpc(t, 'verifyCode', { token: a.token, code: codeA })).data.verified).toBe(true);
    expectPurged((await mailsOf(a.id, 'otp'))[0]!, codeA);

    // replaced by a new code
    const b = await otpSigner();
    const start = Date.now();
    t.clock.now = new Date(start);
    const first = await requestCode(b.token, b.id);
    t.clock.now = new Date(start + 31_000);
    const second = await requestCode(b.token, b.id);
    const [old, current] = await mailsOf(b.id, 'otp');
    expectPurged(old!, first);
    expect(current!.text_body).toContain(second);
    t.clock.now = null;

    // locked after 5 wrong tries
    const c = await otpSigner();
    const codeC = await requestCode(c.token, c.id);
    for (let i = 1; i <= 5; i++)
      await trpc(t, 'verifyCode', {
        token: c.token,
        code: String((Number(codeC) + i) % 1e6).padStart(6, '0'),
      });
    expectPurged((await mailsOf(c.id, 'otp'))[0]!, codeC);

    // expired: the housekeeping sweep purges it
    const d = await otpSigner();
    const codeD = await requestCode(d.token, d.id);
    await t.db.transaction().execute((tx) => purgeMailSecrets(tx, new Date(Date.now() + 9 * 60_000)));
    expect((await mailsOf(d.id, 'otp'))[0]!.text_body).toContain(codeD);
    await t.db.transaction().execute((tx) => purgeMailSecrets(tx, new Date(Date.now() + 10 * 60_000 + 1000)));
    expectPurged((await mailsOf(d.id, 'otp'))[0]!, codeD);
  });

  it('a signing link stays listed (esign mail list) while its signer can sign; purged once they signed, and by the sweep once the request is canceled', async () => {
    const res = await sendRequest(t, owner, {
      template_id: twoRole.id,
      signing_order: 'parallel',
      signers: [
        { name: 'Cleo', email: 'cleo.links@example.com' },
        { name: 'Andy', email: 'andy.links@example.com' },
      ],
    });
    const [cleo, andy] = res.body.signers;
    const cleoUrl = cleo.signing_url as string;
    const andyUrl = andy.signing_url as string;
    const listed = await listMail(t.db, { to: 'cleo.links@example.com' });
    expect(listed.data[0]).toMatchObject({ links: [cleoUrl], status: 'kept', redacted_at: null });
    expect(listed.data[0]!.text).toContain(cleoUrl);

    const done = await trpc(t, 'complete', {
      token: tokenOf(cleoUrl),
      values: { 'Client signature': PNG_DOT, 'Client name': 'Cleo' },
    });
    expect(done.error).toBeNull();
    expectPurged((await mailsOf(cleo.id))[0]!, tokenOf(cleoUrl));
    const after = await listMail(t.db, { to: 'cleo.links@example.com' });
    expect(after.data[0]).toMatchObject({
      links: [],
      status: 'kept',
      subject: expect.stringContaining('sign'),
    });
    expect(after.data[0]!.redacted_at).toEqual(expect.any(String));
    // The other signer can still sign: their link is kept.
    expect((await mailsOf(andy.id))[0]!.text_body).toContain(andyUrl);

    const canceled = await t.api('POST', `signature_requests/${res.body.id}/cancel`, { key: owner.key });
    expect(canceled.status).toBe(200);
    const purged = await t.db.transaction().execute((tx) => purgeMailSecrets(tx, new Date()));
    expect(purged).toBeGreaterThanOrEqual(1);
    expectPurged((await mailsOf(andy.id))[0]!, tokenOf(andyUrl));
  });

  it('declining purges every signing link and code of the request at once', async () => {
    const res = await sendRequest(t, owner, {
      template_id: twoRole.id,
      signing_order: 'parallel',
      signers: [
        { name: 'Dee', email: 'dee.decline@example.com' },
        { name: 'Eve', email: 'eve.decline@example.com' },
      ],
    });
    const [dee, eve] = res.body.signers;
    const r = await trpc(t, 'decline', { token: tokenOf(dee.signing_url), reason: 'Wrong amount' });
    expect(r.error).toBeNull();
    expectPurged((await mailsOf(dee.id))[0]!, tokenOf(dee.signing_url));
    expectPurged((await mailsOf(eve.id))[0]!, tokenOf(eve.signing_url));
  });
});

describe('with SMTP_URL', () => {
  let smtp: SmtpReceiver;
  let s: TestApp;
  // Quoted-printable soft line breaks removed, so links and codes read as one piece.
  const received = () => smtp.received.map((m) => m.raw.replace(/=\r?\n/g, ''));
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    s = await startTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await s.close();
    await smtp.close();
  });

  it('an email is purged as soon as it went out: the outbox keeps to, subject, status and times, not the link or code', async () => {
    const acct = await createTestAccount(s.db, { credits: 5 });
    const tpl = await makeTemplate(s, acct, {
      fields: [{ name: 'Company', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
    });
    const res = await s.api('POST', 'signature_requests', {
      key: acct.key,
      body: { template_id: tpl.id, signers: [{ email: 'smtp.signer@example.com' }], require_email_otp: true },
    });
    const signer = res.body.signers[0];
    const token = tokenOf(signer.signing_url);
    expect(received().some((m) => m.includes(token))).toBe(true);
    const [invitation] = await s.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('signer_id', '=', signer.id)
      .execute();
    expect(invitation).toMatchObject({ status: 'sent', to_address: 'smtp.signer@example.com' });
    expect(invitation!.sent_at).toBeInstanceOf(Date);
    expect(invitation!.subject).toMatch(/sign/i);
    expectPurged(invitation!, token);

    expect((await trpc(s, 'requestCode', { token })).error).toBeNull();
    const code = /(\d{6}) is your signing code/.exec(received().at(-1)!)?.[1];
    expect(code).toBeDefined();
    const otp = await s.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('signer_id', '=', signer.id)
      .where('kind', '=', 'otp')
      .executeTakeFirstOrThrow();
    expect(otp.status).toBe('sent');
    expectPurged(otp, code!);
    expect((await trpc(s, 'verifyCode', { token, code })).data.verified).toBe(true);
  });

  it('a queued email whose link stopped working before it could be sent is never sent', async () => {
    const acct = await createTestAccount(s.db, { credits: 5 });
    const tpl = await makeTemplate(s, acct);
    smtp.failNext(1);
    const res = await s.api('POST', 'signature_requests', {
      key: acct.key,
      body: { template_id: tpl.id, signers: [{ email: 'never.sent@example.com' }] },
    });
    const signer = res.body.signers[0];
    const token = tokenOf(signer.signing_url);
    expect((await s.api('POST', `signature_requests/${res.body.id}/cancel`, { key: acct.key })).status).toBe(
      200,
    );
    await s.db.transaction().execute((tx) => purgeMailSecrets(tx, new Date()));
    await s.db
      .updateTable('jobs')
      .set({ run_at: new Date(0) })
      .where('kind', '=', 'mail.send')
      .execute();
    await drainJobs(
      { db: s.db, logger: s.rt.logger, config: s.config, deps: s.rt.deps, now: () => new Date() },
      jobHandlers,
    );
    expect(received().some((m) => m.includes(token))).toBe(false);
    const mail = await s.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('signer_id', '=', signer.id)
      .executeTakeFirstOrThrow();
    expect(mail.status).toBe('undeliverable');
    expect(mail.last_error).toMatch(/no longer/);
    expectPurged(mail, token);
  });
});

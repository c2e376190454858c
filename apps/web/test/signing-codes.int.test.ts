import { sha256Hex } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { sendRequest, tokenOf } from '@esign/testing/signing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Email codes (require_email_otp) over the real tRPC endpoint the signing page calls: a code is
// locked after 5 wrong tries, the count survives the failed call, codes expire after 10 minutes,
// a signer may ask for at most 5 codes an hour, and the stored hash needs the server secret.

let t: TestApp;
let owner: TestAccount;
let templateId: number;
let n = 0;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 50 });
  const tpl = await makeTemplate(t, owner, {
    name: 'Protected',
    fields: [{ name: 'Company', type: 'text', areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }] }],
  });
  templateId = tpl.id;
});
afterEach(() => {
  t.clock.now = null;
});
afterAll(() => t.close());

interface Call {
  status: number;
  retryAfter: string | null;
  data: any;
  error: { code: string; message: string; retryAfterSeconds: number | null } | null;
}

async function call(proc: string, input: Record<string, unknown>): Promise<Call> {
  const res = await fetch(`${t.baseUrl}/trpc/signing.${proc}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'vitest-signer' },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as any;
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    data: body.result?.data,
    error: body.error
      ? {
          code: body.error.data.code,
          message: body.error.message,
          retryAfterSeconds: body.error.data.retryAfterSeconds,
        }
      : null,
  };
}

async function otpSigner() {
  n += 1;
  const res = await sendRequest(t, owner, {
    template_id: templateId,
    signers: [{ name: 'Otto', email: `otto${n}@example.com` }],
    require_email_otp: true,
  });
  if (res.status !== 201) throw new Error(`send: ${res.status} ${res.text}`);
  return { token: tokenOf(res.body.signers[0].signing_url), signerId: res.body.signers[0].id as number };
}

/** The code in the newest code email of a signer (without SMTP_URL the outbox is the delivery channel). */
async function latestCode(signerId: number): Promise<string> {
  const mail = await t.db
    .selectFrom('mail_outbox')
    .select(['text_body'])
    .where('kind', '=', 'otp')
    .where('signer_id', '=', signerId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = /\b(\d{6})\b/.exec(mail.text_body)?.[1];
  if (!code) throw new Error(`no code in ${mail.text_body}`);
  return code;
}

const otherCode = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
const signerRow = (id: number) =>
  t.db.selectFrom('signers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const auditTypes = async (signerId: number) =>
  (
    await t.db
      .selectFrom('audit_events')
      .select(['type', 'ip', 'user_agent'])
      .where('signer_id', '=', signerId)
      .orderBy('id')
      .execute()
  ).filter((a) => a.type.startsWith('otp.'));

describe('email codes (require_email_otp)', () => {
  it('a code is locked after 5 wrong tries: 50 wrong guesses, then the right code is refused', async () => {
    const s = await otpSigner();
    expect((await call('requestCode', { token: s.token })).error).toBeNull();
    const code = await latestCode(s.signerId);
    const answers: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await call('verifyCode', { token: s.token, code: otherCode(code, i) });
      answers.push(`${r.status} ${r.error?.code}`);
    }
    expect(new Set(answers)).toEqual(new Set(['422 invalid_request']));
    const right = await call('verifyCode', { token: s.token, code });
    expect(right.data).toBeUndefined();
    expect(right.error?.code).toBe('invalid_request');
    expect(right.error?.message).toMatch(/too many wrong codes.*new code/i);
    // Only the tries up to the lock were counted and audited; later ones write nothing.
    expect((await signerRow(s.signerId)).otp_attempts).toBe(5);
    const audits = await auditTypes(s.signerId);
    expect(audits.filter((a) => a.type === 'otp.failed')).toHaveLength(5);
    expect(audits.filter((a) => a.type === 'otp.locked')).toHaveLength(1);
    // A new code unlocks (the lock is per code).
    t.clock.now = new Date(Date.now() + 31_000);
    expect((await call('requestCode', { token: s.token })).error).toBeNull();
    const fresh = await latestCode(s.signerId);
    expect((await call('verifyCode', { token: s.token, code: fresh })).data?.verified).toBe(true);
  });

  it('a wrong code is counted and audited although the call fails (the count survives the error)', async () => {
    const s = await otpSigner();
    await call('requestCode', { token: s.token });
    const code = await latestCode(s.signerId);
    const wrong = await call('verifyCode', { token: s.token, code: otherCode(code, 0) });
    expect(wrong.error?.code).toBe('invalid_request');
    expect(wrong.error?.message).toMatch(/not correct.*4 tries left/);
    expect((await signerRow(s.signerId)).otp_attempts).toBe(1);
    const failed = (await auditTypes(s.signerId)).filter((a) => a.type === 'otp.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ user_agent: 'vitest-signer', ip: expect.any(String) });
    // Four more wrong tries lock it; the fifth message says so.
    for (let i = 1; i < 4; i++) await call('verifyCode', { token: s.token, code: otherCode(code, i) });
    const fifth = await call('verifyCode', { token: s.token, code: otherCode(code, 4) });
    expect(fifth.error?.message).toMatch(/too many wrong codes/i);
    expect((await call('verifyCode', { token: s.token, code })).error?.code).toBe('invalid_request');
  });

  it('a code expires after 10 minutes; a new code works', async () => {
    const s = await otpSigner();
    const start = Date.now();
    t.clock.now = new Date(start);
    const sent = await call('requestCode', { token: s.token });
    expect(new Date(sent.data.expires_at).getTime()).toBe(start + 10 * 60_000);
    const code = await latestCode(s.signerId);
    t.clock.now = new Date(start + 10 * 60_000 + 1000);
    const late = await call('verifyCode', { token: s.token, code });
    expect(late.error?.code).toBe('invalid_request');
    expect(late.error?.message).toMatch(/expired/);
    expect((await auditTypes(s.signerId)).map((a) => a.type)).toContain('otp.expired');
    await call('requestCode', { token: s.token });
    const fresh = await latestCode(s.signerId);
    expect((await call('verifyCode', { token: s.token, code: fresh })).data?.verified).toBe(true);
  });

  it('at most 5 code requests per signer per hour: the 6th is 429 rate_limited with Retry-After', async () => {
    const s = await otpSigner();
    const start = Date.now();
    for (let i = 0; i < 5; i++) {
      t.clock.now = new Date(start + i * 31_000);
      const r = await call('requestCode', { token: s.token });
      expect(r.error).toBeNull();
    }
    t.clock.now = new Date(start + 5 * 31_000);
    const sixth = await call('requestCode', { token: s.token });
    expect(sixth.status).toBe(429);
    expect(sixth.error?.code).toBe('rate_limited');
    expect(sixth.error?.message).toMatch(/5 codes/);
    const wait = 3600 - 5 * 31;
    expect(sixth.error?.retryAfterSeconds).toBe(wait);
    expect(sixth.retryAfter).toBe(String(wait));
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('kind', '=', 'otp')
      .where('signer_id', '=', s.signerId)
      .execute();
    expect(mails).toHaveLength(5);
    // An hour after the first request, one more is allowed.
    t.clock.now = new Date(start + 3600_000 + 1000);
    expect((await call('requestCode', { token: s.token })).error).toBeNull();
  });

  it('a second request within 30 seconds is 429 rate_limited with Retry-After', async () => {
    const s = await otpSigner();
    const start = Date.now();
    t.clock.now = new Date(start);
    await call('requestCode', { token: s.token });
    t.clock.now = new Date(start + 10_000);
    const again = await call('requestCode', { token: s.token });
    expect([again.status, again.error?.code, again.retryAfter]).toEqual([429, 'rate_limited', '20']);
  });

  it('the stored code hash needs the server secret: a database copy alone cannot recover the code', async () => {
    const s = await otpSigner();
    await call('requestCode', { token: s.token });
    const code = await latestCode(s.signerId);
    const row = await signerRow(s.signerId);
    expect(row.otp_hash).toBeTruthy();
    expect(row.otp_hash).not.toContain(code);
    // The unkeyed SHA-256 of every possible code does not match the stored hash.
    let found: string | null = null;
    for (let c = 0; c < 1_000_000 && !found; c++) {
      const candidate = String(c).padStart(6, '0');
      if (sha256Hex(`${s.signerId}:${candidate}`) === row.otp_hash) found = candidate;
    }
    expect(found).toBeNull();
    expect((await call('verifyCode', { token: s.token, code })).data?.verified).toBe(true);
  });
});

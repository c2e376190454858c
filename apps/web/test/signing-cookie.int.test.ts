import { PNG_DOT, sendRequest, tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// operations.md §4: signing.verifyCode "unlocks the document for this browser session". A client
// that follows the documented inputs ({ token, values }) and keeps cookies, like a browser, must
// complete the email-code flow; `session` stays an optional input for clients without cookies.

let t: TestApp;
let owner: TestAccount;
let templateId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  templateId = (await twoRoleTemplate(t, owner)).id;
});
afterAll(() => t?.close());

async function otpRequest(email = 'otp@example.com') {
  const res = await sendRequest(t, owner, {
    template_id: templateId,
    send_email: false,
    require_email_otp: true,
    signers: [
      { role: 'Client', email },
      { role: 'Agent', email: 'agent@example.com' },
    ],
  });
  expect(res.status, res.text).toBe(201);
  return {
    tokens: res.body.signers.map((s: { signing_url: string }) => tokenOf(s.signing_url)),
    id: res.body.id,
  };
}

async function latestCode(email: string): Promise<string> {
  const mail = await t.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('kind', '=', 'otp')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(mail.text_body)![1]!;
}

/** Asks for a code and verifies it; returns the Set-Cookie headers and the answer. */
async function verify(token: string, email: string) {
  expect((await trpc(t, 'requestCode', { token })).status).toBe(200);
  return trpc(t, 'verifyCode', { token, code: await latestCode(email) });
}

describe('signing.verifyCode sets an HTTP-only session cookie (operations.md §4)', () => {
  it('a cookie-only client completes the email-code flow with { token, values }', async () => {
    const email = 'cookie-only@example.com';
    const { tokens } = await otpRequest(email);
    const token = tokens[0];
    const before = await trpc(t, 'open', { token }, 'query');
    expect(before.data.code_required).toBe(true);
    const verified = await verify(token, email);
    expect(verified.status).toBe(200);
    expect(verified.setCookies).toHaveLength(1);
    const cookie = verified.setCookies[0]!;
    expect(cookie).toMatch(/^esign_signing_\d+=[A-Za-z0-9_-]{40,}; /);
    expect(cookie).toContain('Path=/trpc');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toMatch(/Expires=/);
    const jar = { cookie: cookie.split(';')[0]! };

    const opened = await trpc(t, 'open', { token }, 'query', jar);
    expect(opened.data.code_required).toBe(false);
    expect(opened.data.fields.length).toBeGreaterThan(0);
    const saved = await trpc(
      t,
      'saveValues',
      { token, values: { 'Client name': 'Cookie Carol' } },
      'mutation',
      jar,
    );
    expect(saved.error).toBeNull();
    const done = await trpc(
      t,
      'complete',
      { token, values: { 'Client signature': PNG_DOT, 'Client name': 'Cookie Carol' } },
      'mutation',
      jar,
    );
    expect(done.error).toBeNull();
    expect(done.status).toBe(200);
  });

  it('without the cookie (or with another signer’s) the same calls are refused with forbidden', async () => {
    const { tokens } = await otpRequest('refused@example.com');
    const verified = await verify(tokens[0], 'refused@example.com');
    const jar = { cookie: verified.setCookies[0]!.split(';')[0]! };
    const none = await trpc(t, 'saveValues', { token: tokens[0], values: { 'Client name': 'X' } });
    expect(none.error?.code).toBe('forbidden');
    expect(none.error?.message).toBe('Enter the one-time code emailed to you first');
    // The cookie is named for its signer and checked against that signer's sessions.
    const renamed = { cookie: jar.cookie.replace(/^esign_signing_\d+/, 'esign_signing_999999') };
    expect(
      (await trpc(t, 'saveValues', { token: tokens[0], values: {} }, 'mutation', renamed)).error?.code,
    ).toBe('forbidden');
    const { tokens: others } = await otpRequest('other@example.com');
    const otherRow = await t.db
      .selectFrom('signers')
      .select('id')
      .where('email', '=', 'other@example.com')
      .executeTakeFirstOrThrow();
    const stolen = { cookie: jar.cookie.replace(/^esign_signing_\d+/, `esign_signing_${otherRow.id}`) };
    expect(
      (await trpc(t, 'saveValues', { token: others[0], values: {} }, 'mutation', stolen)).error?.code,
    ).toBe('forbidden');
  });

  it('keeps the explicit `session` input for embedders without cookies', async () => {
    const { tokens } = await otpRequest('embedder@example.com');
    const verified = await verify(tokens[0], 'embedder@example.com');
    const session = verified.data.session as string;
    expect(verified.setCookies[0]).toContain(session);
    const opened = await trpc(t, 'open', { token: tokens[0], session }, 'query');
    expect(opened.data.code_required).toBe(false);
  });

  it('records `viewed` only once the document is shown: after the code, not when the code gate opens', async () => {
    const email = 'viewed@example.com';
    const { tokens, id } = await otpRequest(email);
    const viewedEvents = () =>
      t.db
        .selectFrom('audit_events')
        .select('type')
        .where('signature_request_id', '=', id)
        .where('type', '=', 'signer.viewed')
        .execute();
    await trpc(t, 'open', { token: tokens[0] }, 'query');
    await trpc(t, 'open', { token: tokens[0] }, 'query');
    const gate = await t.db
      .selectFrom('signers')
      .select(['status', 'viewed_at'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(gate).toEqual({ status: 'ready', viewed_at: null });
    expect(await viewedEvents()).toHaveLength(0);
    const verified = await verify(tokens[0], email);
    const jar = { cookie: verified.setCookies[0]!.split(';')[0]! };
    await trpc(t, 'open', { token: tokens[0] }, 'query', jar);
    await trpc(t, 'open', { token: tokens[0] }, 'query', jar);
    const shown = await t.db
      .selectFrom('signers')
      .select(['status', 'viewed_at'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(shown.status).toBe('viewed');
    expect(shown.viewed_at).not.toBeNull();
    expect(await viewedEvents()).toHaveLength(1);
  });
});

import { createAccount } from '@esign/core/operator';
import { LINK_VISITS_PER_IP_PER_HOUR, SIGN_IN_RATE_LIMITS } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

// Issue 29 item 1: whose address the per-address limits and the records see. Unset TRUST_PROXY
// believes no X-Forwarded-For (the address is the TCP peer's, here 127.0.0.1); TRUST_PROXY naming
// the proxy (this test client, 127.0.0.1) makes the forwarded address the client's.

let plain: TestApp;
let proxied: TestApp;
let n = 0;
const PASSWORD = 'forwarded password 1';
const ROTATIONS = 12;

beforeAll(async () => {
  [plain, proxied] = await Promise.all([startTestApp(), startTestApp({ TRUST_PROXY: '127.0.0.1' })]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), proxied?.close()]);
});

const forwarded = (i: number) => ({ 'x-forwarded-for': `198.51.100.${(i % 250) + 1}` });

/** One password sign-in through /trpc, as the dashboard sends it; its HTTP status and cookie. */
async function signIn(t: TestApp, email: string, password: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}/trpc/auth.signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: t.baseUrl, ...headers },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return { status: res.status, cookie: res.headers.get('set-cookie') };
}

const stranger = () => `nobody-${++n}-${Date.now()}@example.com`;

/** A public signing link of a new template of a new account. */
async function publicLink(t: TestApp): Promise<string> {
  const owner = await createTestAccount(t.db, { credits: 5 });
  const tpl = await makeTemplate(t, owner, { name: 'Forwarded' });
  const on = await t.api('PATCH', `templates/${tpl.id}/signing_link`, {
    key: owner.key,
    body: { enabled: true },
  });
  expect(on.status).toBe(200);
  return on.body.url;
}

/** Asks the public link for a code, as its form does. */
async function askCode(url: string, email: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ name: 'Visitor', email }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, html: await res.text() };
}

/** Runs `fn` with the app's clock standing still in the middle of a minute (one fixed window). */
async function inOneWindow<T>(t: TestApp, fn: () => Promise<T>): Promise<T> {
  t.clock.now = new Date('2031-03-01T00:00:10Z');
  try {
    return await fn();
  } finally {
    t.clock.now = null;
  }
}

describe('issue 29 item 1: TRUST_PROXY unset, X-Forwarded-For is not believed', () => {
  it(`the per-address sign-in limit (${SIGN_IN_RATE_LIMITS.password.perAddress} a minute) answers 429 and keeps answering 429 for ${ROTATIONS} more tries with rotated X-Forwarded-For`, async () => {
    await inOneWindow(plain, async () => {
      for (let i = 0; i < SIGN_IN_RATE_LIMITS.password.perAddress; i++) {
        expect((await signIn(plain, stranger(), 'wrong password', forwarded(i))).status).toBe(401);
      }
      expect((await signIn(plain, stranger(), 'wrong password', forwarded(100))).status).toBe(429);
      const rotated: number[] = [];
      for (let i = 0; i < ROTATIONS; i++) {
        rotated.push((await signIn(plain, stranger(), 'wrong password', forwarded(200 + i))).status);
      }
      expect(rotated).toEqual(Array(ROTATIONS).fill(429));
    });
  });

  it(`the public link's per-address code limit (${LINK_VISITS_PER_IP_PER_HOUR} an hour) answers 429 and keeps answering 429 for ${ROTATIONS} more requests with rotated X-Forwarded-For`, async () => {
    const url = await publicLink(plain);
    for (let i = 0; i < LINK_VISITS_PER_IP_PER_HOUR; i++) {
      expect((await askCode(url, stranger(), forwarded(i))).status).toBe(200);
    }
    const refused = await askCode(url, stranger(), forwarded(100));
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('Too many codes were asked for from your network');
    const rotated: number[] = [];
    for (let i = 0; i < ROTATIONS; i++)
      rotated.push((await askCode(url, stranger(), forwarded(200 + i))).status);
    expect(rotated).toEqual(Array(ROTATIONS).fill(429));
  });

  it('the session row records the connecting address, not the forwarded one', async () => {
    const email = stranger();
    await plain.db
      .transaction()
      .execute((tx) =>
        createAccount(tx, { email, password: PASSWORD, name: 'Pat', accountName: 'Pat Co' }, new Date()),
      );
    const done = await signIn(plain, email, PASSWORD, { 'x-forwarded-for': '203.0.113.60' });
    expect(done.status).toBe(200);
    const row = await sessionOf(plain, email);
    expect(row.ip).toBe('127.0.0.1');
  });
});

describe('issue 29 item 1: TRUST_PROXY names the proxy, the forwarded address is the client', () => {
  it('two X-Forwarded-For values are two addresses: one is limited, the other is not', async () => {
    await inOneWindow(proxied, async () => {
      const a = { 'x-forwarded-for': '203.0.113.10' };
      for (let i = 0; i < SIGN_IN_RATE_LIMITS.password.perAddress; i++) {
        expect((await signIn(proxied, stranger(), 'wrong password', a)).status).toBe(401);
      }
      expect((await signIn(proxied, stranger(), 'wrong password', a)).status).toBe(429);
      const b = { 'x-forwarded-for': '203.0.113.11' };
      expect((await signIn(proxied, stranger(), 'wrong password', b)).status).toBe(401);
    });
  });

  it('the session row, the link visit and the audit trail record the forwarded address', async () => {
    const email = stranger();
    await proxied.db
      .transaction()
      .execute((tx) =>
        createAccount(tx, { email, password: PASSWORD, name: 'Fay', accountName: 'Fay Co' }, new Date()),
      );
    const done = await signIn(proxied, email, PASSWORD, { 'x-forwarded-for': '203.0.113.61' });
    expect(done.status).toBe(200);
    expect((await sessionOf(proxied, email)).ip).toBe('203.0.113.61');

    const url = await publicLink(proxied);
    const visitor = stranger();
    const xff = { 'x-forwarded-for': '203.0.113.62' };
    const started = await askCode(url, visitor, xff);
    expect(started.status).toBe(200);
    const visit = /name="visit" value="([^"]+)"/.exec(started.html)![1]!;
    const mail = await proxied.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', visitor)
      .executeTakeFirstOrThrow();
    const code = /(\d{6})/.exec(mail.subject)![1]!;
    const confirmed = await fetch(`${url}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...xff },
      body: new URLSearchParams({ visit, code, name: 'Visitor', email: visitor }).toString(),
      redirect: 'manual',
    });
    expect(confirmed.status).toBe(303);
    const row = await proxied.db
      .selectFrom('link_visits')
      .select(['ip', 'signature_request_id'])
      .where('email', '=', visitor)
      .executeTakeFirstOrThrow();
    expect(row.ip).toBe('203.0.113.62');
    const audit = await proxied.db
      .selectFrom('audit_events')
      .select('ip')
      .where('type', '=', 'link.email_confirmed')
      .where('signature_request_id', '=', row.signature_request_id)
      .executeTakeFirstOrThrow();
    expect(audit.ip).toBe('203.0.113.62');
  });
});

async function sessionOf(t: TestApp, email: string) {
  return t.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.ip')
    .where('users.email', '=', email)
    .executeTakeFirstOrThrow();
}

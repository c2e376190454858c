import { t as tr } from '@esign/i18n';
import { makeTemplate } from '@esign/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// The public signing link's pages over HTTP (docs/sending.md): what a browser or a script gets.

let t: TestApp;
let owner: TestAccount;
let url: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 5 });
  const tpl = await makeTemplate(t, owner, { name: 'Waiver' });
  const on = await t.api('PATCH', `templates/${tpl.id}/signing_link`, {
    key: owner.key,
    body: { enabled: true },
  });
  expect(on.status).toBe(200);
  url = on.body.url;
});
afterAll(() => t?.close());

const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });

describe('/l/{token}', () => {
  it('is never framed, cached or indexed; an unknown token is 404', async () => {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect((await fetch(`${t.baseUrl}/l/${'x'.repeat(43)}`)).status).toBe(404);
  });

  it('posts its forms to itself and sends its own origin as Referer; the CC page (issue 34.1) allows no form and no Referer', async () => {
    const page = await fetch(url);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const cc = await fetch(`${t.baseUrl}/cc/${'x'.repeat(43)}`);
    expect(cc.status).toBe(404);
    expect(cc.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(cc.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(cc.headers.get('referrer-policy')).toBe('no-referrer');
    expect(cc.headers.get('cache-control')).toBe('no-store');
    expect(cc.headers.get('x-robots-tag')).toContain('noindex');
  });

  it('refuses a form posted from another origin (403), and sends no code', async () => {
    const res = await post(
      url,
      { name: 'Eve', email: 'eve@example.com' },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', 'eve@example.com')
      .execute();
    expect(mail).toHaveLength(0);
  });

  it('per-address rate: the fourth code for one email in an hour is 429 with Retry-After, and the form says why', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post(url, { name: 'Rae', email: 'rae@example.com' })).status).toBe(200);
    const res = await post(url, { name: 'Rae', email: 'rae@example.com' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.text()).toContain('Too many codes were sent to this email address');
  });

  it('a wrong code shows the form again with the reason (422), the right one redirects (303) to the signing page', async () => {
    const started = await post(url, { name: 'Ian', email: 'ian@example.com' });
    const html = await started.text();
    const visit = /name="visit" value="([^"]+)"/.exec(html)![1]!;
    const bad = await post(`${url}/confirm`, { visit, code: '12', name: 'Ian', email: 'ian@example.com' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('six-digit code');
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', 'ian@example.com')
      .executeTakeFirstOrThrow();
    const code = /(\d{6})/.exec(mail.subject)![1]!;
    const ok = await post(`${url}/confirm`, { visit, code, name: 'Ian', email: 'ian@example.com' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(/\/s\/[\w-]+$/);
  });

  it('issue 42.6: a visitor reading the pages in German gets the code email, the invitation and the signing page in German', async () => {
    const de = { 'accept-language': 'de-DE,de;q=0.9' };
    const started = await post(url, { name: 'Jonas', email: 'jonas@example.com' }, de);
    const visit = /name="visit" value="([^"]+)"/.exec(await started.text())![1]!;
    const codeMail = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', 'jonas@example.com')
      .executeTakeFirstOrThrow();
    const code = /(\d{6})/.exec(codeMail.subject)![1]!;
    expect(codeMail.subject).toBe(tr('de', 'mail.code.subject', { code }));
    expect(codeMail.text_body).toContain(tr('de', 'mail.code.footer'));
    const ok = await post(`${url}/confirm`, { visit, code, name: 'Jonas', email: 'jonas@example.com' }, de);
    expect(ok.status).toBe(303);
    const signer = await t.db
      .selectFrom('signers')
      .select(['locale', 'signature_request_id'])
      .where('email', '=', 'jonas@example.com')
      .executeTakeFirstOrThrow();
    expect(signer.locale).toBe('de');
    const invitation = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'kind'])
      .where('to_address', '=', 'jonas@example.com')
      .where('kind', '!=', 'otp')
      .executeTakeFirstOrThrow();
    expect(invitation.subject).toBe(tr('de', 'mail.invite.subject', { title: 'Waiver' }));
    const page = await fetch(new URL(ok.headers.get('location')!, t.baseUrl));
    expect(await page.text()).toContain('<html lang="de"');
  });
});

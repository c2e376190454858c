import { t as tr } from '@esign/i18n';
import { makeTemplate } from '@esign/testing/fixtures';
import { tokenOf } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 42 item 6: the signer's language everywhere, from the first byte of the signing page.

let t: TestApp;
let owner: TestAccount;
let templateId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 20 });
  templateId = (await makeTemplate(t, owner)).id;
});
afterAll(async () => t?.close());

async function send(signer: Record<string, unknown>, body: Record<string, unknown> = {}) {
  const res = await t.api('POST', 'signature_requests', {
    key: owner.key,
    body: { template_id: templateId, signers: [{ email: 'lang@example.com', ...signer }], ...body },
  });
  expect(res.status, res.text).toBe(201);
  return tokenOf(res.body.signers[0].signing_url as string);
}

async function firstHtml(path: string, acceptLanguage = 'en-US,en;q=0.9') {
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { 'accept-language': acceptLanguage } });
  expect(res.status).toBe(200);
  return res.text();
}

describe("the signing page's first HTML is in the signer's language (issue 42.6)", () => {
  it.each([
    ['/s/', 'de', 'ltr'],
    ['/e/', 'fr', 'ltr'],
    ['/s/', 'ar', 'rtl'],
  ])(
    '%s{token} of a signer whose locale is %s: <html lang dir>, title, loading text and no-JavaScript message in it, whatever the browser says',
    async (prefix, locale, dir) => {
      const html = await firstHtml(`${prefix}${await send({ locale })}`);
      expect(html).toContain(`<html lang="${locale}" dir="${dir}"`);
      for (const key of ['page.title', 'page.loading', 'page.noscript'] as const) {
        expect(tr(locale as 'de', key)).not.toBe(tr('en', key));
        expect(html).toContain(tr(locale as 'de', key).replace(/'/g, '&#39;'));
        expect(html).not.toContain(tr('en', key));
      }
    },
  );

  it("the request's locale, then the account's, name the language before the browser's", async () => {
    expect(await firstHtml(`/s/${await send({}, { locale: 'it' })}`, 'de')).toContain('<html lang="it"');
  });

  it("a link that names no signer reads the browser's language", async () => {
    expect(await firstHtml('/s/not-a-token', 'pl,en;q=0.5')).toContain('<html lang="pl"');
    expect(await firstHtml(`/s/${await send({})}`, 'nl-NL')).toContain('<html lang="nl"');
  });
});

describe("the CC page in the request's language (issue 42.6)", () => {
  it("a CC link of a request in German is a German page whatever the browser says; an unknown one reads the browser's language", async () => {
    const res = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: templateId,
        locale: 'de',
        signers: [{ email: 'signer-de@example.com' }],
        cc: ['kopie@example.com'],
      },
    });
    expect(res.status, res.text).toBe(201);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('links')
      .where('to_address', '=', 'kopie@example.com')
      .where('kind', '=', 'cc')
      .executeTakeFirstOrThrow();
    const link = new URL((mail.links as string[]).find((l) => l.includes('/cc/'))!);
    const html = await firstHtml(link.pathname);
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain(tr('de', 'cc.status.sent'));
    expect(html).not.toContain(tr('en', 'cc.lead'));
    const missing = await fetch(`${t.baseUrl}/cc/${'x'.repeat(43)}`, {
      headers: { 'accept-language': 'pl' },
    });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(tr('pl', 'cc.not_found.body'));
  });
});

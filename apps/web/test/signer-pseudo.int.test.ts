import { mkdirSync } from 'node:fs';
import { authenticateApiKey, createCaller, createContext, createLogger } from '@esign/core';
import { LANGUAGE_NAMES, usePseudoLocale } from '@esign/i18n';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { englishLeft } from '@esign/testing/pseudo-words';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 42, Done when: "Pseudo-localisation (the dashboard already has `en-XA`) runs over the
// signing page, the CC page, public-link pages ... too: no English left that is not data." The
// pages in Chromium with every signer message in en-XA (each accented between ⟦ and ⟧): the server's
// words through @esign/i18n usePseudoLocale, the signing page's script through
// localStorage['esign.signing.locale'] = 'en-XA'. A word a signer can read (text, labels,
// placeholders, tooltips, the title) that is neither from the catalogue nor data is English
// written inline (the dashboard's check, dashboard-pseudo.int.test.ts).

const SHOTS = '/tmp/esign-signer-pseudo';
const logger = createLogger('silent', 'test');

/** What a reader sees: the title, visible text nodes, and labels, placeholders, tooltips, alt texts. */
async function readable(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'CODE', 'PRE'].includes(el.tagName)) continue;
      if (el.tagName !== 'OPTION' && !el.checkVisibility()) continue;
      out.push(node.textContent ?? '');
    }
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [placeholder], [title], [alt]'))
      for (const name of ['aria-label', 'placeholder', 'title', 'alt'])
        if (el.hasAttribute(name)) out.push(el.getAttribute(name) ?? '');
    return out;
  });
}

describe.runIf(browserTestsEnabled('signer pseudo-language'))(
  'issue 42: the signing page, the CC page and the public-link pages in en-XA show no English written inline',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;
    let ctx: BrowserContext;
    let templateId: number;
    const TITLE = 'Ωμέγα';
    const data: string[] = [
      TITLE,
      'Ἀλφα',
      'alpha@example.com',
      'Όνομα',
      'Υπογραφή',
      'Ρόλος',
      'Βήτα',
      'Δέλτα',
    ];
    const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.4, h: 0.06, document: 0 });

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      usePseudoLocale(true);
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
      const tpl = await t.api('POST', 'templates', {
        key: owner.key,
        body: {
          name: TITLE,
          documents: [{ name: TITLE, file: b64(await plainPdf(1, 'Omega')) }],
          fields: [
            { name: 'Όνομα', type: 'text', role: 'Ρόλος', areas: [area(0.2)] },
            { name: 'Υπογραφή', type: 'signature', role: 'Ρόλος', areas: [area(0.4)] },
            { name: 'Ποσό', type: 'number', role: 'Βοηθός', areas: [area(0.6)] },
          ],
        },
      });
      expect(tpl.status, tpl.text).toBe(201);
      templateId = tpl.body.id;
      const user = await t.db
        .selectFrom('users')
        .innerJoin('accounts', 'accounts.id', 'users.account_id')
        .select(['users.name as user', 'accounts.name as account'])
        .where('users.id', '=', owner.userId)
        .executeTakeFirstOrThrow();
      // Each language in its own name (the language select) and the sender's names: data.
      data.push(user.user ?? '', user.account ?? '', owner.email, 'Ποσό', 'Βοηθός');
      data.push(...Object.values(LANGUAGE_NAMES));
      ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await ctx.addInitScript(() => localStorage.setItem('esign.signing.locale', 'en-XA'));
    }, 120_000);
    afterAll(async () => {
      usePseudoLocale(false);
      await browser?.close();
      await t?.close();
    });

    async function check(page: Page, name: string): Promise<string[]> {
      await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
      const left = new Set<string>();
      for (const text of await readable(page))
        for (const word of englishLeft(text, data)) left.add(`${word} in "${text.trim().slice(0, 80)}"`);
      return [...left];
    }

    it('issue 42: the signing page (its first HTML, the page, a field’s dialog and the review step) has no English outside the catalogue but data', async () => {
      const sent = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: templateId,
          signers: [
            { role: 'Ρόλος', name: 'Ἀλφα', email: 'alpha@example.com' },
            { role: 'Βοηθός', name: 'Βήτα', email: 'beta@example.com' },
          ],
          cc: ['gamma@example.com'],
          message: { subject: 'Θέμα', body: 'Κείμενο' },
        },
      });
      expect(sent.status, sent.text).toBe(201);
      data.push('Θέμα', 'Κείμενο', 'beta@example.com', 'gamma@example.com');
      const page = await ctx.newPage();
      // The first HTML, before the script runs (title, loading text, the no-JavaScript message).
      const shell = await (await fetch(sent.body.signers[0].signing_url)).text();
      const shellText = shell
        .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
        .replace(/<[^>]+>/g, ' ')
        .replace(/&[a-z#0-9]+;/g, ' ');
      const left: Record<string, string[]> = {};
      const shellLeft = englishLeft(shellText, data);
      if (shellLeft.length) left.shell = shellLeft;

      await page.goto(sent.body.signers[0].signing_url);
      await page.locator('main.docs .page img').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-XA');
      const main = await check(page, 'signing');
      if (main.length) left.signing = main;

      await page.locator('main').getByRole('button', { name: /Όνομα/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const field = await check(page, 'signing-field');
      if (field.length) left.field = field;
      await dialog.locator('input, textarea').first().fill('Ἀλφα');
      await dialog.locator('button[type=submit]').click();
      await expect.poll(() => dialog.count()).toBe(0);

      // Finish with the signature missing: the error summary.
      await page.locator('button.btn.primary').first().click();
      await page.waitForTimeout(300);
      const summary = await check(page, 'signing-required');
      if (summary.length) left.required = summary;
      expect(left).toEqual({});
      await page.close();
    }, 180_000);

    it('issue 42: the CC page has no English outside the catalogue but data', async () => {
      const cc = await t.db
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', 'gamma@example.com')
        .where('kind', '=', 'cc')
        .executeTakeFirstOrThrow();
      const url = /https?:\/\/\S+\/cc\/\S+/.exec(cc.text_body)![0]!;
      const page = await ctx.newPage();
      await page.goto(url.replace(/^https?:\/\/[^/]+/, t.baseUrl));
      await page.locator('h1').first().waitFor();
      const left = await check(page, 'cc');
      expect(left).toEqual([]);
      await page.close();
    });

    it('issue 42: the public link’s pages (who signs, the code, a wrong code) have no English outside the catalogue but data', async () => {
      const actor = await authenticateApiKey(t.db, `Bearer ${owner.key}`, new Date());
      const caller = createCaller(
        createContext({ db: t.db, logger, config: t.config, deps: t.rt.deps, actor, source: 'api' }),
      );
      const link = await caller.signingLinks.update({
        id: templateId,
        enabled: true,
        role: 'Ρόλος',
        preset_signers: [{ role: 'Βοηθός', name: 'Δέλτα', email: 'delta@example.com' }],
      } as never);
      data.push('delta@example.com', 'iota@example.com', 'Ἰῶτα');
      const page = await ctx.newPage();
      const left: Record<string, string[]> = {};
      await page.goto(`${t.baseUrl}${new URL(link.url!).pathname}`);
      await page.locator('form').waitFor();
      const details = await check(page, 'link-details');
      if (details.length) left.details = details;
      await page.locator('#name').fill('Ἰῶτα');
      await page.locator('#email').fill('iota@example.com');
      await page.locator('button[type=submit]').click();
      await page.locator('input[name=code]').waitFor();
      const code = await check(page, 'link-code');
      if (code.length) left.code = code;
      await page.locator('input[name=code]').fill('000000');
      await page.locator('button[type=submit]').click();
      await page.locator('[role=alert]').waitFor();
      const wrong = await check(page, 'link-wrong-code');
      if (wrong.length) left.wrong = wrong;
      expect(left).toEqual({});
      await page.close();
    });
  },
);

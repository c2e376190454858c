import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { PNG_DOT, tokenOf, trpc } from '@esign/testing/signing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { seriousViolations } from './axe.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 44 item 2, "Done when", beyond the signing page's own test (signing-brand.int.test.ts): in
// Chromium on a phone and a desktop, in English, German and Arabic, a request sent with brand B
// shows B's logo, name and colours on its CC page, on the page its finished link shows (the
// completion screen) and on its template's public signing link; axe reports no serious
// violation; a request with brand C of the same account shows C. Screenshots: BRAND_SCREENSHOTS.

const SHOTS = process.env.BRAND_SCREENSHOTS ?? join(tmpdir(), 'esign-brand-pages');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 860 } };

function logo(color: string, text: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80"><rect width="240" height="80" fill="${color}"/><text x="20" y="55" font-size="40" font-family="sans-serif" fill="#fff">${text}</text></svg>`;
  return Buffer.from(svg).toString('base64');
}

const BRANDS = {
  B: {
    name: 'Brand B <b>Builders</b>',
    logo: logo('#7c3aed', 'B-LOGO'),
    primary_color: '#7c3aed',
    accent_color: '#6d28d9',
  },
  C: { name: 'Clinic C', logo: logo('#047857', 'C-LOGO'), primary_color: '#047857', accent_color: '#065f46' },
} as const;
const RGB = { B: 'rgb(124, 58, 237)', C: 'rgb(4, 120, 87)' } as const;

describe.runIf(browserTestsEnabled('brand pages'))(
  'issue 44.2: the CC, finished and public link pages under a brand',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;
    let templateId: number;
    const ids: Record<'B' | 'C', number> = { B: 0, C: 0 };

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
      const tpl = await t.api('POST', 'templates', {
        key: owner.key,
        body: {
          name: 'Contract',
          documents: [{ name: 'Contract', file: b64(await plainPdf(1, 'Contract')) }],
          fields: [
            {
              name: 'Signature',
              type: 'signature',
              role: 'Client',
              areas: [{ page: 1, x: 0.1, y: 0.4, w: 0.4, h: 0.06 }],
            },
          ],
        },
      });
      expect(tpl.status, tpl.text).toBe(201);
      templateId = tpl.body.id;
      for (const key of ['B', 'C'] as const) {
        const res = await t.api('POST', 'brands', { key: owner.key, body: BRANDS[key] });
        expect(res.status, res.text).toBe(201);
        ids[key] = res.body.id;
      }
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    /** A request under `brand` in `locale`, with a CC; its signer's link and the CC's link. */
    async function send(brand: 'B' | 'C', locale: string) {
      const cc = `cc-${brand}-${locale}-${Math.random().toString(36).slice(2)}@example.com`;
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: templateId,
          brand_id: ids[brand],
          locale,
          send_email: false,
          cc: [cc],
          signers: [{ role: 'Client', email: 'client@example.com', name: 'Kim' }],
        },
      });
      expect(res.status, res.text).toBe(201);
      const mail = await t.db
        .selectFrom('mail_outbox')
        .select('links')
        .where('to_address', '=', cc)
        .executeTakeFirstOrThrow();
      const ccUrl = (mail.links as string[]).find((l) => l.includes('/cc/'))!;
      return { signingUrl: res.body.signers[0].signing_url as string, ccUrl };
    }

    /** The brand strip above the page: the name as text (no markup), the logo a PNG that loaded. */
    async function expectBrand(page: Page, brand: 'B' | 'C') {
      const header = page.locator('#brand');
      await expect.poll(() => header.locator('.brand-name').textContent()).toBe(BRANDS[brand].name);
      expect(await header.locator('b').count()).toBe(0);
      const img = header.locator('img.brand-logo');
      expect(await img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      await expect
        .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
        .toBe(true);
      expect(await page.content()).not.toMatch(/powered by/i);
    }

    const cases = [
      ['B', 'en', 'phone', PHONE],
      ['B', 'de', 'desktop', DESKTOP],
      ['B', 'ar', 'phone', PHONE],
      ['B', 'ar', 'desktop', DESKTOP],
      ['C', 'en', 'desktop', DESKTOP],
      ['C', 'de', 'phone', PHONE],
    ] as const;

    it.each(cases)(
      'brand %s in %s on a %s: the CC page and the finished link show it',
      async (brand, locale, device, options) => {
        const { signingUrl, ccUrl } = await send(brand, locale);
        const ctx = await browser.newContext({ ...options, locale });
        try {
          const page = await ctx.newPage();
          await page.goto(ccUrl);
          await expectBrand(page, brand);
          expect(await page.locator('html').getAttribute('lang')).toBe(locale);
          if (locale === 'ar') expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
          const link = page.locator('main ul a').first();
          expect(await link.evaluate((el) => getComputedStyle(el).color)).toBe(
            brand === 'B' ? 'rgb(109, 40, 217)' : 'rgb(6, 95, 70)',
          );
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({ path: join(SHOTS, `cc-${brand}-${locale}-${device}.png`), fullPage: true });

          // Signed: the link now shows the finished screen, under the same brand.
          const done = await trpc(t, 'complete', {
            token: tokenOf(signingUrl),
            values: { Signature: PNG_DOT },
          });
          expect(done.error, JSON.stringify(done.error)).toBeNull();
          await page.goto(signingUrl);
          await page.locator('#brand .brand-name').waitFor();
          await expectBrand(page, brand);
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({
            path: join(SHOTS, `finished-${brand}-${locale}-${device}.png`),
            fullPage: true,
          });
        } finally {
          await ctx.close();
        }
      },
    );

    it.each([
      ['B', 'en', 'phone', PHONE],
      ['B', 'de', 'desktop', DESKTOP],
      ['B', 'ar', 'phone', PHONE],
      ['C', 'de', 'desktop', DESKTOP],
    ] as const)(
      'the public signing link of a template under brand %s in %s on a %s',
      async (brand, locale, device, options) => {
        const chosen = await t.api('PATCH', `templates/${templateId}`, {
          key: owner.key,
          body: { brand_id: ids[brand] },
        });
        expect(chosen.status, chosen.text).toBe(200);
        const on = await t.api('PATCH', `templates/${templateId}/signing_link`, {
          key: owner.key,
          body: { enabled: true },
        });
        expect(on.status, on.text).toBe(200);
        const ctx = await browser.newContext({
          ...options,
          locale,
          extraHTTPHeaders: { 'accept-language': locale },
        });
        try {
          const page = await ctx.newPage();
          await page.goto(on.body.url);
          await expectBrand(page, brand);
          const button = page.locator('button[type="submit"]');
          expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(RGB[brand]);
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({
            path: join(SHOTS, `link-${brand}-${locale}-${device}.png`),
            fullPage: true,
          });
        } finally {
          await ctx.close();
        }
      },
    );
  },
);

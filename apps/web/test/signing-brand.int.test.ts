import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { b64, plainPdf } from '@esign/testing/pdfs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 44, "Done when": in Chromium, on a phone and a desktop, a request sent with brand B shows
// B's logo, colours and name on the signing page, in English, German and Arabic; a request with
// brand C of the same account shows C. Screenshots go to BRAND_SCREENSHOTS.

const SHOTS = process.env.BRAND_SCREENSHOTS ?? join(tmpdir(), 'esign-signing-brand');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 860 } };

/** An SVG logo (stored rasterised to PNG: what the page shows is never SVG). */
function logo(color: string, text: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80"><rect width="240" height="80" fill="${color}"/><text x="20" y="55" font-size="40" font-family="sans-serif" fill="#fff">${text}</text></svg>`;
  return Buffer.from(svg).toString('base64');
}

describe.runIf(browserTestsEnabled('signing brand'))('the signing page under a brand (issue 44)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let browser: Browser;
  let templateId: number;
  const brands: Record<'B' | 'C', number> = { B: 0, C: 0 };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { lifetime: true });
    const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.4, h: 0.06, document: 0 });
    const tpl = await t.api('POST', 'templates', {
      key: owner.key,
      body: {
        name: 'Contract',
        documents: [{ name: 'Contract', file: b64(await plainPdf(1, 'Contract')) }],
        fields: [{ name: 'Signature', type: 'signature', role: 'Client', areas: [area(0.4)] }],
      },
    });
    expect(tpl.status, tpl.text).toBe(201);
    templateId = tpl.body.id;
    for (const [key, body] of [
      [
        'B',
        {
          name: 'Brand B <b>Builders</b>',
          logo: logo('#7c3aed', 'B-LOGO'),
          primary_color: '#7c3aed',
          accent_color: '#6d28d9',
        },
      ],
      [
        'C',
        {
          name: 'Clinic C',
          logo: logo('#047857', 'C-LOGO'),
          primary_color: '#047857',
          accent_color: '#065f46',
        },
      ],
    ] as const) {
      const res = await t.api('POST', 'brands', { key: owner.key, body });
      expect(res.status, res.text).toBe(201);
      brands[key] = res.body.id;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signingUrl(brand: 'B' | 'C', locale: string): Promise<string> {
    const res = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: templateId,
        brand_id: brands[brand],
        locale,
        send_email: false,
        signers: [{ role: 'Client', email: 'client@example.com', name: 'Kim' }],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.signers[0].signing_url as string;
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
    'brand %s in %s on a %s: its logo, name and primary colour (buttons, focus ring)',
    async (brand, locale, device, options) => {
      const url = await signingUrl(brand, locale);
      const ctx = await browser.newContext({ ...options });
      try {
        const page = await ctx.newPage();
        await page.goto(url);
        await page.locator('.bar h1').waitFor();
        const header = page.locator('#brand');
        const expected =
          brand === 'B'
            ? { name: 'Brand B <b>Builders</b>', color: 'rgb(124, 58, 237)' }
            : { name: 'Clinic C', color: 'rgb(4, 120, 87)' };
        // The name is text: the markup in B's name shows as written, never as a <b> element.
        await expect.poll(() => header.locator('.brand-name').textContent()).toBe(expected.name);
        expect(await header.locator('b').count()).toBe(0);
        const img = header.locator('img.brand-logo');
        expect(await img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
        expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
        expect(await page.locator('html').getAttribute('lang')).toBe(locale);
        if (locale === 'ar') expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
        const primary = page.locator('.btn.primary:visible').first();
        expect(await primary.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(expected.color);
        await primary.focus();
        expect(await primary.evaluate((el) => getComputedStyle(el).outlineColor)).toBe(expected.color);
        await page.screenshot({ path: join(SHOTS, `brand-${brand}-${locale}-${device}.png`) });
      } finally {
        await ctx.close();
      }
    },
  );
});

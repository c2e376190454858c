import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { t as tr } from '@esign/i18n';
import { b64, plainPdf } from '@esign/testing/pdfs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, requireTool, writeTemp } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';

// Issue 46 "done when", in Chromium on a phone: a branching form (company / person), a price
// formula and an IBAN field, signed in both paths; the page shows and hides fields as the signer
// answers, computes the total, refuses a wrong IBAN as the server would, and the sealed PDFs
// draw only each path's fields. Screenshots go to FORM_LOGIC_SCREENSHOTS (/tmp/forms-shots).

const SHOTS = process.env.FORM_LOGIC_SCREENSHOTS ?? '/tmp/forms-shots';
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const en = (key: Parameters<typeof tr>[1], values?: Parameters<typeof tr>[2]) => tr('en', key, values);
const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.6, h: 0.05, document: 0 }];
const company = { all: [{ field: 'Customer kind', op: 'equals', value: 'Company' }] };
const person = { all: [{ field: 'Customer kind', op: 'equals', value: 'Person' }] };

describe.runIf(browserTestsEnabled('signing form logic'))(
  'issue 46: a form that thinks, signed on a phone',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;
    let templateId: number;
    const logger = createLogger('silent', 'test');

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
      const tpl = await t.api('POST', 'templates', {
        key: owner.key,
        body: {
          name: 'Order',
          documents: [{ name: 'Order', file: b64(await plainPdf(1, 'Order')) }],
          fields: [
            {
              name: 'Customer kind',
              type: 'radio',
              role: 'Customer',
              options: ['Company', 'Person'],
              areas: area(0.05),
            },
            { name: 'Company name', type: 'text', role: 'Customer', show_when: company, areas: area(0.13) },
            { name: 'Full name', type: 'text', role: 'Customer', show_when: person, areas: area(0.21) },
            {
              name: 'Quantity',
              type: 'number',
              role: 'Customer',
              validation: { min: 1, step: 1 },
              areas: area(0.29),
            },
            { name: 'Unit price', type: 'number', role: 'Customer', areas: area(0.37) },
            {
              name: 'Total',
              type: 'number',
              role: 'Customer',
              formula: '{Quantity} * {Unit price}',
              format: { decimals: 2, suffix: ' EUR' },
              areas: area(0.45),
            },
            {
              name: 'IBAN',
              type: 'text',
              role: 'Customer',
              validation: { preset: 'iban' },
              areas: area(0.53),
            },
            {
              name: 'Signature',
              type: 'signature',
              role: 'Customer',
              areas: [{ page: 1, x: 0.1, y: 0.7, w: 0.5, h: 0.1 }],
            },
          ],
        },
      });
      expect(tpl.status, tpl.text).toBe(201);
      templateId = tpl.body.id;
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const fieldButton = (page: Page, name: string) =>
      page.locator('main').getByRole('button', { name: new RegExp(`^${name} \\(`) });
    const dialog = (page: Page) => page.getByRole('dialog');

    async function save(page: Page) {
      await dialog(page)
        .getByRole('button', { name: en('fill.save') })
        .click();
      await expect.poll(() => dialog(page).count()).toBe(0);
    }
    async function typeInto(page: Page, field: string, text: string) {
      await fieldButton(page, field).click();
      await dialog(page).locator('input').first().fill(text);
      await save(page);
    }
    async function choose(page: Page, kind: string) {
      await fieldButton(page, 'Customer kind').click();
      await dialog(page).getByRole('radio', { name: kind }).check();
      await save(page);
    }

    async function signPath(kind: 'Company' | 'Person') {
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: templateId,
          signers: [{ role: 'Customer', name: 'Cleo', email: 'cleo@example.com' }],
        },
      });
      expect(res.status, res.text).toBe(201);
      const ctx = await browser.newContext(PHONE);
      const page = await ctx.newPage();
      await page.goto(res.body.signers[0].signing_url);
      await fieldButton(page, 'Customer kind').waitFor();
      // Before an answer, neither branch is shown.
      expect(await fieldButton(page, 'Company name').count()).toBe(0);
      expect(await fieldButton(page, 'Full name').count()).toBe(0);
      await choose(page, kind);
      const shown = kind === 'Company' ? 'Company name' : 'Full name';
      const hidden = kind === 'Company' ? 'Full name' : 'Company name';
      await fieldButton(page, shown).waitFor();
      expect(await fieldButton(page, hidden).count()).toBe(0);
      await typeInto(page, shown, kind === 'Company' ? 'ACME GmbH' : 'Jane Roe');
      await typeInto(page, 'Quantity', kind === 'Company' ? '3' : '2');
      await typeInto(page, 'Unit price', kind === 'Company' ? '19.99' : '12.5');
      // The total is computed on the page, read-only.
      const total = kind === 'Company' ? '59.97' : '25';
      await expect.poll(() => page.locator('main').innerText()).toContain(total);
      // A wrong IBAN is refused as the server would, with the same message: as the signer types…
      await fieldButton(page, 'IBAN').click();
      await dialog(page).locator('input').first().fill('DE88 3704 0044 0532 0130 00');
      await expect
        .poll(() => dialog(page).locator('.hint.error').textContent())
        .toBe(en('error.form_iban', { field: 'IBAN' }));
      await dialog(page).locator('input').first().fill('DE89 3704 0044 0532 0130 00');
      await expect.poll(() => dialog(page).locator('.hint.error').count()).toBe(0);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog(page).count()).toBe(0);
      // …and on the field once saved.
      await typeInto(page, 'IBAN', 'DE88 3704 0044 0532 0130 00');
      const tip = page.locator('.field-tip:not([hidden])');
      await expect.poll(() => tip.first().textContent()).toBe(en('error.form_iban', { field: 'IBAN' }));
      await page.screenshot({ path: join(SHOTS, `${kind.toLowerCase()}-iban-refused.png`) });
      await typeInto(page, 'IBAN', 'DE89 3704 0044 0532 0130 00');
      await fieldButton(page, 'Signature').click();
      await expect.poll(() => dialog(page).locator('canvas').isVisible()).toBe(true);
      await drawSignature(page, dialog(page).locator('canvas'));
      await save(page);
      await page.screenshot({ path: join(SHOTS, `${kind.toLowerCase()}-filled.png`) });
      await page.getByRole('button', { name: en('sign.finish') }).click();
      const review = page.getByRole('dialog', { name: en('review.title') });
      await review.waitFor();
      await review.getByRole('button', { name: en('review.sign'), exact: true }).click();
      await expect
        .poll(
          async () =>
            (await t.api('GET', `signature_requests/${res.body.id}`, { key: owner.key })).body.status,
        )
        .toBe('completed');
      await ctx.close();
      await drainJobs(
        { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
        jobHandlers,
      );
      const done = await t.api('GET', `signature_requests/${res.body.id}`, { key: owner.key });
      const pdf = new Uint8Array(await (await fetch(done.body.documents[0].url)).arrayBuffer());
      const file = writeTemp(SHOTS, `${kind.toLowerCase()}-sealed.pdf`, pdf);
      return {
        text: pdfText(file),
        values: done.body.signers[0].values as { field: string; value: unknown }[],
      };
    }

    it('issue 46 done-when: company path shows the company fields, computes 59.97 EUR; the sealed PDF has only them', async () => {
      requireTool('pdftotext');
      const { text, values } = await signPath('Company');
      expect(text).toContain('ACME GmbH');
      expect(text).toContain('59.97 EUR');
      expect(text).not.toContain('Jane');
      expect(values).toContainEqual({ field: 'Total', value: 59.97 });
      expect(values.map((v) => v.field)).not.toContain('Full name');
    });

    it('issue 46 done-when: person path shows the person fields, computes 25 EUR; the sealed PDF has only them', async () => {
      requireTool('pdftotext');
      const { text, values } = await signPath('Person');
      expect(text).toContain('Jane Roe');
      expect(text).toContain('25 EUR');
      expect(text).not.toContain('ACME');
      expect(values).toContainEqual({ field: 'Total', value: 25 });
    });
  },
);

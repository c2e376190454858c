import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { t as tr } from '@esign/i18n';
import { plainPdf } from '@esign/testing/pdfs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, requireTool, writeTemp } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { seriousViolations } from './axe.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';
import {
  createTemplate,
  DESKTOP,
  getTemplate,
  openEditor,
  PHONE as PHONE_EDITOR,
  signedInContext,
  waitSaved,
} from './editor-helpers.ts';

// Issue 46 item 4 in Chromium: the template editor's rule builder (show / require this field
// when…, a formula with a live check and its format, ready-made and own checks), saved into the
// template, the server's refusals shown by their control, the preview as a signer sees it, and a
// form built in the editor signed on a phone to a sealed PDF. Screenshots go to
// FORM_LOGIC_SCREENSHOTS (/tmp/forms-shots).

const SHOTS = process.env.FORM_LOGIC_SCREENSHOTS ?? '/tmp/forms-shots';
const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.4, h: 0.05 }];
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const en = (key: Parameters<typeof tr>[1], values?: Parameters<typeof tr>[2]) => tr('en', key, values);

describe.runIf(browserTestsEnabled('editor form logic'))('issue 46: the editor’s rule builder', () => {
  let t: TestApp;
  let owner: TestAccount;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { credits: 5 });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a non-programmer builds “show VAT when Kind is Company”, a total formula and an IBAN check; saved and previewed', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(1), {
      fields: [
        { name: 'Kind', type: 'radio', role: 'Signer', options: ['Company', 'Person'], areas: area(0.1) },
        { name: 'VAT', type: 'text', role: 'Signer', areas: area(0.2) },
        { name: 'Qty', type: 'number', role: 'Signer', areas: area(0.3) },
        { name: 'Total', type: 'number', role: 'Signer', required: false, areas: area(0.4) },
        { name: 'IBAN', type: 'text', role: 'Signer', areas: area(0.5) },
      ],
    });
    const tab = await signedInContext(browser, t, owner, DESKTOP);
    await openEditor(tab, t, tpl.id);
    const { page } = tab;
    const select = (name: string) => page.locator(`[data-field="${name}"]`).first().click();

    await select('VAT');
    await page.getByLabel('Show this field').selectOption('all');
    await page.locator('#ed-rule-0-field').selectOption('Kind');
    await page.locator('#ed-rule-0-op').selectOption('equals');
    await page.locator('#ed-rule-0-value').selectOption('Company');
    await waitSaved(page);

    await select('Total');
    const formula = page.getByLabel('Formula (computed, the signer cannot change it)');
    await formula.fill('{Qty} * (');
    await expect.poll(() => page.locator('#ed-formula-check').textContent()).toMatch(/^Not valid: /);
    await formula.fill('{Qty} * 10');
    await expect.poll(() => page.locator('#ed-formula-check').textContent()).toBe('The formula is valid.');
    await waitSaved(page);

    await select('IBAN');
    await page.getByLabel('Ready-made check').selectOption('iban');
    await waitSaved(page);
    await select('VAT');
    await page.screenshot({ path: join(SHOTS, 'editor-rule-builder.png') });

    const byName = Object.fromEntries((await getTemplate(t, owner, tpl.id)).fields.map((f) => [f.name, f]));
    expect(byName.VAT).toMatchObject({
      show_when: { all: [{ field: 'Kind', op: 'equals', value: 'Company' }] },
    });
    expect(byName.Total).toMatchObject({ formula: '{Qty} * 10' });
    expect(byName.IBAN).toMatchObject({ validation: { preset: 'iban' } });

    // The preview: the signing page as the role sees it, the rule evaluated.
    const [preview] = await Promise.all([
      tab.ctx.waitForEvent('page'),
      page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    const field = (name: string) =>
      preview.locator('main').getByRole('button', { name: new RegExp(`^${name} \\(`) });
    await field('Kind').waitFor({ timeout: 30_000 });
    expect(await field('VAT').count()).toBe(0);
    await field('Kind').click();
    await preview.getByRole('dialog').getByRole('radio', { name: 'Company' }).check();
    await preview.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await field('VAT').waitFor();
    await preview.screenshot({ path: join(SHOTS, 'editor-preview-company.png') });
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 120_000);
  it('issue 46 done-when, built in the editor: company / person with required_when on the VAT number, a price formula with its format, an IBAN; refusals shown by their control; sent by the API and signed on a phone; the sealed PDF has the VAT number and the formatted total', async () => {
    requireTool('pdftotext');
    const tpl = await createTemplate(t, owner, await plainPdf(1), {
      fields: [
        {
          name: 'Customer kind',
          type: 'radio',
          role: 'Customer',
          options: ['Company', 'Person'],
          areas: area(0.05),
        },
        { name: 'VAT number', type: 'text', role: 'Customer', required: false, areas: area(0.15) },
        { name: 'Full name', type: 'text', role: 'Customer', required: false, areas: area(0.25) },
        { name: 'Quantity', type: 'number', role: 'Customer', areas: area(0.35) },
        { name: 'Unit price', type: 'number', role: 'Customer', areas: area(0.45) },
        { name: 'Total', type: 'number', role: 'Customer', required: false, areas: area(0.55) },
        { name: 'IBAN', type: 'text', role: 'Customer', areas: area(0.65) },
        {
          name: 'Signature',
          type: 'signature',
          role: 'Customer',
          areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.4, h: 0.1 }],
        },
      ],
    });
    const tab = await signedInContext(browser, t, owner, DESKTOP);
    await openEditor(tab, t, tpl.id);
    await buildOrderForm(tab.page);
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();

    const byName = Object.fromEntries((await getTemplate(t, owner, tpl.id)).fields.map((f) => [f.name, f]));
    const company = { all: [{ field: 'Customer kind', op: 'equals', value: 'Company' }] };
    expect(byName['VAT number']).toMatchObject({
      required: false,
      show_when: company,
      required_when: company,
      validation: { pattern: '[A-Z]{2}[0-9]{8,12}', message: 'Like DE123456789', max_length: 14 },
    });
    expect(byName['Full name']).toMatchObject({
      show_when: { any: [{ field: 'Customer kind', op: 'equals', value: 'Person' }] },
    });
    expect(byName.Quantity).toMatchObject({ validation: { min: 1, max: 100, step: 1 } });
    expect(byName.Total).toMatchObject({
      formula: '{Quantity} * {Unit price}',
      format: { decimals: 2, suffix: ' EUR' },
    });
    expect(byName.IBAN).toMatchObject({ validation: { preset: 'iban' } });

    const { text, values } = await signCompanyOnPhone(tpl.id);
    expect(text).toContain('DE123456789');
    expect(text).toContain('59.97 EUR');
    expect(values).toContainEqual({ field: 'VAT number', value: 'DE123456789' });
    expect(values).toContainEqual({ field: 'Total', value: 59.97 });
    expect(values.map((v) => v.field)).not.toContain('Full name');
  }, 240_000);

  it('issue 46 editor on a phone: the form logic controls fit the sheet, a refusal under its control, no serious axe violation', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(1), {
      fields: [
        { name: 'Kind', type: 'radio', role: 'Signer', options: ['Company', 'Person'], areas: area(0.1) },
        { name: 'Qty', type: 'number', role: 'Signer', areas: area(0.3) },
        { name: 'Start', type: 'date', role: 'Signer', areas: area(0.5) },
      ],
    });
    const tab = await signedInContext(browser, t, owner, PHONE_EDITOR, true);
    await openEditor(tab, t, tpl.id);
    const { page } = tab;
    await page.locator('[data-field="Start"]').first().click();
    await page.getByLabel('Earliest date').fill('2027-01-01');
    await page.getByLabel('Latest date').fill('2026-01-01');
    const error = page.locator('#ed-v-earliest-error');
    await expect
      .poll(() => error.textContent(), { timeout: 20_000 })
      .toBe('validation.earliest is after latest');
    expect(await page.getByLabel('Earliest date').getAttribute('aria-invalid')).toBe('true');
    await error.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'editor-phone-date-refused.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Latest date').fill('2027-12-31');
    await waitSaved(page);
    expect(await error.count()).toBe(0);

    await page.locator('[data-field="Qty"]').first().click();
    await page.getByLabel('Require this field').selectOption('any');
    await page.locator('#ed-require-rule-0-op').selectOption('equals');
    await page.locator('#ed-require-rule-0-value').selectOption('Person');
    // A formula reading its own field: a reference cycle, shown at the top of the field's form logic.
    await page.getByLabel('Formula (computed, the signer cannot change it)').fill('{Qty} * 2');
    await expect
      .poll(() => page.locator('#ed-logic-error').textContent(), { timeout: 20_000 })
      .toBe('reference cycle: "Qty" depend on one another');
    await page.getByLabel('Formula (computed, the signer cannot change it)').fill('2 * 3');
    await page.getByLabel('Before the number').fill('€ ');
    await page.getByLabel('Decimals (2 if empty)').fill('0');
    await expect.poll(() => page.locator('#ed-format-example').textContent()).toBe('Drawn as € 1235');
    await waitSaved(page);
    // Nothing of the section is wider than the sheet.
    const overflow = await page
      .locator('.ed-logic')
      .evaluate((el) => [el.scrollWidth, el.clientWidth, el.getBoundingClientRect().right]);
    expect(overflow[0]).toBeLessThanOrEqual(overflow[1]!);
    expect(overflow[2]).toBeLessThanOrEqual(PHONE_EDITOR.width);
    await page.locator('#ed-format-example').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'editor-phone-format.png') });
    expect(await seriousViolations(page)).toEqual([]);
    const qty = (await getTemplate(t, owner, tpl.id)).fields.find((f) => f.name === 'Qty');
    expect(qty).toMatchObject({
      required_when: { any: [{ field: 'Kind', op: 'equals', value: 'Person' }] },
      formula: '2 * 3',
      format: { prefix: '€ ', decimals: 0 },
    });
    expect(tab.problems).toEqual([]);
    await tab.ctx.close();
  }, 120_000);

  /** The whole form's logic through the properties panel, by its labels, with two refusals on the way. */
  async function buildOrderForm(page: Page) {
    const select = (name: string) => page.locator(`[data-field="${name}"]`).first().click();
    await select('VAT number');
    await page.getByLabel('Show this field').selectOption('all');
    await page.locator('#ed-rule-0-field').selectOption('Customer kind');
    await page.locator('#ed-rule-0-op').selectOption('equals');
    await page.locator('#ed-rule-0-value').selectOption('Company');
    await page.getByLabel('Require this field').selectOption('all');
    await page.locator('#ed-require-rule-0-field').selectOption('Customer kind');
    await page.locator('#ed-require-rule-0-op').selectOption('equals');
    await page.locator('#ed-require-rule-0-value').selectOption('Company');
    // A pattern that backtracks catastrophically: the server's refusal stands under the pattern.
    const pattern = page.getByLabel('Own pattern (regular expression)');
    await pattern.fill('(a+)+$');
    const patternError = page.locator('#ed-v-pattern-error');
    await expect.poll(() => patternError.textContent(), { timeout: 20_000 }).toMatch(/exponential time/);
    expect(await pattern.getAttribute('aria-invalid')).toBe('true');
    expect(await pattern.getAttribute('aria-describedby')).toBe('ed-v-pattern-error');
    await patternError.scrollIntoViewIfNeeded();
    await page.locator('.ed-props-side').screenshot({ path: join(SHOTS, 'editor-pattern-refused.png') });
    await pattern.fill('[A-Z]{2}[0-9]{8,12}');
    await page.getByLabel('Message when the pattern does not match').fill('Like DE123456789');
    await page.getByLabel('Most characters').fill('14');
    await waitSaved(page);
    expect(await patternError.count()).toBe(0);
    await page.getByLabel('Require this field').scrollIntoViewIfNeeded();
    await page.locator('.ed-props-side').screenshot({ path: join(SHOTS, 'editor-required-when.png') });

    await select('Full name');
    await page.getByLabel('Show this field').selectOption('any');
    await page.locator('#ed-rule-0-field').selectOption('Customer kind');
    await page.locator('#ed-rule-0-op').selectOption('equals');
    await page.locator('#ed-rule-0-value').selectOption('Person');
    await waitSaved(page);

    // Smallest above largest: refused, shown under the smallest; then a range that holds.
    await select('Quantity');
    await page.getByLabel('Smallest number').fill('10');
    await page.getByLabel('Largest number').fill('1');
    await expect
      .poll(() => page.locator('#ed-v-min-error').textContent(), { timeout: 20_000 })
      .toContain('validation.min is greater than max');
    await page.locator('#ed-v-min-error').scrollIntoViewIfNeeded();
    await page.locator('.ed-props-side').screenshot({ path: join(SHOTS, 'editor-range-refused.png') });
    await page.getByLabel('Smallest number').fill('1');
    await page.getByLabel('Largest number').fill('100');
    await page.getByLabel('In steps of').fill('1');
    await waitSaved(page);

    await select('Total');
    await page
      .getByLabel('Formula (computed, the signer cannot change it)')
      .fill('{Quantity} * {Unit price}');
    await page.getByLabel('Decimals (2 if empty)').fill('2');
    await page.getByLabel('After the number').fill(' EUR');
    await expect.poll(() => page.locator('#ed-format-example').textContent()).toBe('Drawn as 1234.57 EUR');
    await waitSaved(page);
    await page.screenshot({ path: join(SHOTS, 'editor-formula-format.png'), fullPage: true });

    await select('IBAN');
    await page.getByLabel('Ready-made check').selectOption('iban');
    await waitSaved(page);
  }

  /** Sent through the API, signed on a phone on the company path; the sealed PDF's text and values. */
  async function signCompanyOnPhone(templateId: number) {
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
    const field = (name: string) =>
      page.locator('main').getByRole('button', { name: new RegExp(`^${name} \\(`) });
    const dialog = page.getByRole('dialog');
    const save = async () => {
      await dialog.getByRole('button', { name: en('fill.save') }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    };
    const type = async (name: string, text: string) => {
      await field(name).click();
      await dialog.locator('input').first().fill(text);
      await save();
    };
    await field('Customer kind').waitFor({ timeout: 30_000 });
    expect(await field('VAT number').count()).toBe(0);
    await field('Customer kind').click();
    await dialog.getByRole('radio', { name: 'Company' }).check();
    await save();
    // required_when: the VAT number is shown and required on the company path, Full name hidden.
    await expect.poll(() => field('VAT number').getAttribute('aria-label')).toMatch(/required/);
    expect(await field('Full name').count()).toBe(0);
    // The pattern's own message as the signer types a value it refuses.
    await field('VAT number').click();
    await dialog.locator('input').first().fill('123');
    await expect.poll(() => dialog.locator('.hint.error').textContent()).toContain('Like DE123456789');
    await page.screenshot({ path: join(SHOTS, 'phone-vat-pattern.png') });
    await dialog.locator('input').first().fill('DE123456789');
    await expect.poll(() => dialog.locator('.hint.error').count()).toBe(0);
    await save();
    await type('Quantity', '3');
    await type('Unit price', '19.99');
    await expect.poll(() => page.locator('main').textContent()).toContain('59.97 EUR');
    await type('IBAN', 'DE89 3704 0044 0532 0130 00');
    await field('Signature').click();
    await expect.poll(() => dialog.locator('canvas').isVisible()).toBe(true);
    await drawSignature(page, dialog.locator('canvas'));
    await save();
    await page.screenshot({ path: join(SHOTS, 'phone-company-filled.png') });
    await page.getByRole('button', { name: en('sign.finish') }).click();
    const review = page.getByRole('dialog', { name: en('review.title') });
    await review.waitFor();
    await review.getByRole('button', { name: en('review.sign'), exact: true }).click();
    const status = async () =>
      (await t.api('GET', `signature_requests/${res.body.id}`, { key: owner.key })).body.status;
    await expect.poll(status, { timeout: 30_000 }).toBe('completed');
    await ctx.close();
    const logger = createLogger('silent', 'test');
    await drainJobs(
      { db: t.db, logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
    );
    const done = await t.api('GET', `signature_requests/${res.body.id}`, { key: owner.key });
    const pdf = new Uint8Array(await (await fetch(done.body.documents[0].url)).arrayBuffer());
    const file = writeTemp(SHOTS, 'editor-built-company-sealed.pdf', pdf);
    return {
      text: pdfText(file),
      values: done.body.signers[0].values as { field: string; value: unknown }[],
    };
  }
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { plainPdf } from '../../../test/pdfs.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import {
  createTemplate,
  DESKTOP,
  getTemplate,
  openEditor,
  signedInContext,
  waitSaved,
} from './editor-helpers.ts';

// Issue 46 item 4 in Chromium: the template editor's rule builder (show this field when…, a
// formula with a live check, a ready-made check), saved into the template, and the preview as a
// signer sees it evaluating the rule. Screenshots go to FORM_LOGIC_SCREENSHOTS (/tmp/forms-shots).

const SHOTS = process.env.FORM_LOGIC_SCREENSHOTS ?? '/tmp/forms-shots';
const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.4, h: 0.05 }];

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
    await page.getByLabel('Check the answer').selectOption('iban');
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
});

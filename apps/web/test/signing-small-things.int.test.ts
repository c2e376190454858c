import { mkdirSync } from 'node:fs';
import { makeTemplate } from '@esign/testing/fixtures';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 42 item 7's small things in Chromium: what a signer sees after declining, and a public
// link page without console errors. Screenshots in SHOTS.

const SHOTS = process.env.SMALL_THINGS_SCREENSHOTS ?? '/work/notes/shots/42-small';

describe.runIf(browserTestsEnabled('issue 42 small things'))('issue 42 item 7 in Chromium', () => {
  let t: TestApp;
  let owner: TestAccount;
  let browser: Browser;
  let templateId: number;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { lifetime: true, credits: 5 });
    templateId = (await makeTemplate(t, owner, { name: 'Waiver' })).id;
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('issue 42.7: after a decline, a reload shows the declined page, not a green ✓ "You have already finished"', async () => {
    const sent = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: { template_id: templateId, signers: [{ name: 'Dora Decliner', email: 'dora@example.com' }] },
    });
    expect(sent.status, sent.text).toBe(201);
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage();
    await page.goto(sent.body.signers[0].signing_url);
    await page.getByRole('button', { name: 'Decline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign' });
    await dialog.getByLabel('Reason for declining (required)').fill('Not my contract.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
    expect(await page.getByRole('heading', { name: 'You have already finished' }).count()).toBe(0);
    expect(await page.locator('.card').textContent()).not.toContain('✓');
    await page.screenshot({ path: `${SHOTS}/declined-reload.png` });
    await page.context().close();
  });

  it('issue 42.7: on a dense form the "Required" tips cover no field (nor its name) and no other tip (element boxes)', async () => {
    const area = (x: number, y: number, w = 0.3, h = 0.02) => [{ page: 1, x, y, w, h }];
    // Rows 0.025 of the page apart (about 6 px between fields at 1000 px): a tip under a field
    // would lie over the next row's field.
    const fields = [
      ...['Full name', 'Street', 'City', 'Country'].map((name, i) => ({
        name,
        type: 'text',
        areas: area(0.1, 0.2 + 0.025 * i),
      })),
      { name: 'Phone', type: 'text', areas: area(0.45, 0.2) },
      { name: 'Email', type: 'text', areas: area(0.45, 0.225) },
      { name: 'Signature', type: 'signature', areas: area(0.1, 0.3, 0.3, 0.05) },
    ];
    const tpl = await makeTemplate(t, owner, { name: 'Dense form', fields });
    const sent = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: { template_id: tpl.id, signers: [{ name: 'Rae Required', email: 'rae@example.com' }] },
    });
    expect(sent.status, sent.text).toBe(201);
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 900 } })).newPage();
    await page.goto(sent.body.signers[0].signing_url);
    await page.getByRole('heading', { level: 1, name: 'Dense form' }).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    const tips = page.locator('.field-tip:not([hidden])');
    await expect.poll(() => tips.count()).toBe(fields.length);
    const boxes = await page.evaluate(() => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      };
      return {
        fields: [...document.querySelectorAll('.page .field')].map((el) => ({
          name: el.getAttribute('data-field'),
          ...box(el),
        })),
        tips: [...document.querySelectorAll('.field-tip:not([hidden])')].map((el) => ({
          name: el.id,
          ...box(el),
        })),
        page: box(document.querySelector('.page')!),
      };
    });
    type B = { name: string | null; left: number; top: number; right: number; bottom: number };
    const overlap = (a: B, b: B) =>
      a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const [i, tip] of boxes.tips.entries()) {
      for (const f of boxes.fields) expect(overlap(tip, f), `${tip.name} over field ${f.name}`).toBe(false);
      for (const other of boxes.tips.slice(i + 1))
        expect(overlap(tip, other), `${tip.name} over ${other.name}`).toBe(false);
      expect(tip.left).toBeGreaterThanOrEqual(boxes.page.left);
      expect(tip.right).toBeLessThanOrEqual(boxes.page.right);
    }
    await page
      .locator('.page')
      .first()
      .screenshot({ path: `${SHOTS}/required-tips.png` });
    await page.context().close();
  });

  it('issue 42.7: the public link page logs no CSP error (its favicon) nor any other console error', async () => {
    const on = await t.api('PATCH', `templates/${templateId}/signing_link`, {
      key: owner.key,
      body: { enabled: true },
    });
    expect(on.status, on.text).toBe(200);
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    await page.goto(on.body.url, { waitUntil: 'load' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(500); // the favicon is asked for after load
    await page.screenshot({ path: `${SHOTS}/public-link.png` });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

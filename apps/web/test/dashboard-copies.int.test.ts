import { mkdirSync } from 'node:fs';
import { createAccount, issueApiKey } from '@esign/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemplate } from '../../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { b64, plainPdf } from '../../../test/pdfs.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 34 items 1 and 4 in the dashboard, in Chromium: the account's default copies (Account
// page), CC and notify on the Send page, the request page listing them, and the CC's read-only page.

const SHOTS = '/work/notes/shots/34-cc';
const PASSWORD = 'correct horse battery';

describe.runIf(browserTestsEnabled('dashboard copies'))('dashboard: CC and completion notices', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let templateId: number;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    const email = `copies-${Date.now()}@example.com`;
    await createAccount(t.db, { email, name: 'Olivia Owner', password: PASSWORD, credits: 5 }, new Date());
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const { key } = await issueApiKey(t.db, {
      userId: user.id,
      environment: 'live',
      permission: 'full',
      expiresAt: null,
    });
    templateId = (
      await makeTemplate(t, { key } as never, {
        name: 'Employment contract',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [
          {
            name: 'Signature',
            type: 'signature',
            role: 'Employee',
            areas: [{ page: 1, x: 0.1, y: 0.7, w: 0.3, h: 0.05 }],
          },
        ],
      })
    ).id;
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${t.baseUrl}/login`);
    const form = page.getByRole('tabpanel', { name: 'Password' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: /^Account menu/ }).waitFor();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('issue 34.1/34.4: an admin sets default CC and notify addresses on the Account page; a bad address is refused in the form', async () => {
    await page.goto(`${t.baseUrl}/account`);
    await page.getByLabel('CC', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Save copies' }).click();
    await page.getByText('Enter email addresses separated by commas').first().waitFor();
    await page.getByLabel('CC', { exact: true }).fill('records@lawfirm.example');
    await page.getByLabel('Notify when it ends').fill('hr-office@example.com');
    await page.getByRole('button', { name: 'Save copies' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    await page.getByLabel('CC', { exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/account-defaults.png`, fullPage: true });
  });

  it('issue 34.1: the Send page takes CC addresses, names the defaults, and the request page lists every copy', async () => {
    await page.goto(`${t.baseUrl}/send?template=${templateId}`);
    const employee = page.getByRole('group', { name: 'Employee' });
    await employee.getByLabel('Name', { exact: true }).fill('Erin Employee');
    await employee.getByLabel('Email').fill('erin@example.com');
    await page.getByLabel('CC', { exact: true }).fill('counsel@example.com, payroll@example.com');
    await page.getByText('Your account also copies records@lawfirm.example').waitFor();
    await page.screenshot({ path: `${SHOTS}/send-cc.png`, fullPage: true });
    await page.getByRole('button', { name: 'Send for signature' }).click();
    await page.waitForURL(/\/requests\/\d+$/);
    const copies = page.getByRole('region', { name: 'Copies and notices' });
    await copies.getByText('counsel@example.com, payroll@example.com, records@lawfirm.example').waitFor();
    await copies.getByText('hr-office@example.com').waitFor();
    await page.screenshot({ path: `${SHOTS}/request-cc.png`, fullPage: true });
  });

  it('issue 34.1: the CC link opens a read-only page with the documents and who has signed, and no way to sign', async () => {
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('links')
      .where('to_address', '=', 'counsel@example.com')
      .where('kind', '=', 'cc')
      .executeTakeFirstOrThrow();
    const link = (mail.links as string[]).find((l) => l.includes('/cc/'))!;
    const res = await page.goto(link);
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Employment contract' }).waitFor();
    await page.getByText('This page is read-only').waitFor();
    expect(await page.getByRole('cell', { name: 'Erin Employee' }).count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/cc-page.png`, fullPage: true });
    expect(await page.locator('main ul a[href*="/files/"]').count()).toBe(1);
    expect(await page.locator('form, button, canvas').count()).toBe(0);
    expect(await page.content()).not.toContain('/s/');
    const missing = await page.goto(`${link}x`);
    expect(missing?.status()).toBe(404);
  });
});

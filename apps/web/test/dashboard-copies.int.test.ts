import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled } from './browser.ts';
import { type DashboardFixture, openDashboard } from './editor-helpers.ts';

// Issue 34 items 1 and 4 in the dashboard, in Chromium: the account's default copies (Account
// page), CC and notify on the Send page, the request page listing them, and the CC's read-only page.

const SHOTS = '/work/notes/shots/34-cc';

describe.runIf(browserTestsEnabled('dashboard copies'))('dashboard: CC and completion notices', () => {
  let fixture: DashboardFixture;
  let t: TestApp;
  let page: Page;
  let templateId: number;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    fixture = await openDashboard({ template: { name: 'Employment contract', role: 'Employee' } });
    ({ t, page, templateId } = fixture);
  }, 240_000);
  afterAll(() => fixture?.close());

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

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled } from './browser.ts';
import { type DashboardFixture, openDashboard } from './editor-helpers.ts';

// The dashboard's pages for the link, bulk and embed sources (docs/sending.md), in Chromium.

const SHOTS = '/work/notes/shots/17';

describe.runIf(browserTestsEnabled('dashboard send sources'))(
  'dashboard: public link, bulk send, embedding',
  () => {
    let fixture: DashboardFixture;
    let t: TestApp;
    let page: Page;
    let templateId: number;

    beforeAll(async () => {
      fixture = await openDashboard({
        worker: true,
        template: { name: 'Club membership', role: 'Member', text: { name: 'Level', required: false } },
      });
      ({ t, page, templateId } = fixture);
    }, 240_000);
    afterAll(() => fixture?.close());

    it('the owner turns the public link on from the template list and sees its address', async () => {
      await page.goto(`${t.baseUrl}/templates`);
      await page.getByRole('link', { name: 'Public link of Club membership' }).click();
      await page.getByRole('heading', { name: 'The link is off' }).waitFor();
      await page.getByLabel('Turn the public link on').check();
      await page.getByLabel(/Most signatures/).fill('50');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: 'The link is on' }).waitFor();
      expect(await page.locator('section code').first().textContent()).toMatch(/\/l\//);
      await page.screenshot({ path: `${SHOTS}/dashboard-link-on.png` });
    });

    it('bulk send: preview shows the bad row, sending makes one request per good row, re-uploading sends nothing twice', async () => {
      const lines = [
        'Name,Email,Level',
        ...Array.from({ length: 24 }, (_, i) => `Member ${i},member${i}@example.com,Gold`),
      ];
      // A cell a spreadsheet would run as a formula comes back neutralised (issue 29 item 5).
      lines.splice(5, 0, 'Broken row,=not-an-email,Silver');
      const file = { name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) };
      await page.goto(`${t.baseUrl}/bulk?template=${templateId}`);
      await page.getByRole('heading', { name: 'Bulk send' }).waitFor();
      await page.getByLabel(/Spreadsheet/).setInputFiles(file);
      await page.getByRole('status').filter({ hasText: '25 rows; 1 with errors' }).waitFor();
      expect(await page.locator('tr.row-invalid').first().textContent()).toContain('not-an-email');
      await page.screenshot({ path: `${SHOTS}/dashboard-bulk-preview.png`, fullPage: true });
      await page.getByRole('button', { name: 'Send 24 requests' }).click();
      await page.getByText(/^Done: 24 sent, 1 not sent/).waitFor({ timeout: 60_000 });
      await page.screenshot({ path: `${SHOTS}/dashboard-bulk-done.png`, fullPage: true });
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download results (CSV)' }).click();
      const csv = await (await (await download).createReadStream()).toArray();
      const text = Buffer.concat(csv).toString();
      expect(text.split('\r\n').filter((l) => l.includes(',sent,'))).toHaveLength(24);
      expect(text).toMatch(/^6,invalid,,"'=not-an-email",invalid_signer,"Member email \(column ""Email""\)/m);

      // The same file again: the same batch, nothing sent twice.
      await page.reload();
      await page.getByLabel(/Spreadsheet/).setInputFiles(file);
      await page.getByRole('button', { name: 'Send 24 requests' }).click();
      await page.getByText(/^Done: 24 sent/).waitFor({ timeout: 30_000 });
      const made = await t.db
        .selectFrom('signature_requests')
        .select('source')
        .where('template_id', '=', templateId)
        .execute();
      expect(made.filter((r) => r.source === 'bulk')).toHaveLength(24);
    }, 120_000);

    it('embedding: an admin saves the allowed origins; a bad origin is refused with a message', async () => {
      await page.goto(`${t.baseUrl}/embed`);
      await page.getByRole('heading', { name: 'Embedded signing' }).waitFor();
      await page.getByLabel('One origin per line').fill('https://app.example.com/path');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/is not an origin/).waitFor();
      await page.getByLabel('One origin per line').fill('https://app.example.com\nhttp://localhost:5173');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Allowed origins saved').first().waitFor();
      await page.screenshot({ path: `${SHOTS}/dashboard-embed.png` });
    });
  },
);

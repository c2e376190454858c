import { makeRequest } from '@esign/testing/fixtures';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { seriousViolations } from './axe.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import { DASHBOARD_PAGES, signedInContext } from './editor-helpers.ts';

// Issue 33 item 6: axe-core finds no serious or critical violation on any dashboard page, the
// sign-in page or the signing page, at desktop and phone width.

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

describe.runIf(browserTestsEnabled('accessibility'))(
  'axe: no serious violation on any page (issue 33 item 6)',
  () => {
    let t: TestApp;
    let browser: Browser;
    let owner: TestAccount;
    let request: { id: number; signers: { signing_url: string }[] };

    beforeAll(async () => {
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { credits: 10 });
      request = await makeRequest(t, owner);
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const PAGES = DASHBOARD_PAGES;

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ])(
      'every dashboard page at %s width',
      async (_name, viewport) => {
        const tab = await signedInContext(browser, t, owner, viewport);
        const found: Record<string, string[]> = {};
        for (const path of [...PAGES, `/requests/${request.id}`]) {
          await tab.page.goto(`${t.baseUrl}${path}`);
          await tab.page.locator('main h1').first().waitFor({ timeout: 30_000 });
          await tab.page.waitForLoadState('networkidle');
          const violations = await seriousViolations(tab.page);
          if (violations.length) found[path] = violations;
        }
        await tab.ctx.close();
        expect(found).toEqual({});
        // The templates list and a request's page show page images (issue 33 item 7), drawn on
        // their first request: the first width waits for them (networkidle).
      },
      180_000,
    );

    it('the sign-in page and the signing page', async () => {
      const ctx = await browser.newContext({ viewport: PHONE });
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(request.signers[0]!.signing_url);
      await page.locator('h1').first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      await ctx.close();
    });
  },
);

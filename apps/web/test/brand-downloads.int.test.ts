import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { PNG_DOT, sendRequest, tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import { signedInContext } from './editor-helpers.ts';

// Issue 44.2 in Chromium: the request page's Downloads (dashboard) give the sealed files names led
// by the request's brand, as the emails do. Screenshot in BRAND_SHOTS (default /tmp/finish2-shots).

const SHOTS = process.env.BRAND_SHOTS ?? '/tmp/finish2-shots';

describe.runIf(browserTestsEnabled('brand downloads'))(
  'issue 44.2: dashboard downloads under the brand',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it('the sealed document, audit trail and combined file download as "Acme Law - …" from the request page', async () => {
      const brand = await t.api('POST', 'brands', {
        key: owner.key,
        body: { name: 'Acme Law', is_default: false },
      });
      expect(brand.status, brand.text).toBe(201);
      const tpl = await twoRoleTemplate(t, owner);
      const sent = await sendRequest(t, owner, {
        template_id: tpl.id,
        brand_id: brand.body.id,
        signing_order: 'parallel',
        send_email: false,
        signers: [
          { role: 'Client', name: 'Cleo', email: 'cleo-dl@example.com' },
          { role: 'Agent', name: 'Andy', email: 'andy-dl@example.com' },
        ],
      });
      expect(sent.status, sent.text).toBe(201);
      const values = [{ 'Client signature': PNG_DOT, 'Client name': 'Cleo' }, { 'Agent signature': PNG_DOT }];
      for (const [i, s] of sent.body.signers.entries()) {
        const done = await trpc(t, 'complete', { token: tokenOf(s.signing_url), values: values[i] });
        expect(done.error).toBeNull();
      }
      const ctx = { db: t.db, logger: createLogger('silent', 'test'), config: t.config, deps: t.rt.deps };
      await drainJobs({ ...ctx, now: () => new Date() }, jobHandlers);

      const tab = await signedInContext(browser, t, owner);
      await tab.page.goto(`${t.baseUrl}/requests/${sent.body.id}`);
      const downloads = tab.page.getByRole('region', { name: 'Signed documents' });
      const trail = downloads.getByRole('link', { name: /audit trail/i });
      await trail.waitFor({ timeout: 60_000 });
      await tab.page.screenshot({ path: join(SHOTS, 'dashboard-downloads.png') });
      const names = await downloads
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((a) => decodeURIComponent((a as HTMLAnchorElement).pathname.split('/').pop()!)),
        );
      expect(names[0]).toBe('Acme Law - Document 1.pdf');
      expect(names).toContain('Acme Law - Service Agreement - audit trail.pdf');
      expect(names).toContain('Acme Law - Service Agreement - signed.pdf');
      const [download] = await Promise.all([tab.page.waitForEvent('download'), trail.click()]);
      expect(download.suggestedFilename()).toBe('Acme Law - Service Agreement - audit trail.pdf');
      expect(tab.problems).toEqual([]);
      await tab.ctx.close();
    }, 240_000);
  },
);

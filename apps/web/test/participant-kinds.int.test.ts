import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { fourParts, partsTemplate } from '@esign/testing/parts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText, tempDir, writeTemp } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';
import { openEditor, signedInContext, waitSaved } from './editor-helpers.ts';

// Issue 47 in Chromium: an approver, a viewer and two signers in order run to completion (the
// client signing in person on the host's tablet); a second request is rejected by its approver.
// Screenshots go to PARTS_SHOTS (default /tmp/roles-shots).

const SHOTS = process.env.PARTS_SHOTS ?? '/tmp/roles-shots';
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const TABLET = { width: 820, height: 1180 };

describe.runIf(browserTestsEnabled('participant kinds'))(
  'issue 47: approvers, viewers, in-person signing in Chromium',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;
    let tplId: number;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
      tplId = (await partsTemplate(t, owner)).id;
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
    const request = async (id: number) =>
      (await t.api('GET', `signature_requests/${id}`, { key: owner.key })).body;

    async function send(tag: string) {
      const signers = fourParts(tag);
      // The sender fills the client's name beforehand; the client signs.
      (signers[2] as Record<string, unknown>).prefill = { 'Client name': 'Cleo Client' };
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: { template_id: tplId, signers, send_email: false },
      });
      expect(res.status, res.text).toBe(201);
      return res.body;
    }

    async function openAs(url: string, viewport = DESKTOP) {
      const ctx = await browser.newContext(viewport);
      const page = await ctx.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: 'Service Agreement' }).waitFor();
      return { ctx, page, problems };
    }

    /** Draws the signature of the page's signature field and saves it. */
    async function sign(page: Page) {
      await page.locator('main .field.t-signature:not(.other)').first().click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.locator('canvas').isVisible(), { timeout: 10_000 }).toBe(true);
      await drawSignature(page, dialog.locator('canvas'));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(0);
      await page.getByRole('button', { name: 'Finish' }).click();
      return page.getByRole('dialog', { name: 'Review and sign' });
    }

    it('approver approves, viewer confirms, the client signs in person on the host’s tablet, the agent signs; the sealed trail names every part', async () => {
      const r = await send('ui');
      const [mgr, reader, , agent] = r.signers;

      const a = await openAs(mgr.signing_url);
      expect(await a.page.locator('.intro').textContent()).toContain(
        'Review the documents and every value entered so far',
      );
      expect(await a.page.locator('main .field:not(.other)').count()).toBe(0);
      await shot(a.page, '1-approver-open');
      await a.page.getByRole('button', { name: 'Approve' }).click();
      await a.page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await a.page.getByRole('heading', { name: 'Documents approved' }).waitFor();
      await shot(a.page, '2-approver-done');
      expect(a.problems).toEqual([]);
      await a.ctx.close();

      const v = await openAs(reader.signing_url);
      expect(await v.page.locator('.intro').textContent()).toContain('confirm that you have read them');
      await shot(v.page, '3-viewer-open');
      await v.page.getByRole('button', { name: 'I have read the documents' }).click();
      await v.page.getByRole('dialog').getByRole('button', { name: 'I have read the documents' }).click();
      await v.page.getByRole('heading', { name: 'Reading confirmed' }).waitFor();
      await v.ctx.close();

      // The host (the sender, signed in to the dashboard) on a tablet: Sign in person on this device.
      const host = await signedInContext(browser, t, owner, TABLET, true);
      await host.page.goto(`${t.baseUrl}/requests/${r.id}`);
      await host.page.getByRole('button', { name: 'Sign in person on this device' }).click();
      await host.page.waitForURL(/\/s\/.*\?hosted=1$/);
      await host.page.locator('.hosted-banner').waitFor();
      expect(await host.page.locator('.hosted-banner').textContent()).toContain(
        'In-person signing hosted by',
      );
      await shot(host.page, '4-hosted-open-tablet');
      // The hosted link opened on another device is refused.
      const other = await browser.newContext(DESKTOP);
      const stray = await other.newPage();
      await stray.goto(`${r.signers[2].signing_url}?hosted=1`);
      await stray
        .getByRole('heading', { name: 'This in-person session is open on another device' })
        .waitFor();
      expect(await stray.locator('body').textContent()).not.toContain('Finish');
      expect(await stray.locator('main .field').count()).toBe(0);
      await shot(stray, '7-hosted-other-device');
      await other.close();
      const review = await sign(host.page);
      const name = review.getByLabel(/Type your name \(Cleo Client\)/);
      await name.fill('Someone Else');
      await review.getByRole('button', { name: 'Sign' }).click();
      await review.locator('.form-error:not([hidden])').first().waitFor();
      await shot(host.page, '5-hosted-wrong-name');
      await name.fill('Cleo Client');
      await review.getByRole('button', { name: 'Sign' }).click();
      // The device returns to the host: the request's page.
      await host.page.waitForURL(`${t.baseUrl}/requests/${r.id}`);
      await host.page
        .getByRole('heading', { name: /Service Agreement/ })
        .first()
        .waitFor();
      await shot(host.page, '6-back-to-host');
      expect(host.problems).toEqual([]);

      await host.ctx.close();

      const g = await openAs(agent.signing_url);
      const agentReview = await sign(g.page);
      await agentReview.getByRole('button', { name: 'Sign' }).click();
      await g.page.getByRole('heading', { name: 'Document signed' }).waitFor();
      await g.ctx.close();

      expect((await request(r.id)).status).toBe('completed');
      await drainJobs(
        {
          db: t.db,
          logger: createLogger('silent', 'test'),
          config: t.config,
          deps: t.rt.deps,
          now: () => new Date(),
        },
        jobHandlers,
      );
      const done = await request(r.id);
      const pdf = new Uint8Array(await (await fetch(done.audit_trail_url)).arrayBuffer());
      const text = pdfText(writeTemp(tempDir('parts-ui'), 'trail.pdf', pdf)).replace(/\s+/g, ' ');
      // Each participant's section (a page break may fall inside one): their part, what they did, when.
      const section = (from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));
      const parts = [
        section('1. Mia Manager — Manager', '2. Rob Reader'),
        section('2. Rob Reader — Reader', '3. Cleo Client'),
        section('3. Cleo Client — Client', '4. Avi Agent'),
        section('4. Avi Agent — Agent', 'Events'),
      ];
      expect(parts[0]).toMatch(/Approved .*Approver #\d+ /);
      expect(parts[1]).toMatch(/Viewer #\d+ .*Confirmed having read/);
      expect(parts[2]).toMatch(/Signed Signer #\d+ /);
      expect(parts[2]).toContain('signer present; identity confirmed by the host instead of a code');
      expect(parts[3]).toMatch(/Signed Signer #\d+ /);
      for (const p of parts) expect(p).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    });

    it('a second request is rejected by its approver with a reason: declined, the reason kept', async () => {
      const r = await send('ui-reject');
      const a = await openAs(r.signers[0].signing_url);
      await a.page.getByRole('button', { name: 'Reject' }).click();
      const dialog = a.page.getByRole('dialog', { name: 'Reject the documents' });
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.getByText('Enter a reason for rejecting.').waitFor();
      await dialog.getByLabel('Reason for rejecting (required)').fill('The discount is not approved');
      await shot(a.page, '8-approver-reject');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await a.page.getByRole('heading', { name: 'You rejected the documents' }).waitFor();
      await shot(a.page, '9-approver-rejected');
      await a.ctx.close();
      const now = await request(r.id);
      expect(now.status).toBe('declined');
      expect(now.signers[0]).toMatchObject({
        kind: 'approver',
        decline_reason: 'The discount is not approved',
      });
    });

    it('the editor marks a role without fields as approving (roles with fields only sign); the Send page preselects it', async () => {
      const own = await partsTemplate(t, owner);
      const tab = await signedInContext(browser, t, owner);
      await openEditor(tab, t, own.id);
      const client = tab.page.getByLabel('Part of Client');
      expect(await client.locator('option[value="approver"]').isDisabled()).toBe(true);
      await tab.page.getByLabel('Part of Manager').selectOption('approver');
      // Saved after the autosave pause (the status may still read saved from before the change).
      await expect
        .poll(async () => (await t.api('GET', `templates/${own.id}`, { key: owner.key })).body.role_kinds, {
          timeout: 20_000,
        })
        .toEqual({ Manager: 'approver' });
      await waitSaved(tab.page);
      await shot(tab.page, '10-editor-role-kinds');
      await tab.page.goto(`${t.baseUrl}/send?template=${own.id}`);
      const part = tab.page.getByLabel('Part').first();
      // The Send page reads the template before it preselects: more than expect.poll's default
      // second when the machine is busy (seen in a full run).
      await expect.poll(() => part.inputValue(), { timeout: 15_000 }).toBe('approver');
      await shot(tab.page, '11-send-part');
      expect(tab.problems).toEqual([]);
      await tab.ctx.close();
    });
  },
);

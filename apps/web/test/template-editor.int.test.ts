import { join } from 'node:path';
import { jobHandlers, startWorker, type WorkerHandle } from '@esign/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { plainPdf } from '../../../test/pdfs.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import {
  createTemplate,
  getTemplate,
  openEditor,
  signedInContext,
  waitSaved,
} from './editor-helpers.ts';

// The template editor at edit_url (issue 12) in Chromium.
const SHOTS = process.env.EDITOR_SHOTS ?? '/tmp/esign-editor-shots';

describe.runIf(browserTestsEnabled('template editor'))('template editor in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let worker: WorkerHandle;
  let owner: TestAccount;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { credits: 20 });
    worker = startWorker(
      { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
      jobHandlers,
      { concurrency: 2, pollMs: 100 },
    );
  }, 240_000);
  afterAll(async () => {
    await worker?.stop();
    await browser?.close();
    await t?.close();
  });

  it('smoke', async () => {
    const tpl = await createTemplate(t, owner, await plainPdf(3));
    const tab = await signedInContext(browser, t, owner);
    await openEditor(tab, t, tpl.id);
    await tab.page.screenshot({ path: join(SHOTS, 'smoke.png') });
    await tab.page.getByRole('button', { name: 'Signature', exact: true }).click();
    const pg = await tab.page.locator('.ed-page').first().boundingBox();
    await tab.page.mouse.click(pg!.x + pg!.width * 0.3, pg!.y + pg!.height * 0.3);
    await waitSaved(tab.page);
    await tab.page.screenshot({ path: join(SHOTS, 'smoke2.png') });
    const saved = await getTemplate(t, owner, tpl.id);
    expect(saved.fields).toHaveLength(1);
    expect(tab.problems).toEqual([]);
  }, 240_000);
});

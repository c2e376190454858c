import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobHandlers, startWorker, type WorkerHandle } from '@esign/core/jobs';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { tokenOf, trpc } from '@esign/testing/signing';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signaturePng } from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { seriousViolations } from './axe.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';
import { type EditorTab, signedInContext } from './editor-helpers.ts';

// Issue 33 item 7 (template thumbnails with counts; a request's pages with the values drawn and
// each signer's values) and what was left of item 5 (the bulk preview table, the Account page's
// inputs), in Chromium at 1366×900 and 390×844. DASHBOARD_SCREENSHOTS=docs/screenshots refreshes
// the README's pictures of the templates list and of a completed request.

const SHOTS = join(tmpdir(), 'esign-dashboard-documents');
const DOCS = process.env.DASHBOARD_SCREENSHOTS;
const DOC_SHOTS = new Set([
  'desktop-templates',
  'desktop-request-completed',
  'phone-request-in-progress',
  'desktop-bulk-preview',
]);
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

type Area = { page: number; x: number; y: number; w: number; h: number };
const FIELDS: { name: string; type: string; role: string; required?: boolean; areas: Area[] }[] = [
  {
    name: 'Client name',
    type: 'text',
    role: 'Client',
    areas: [{ page: 1, x: 0.3, y: 0.3, w: 0.4, h: 0.03 }],
  },
  {
    name: 'Start date',
    type: 'date',
    role: 'Client',
    areas: [{ page: 1, x: 0.3, y: 0.36, w: 0.25, h: 0.03 }],
  },
  {
    name: 'Agree',
    type: 'checkbox',
    role: 'Client',
    required: false,
    areas: [{ page: 1, x: 0.12, y: 0.42, w: 0.025, h: 0.02 }],
  },
  {
    name: 'Client signature',
    type: 'signature',
    role: 'Client',
    areas: [{ page: 2, x: 0.1, y: 0.7, w: 0.35, h: 0.08 }],
  },
  {
    name: 'Agent signature',
    type: 'signature',
    role: 'Agent',
    areas: [{ page: 2, x: 0.55, y: 0.7, w: 0.35, h: 0.08 }],
  },
];

/** A two-page agreement whose labels stand beside the fields above. */
async function agreementPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [W, H] = [612, 792];
  const at = (yFraction: number) => H * (1 - yFraction) - 16;
  const one = doc.addPage([W, H]);
  one.drawText('Consulting agreement', { x: 72, y: 700, size: 22, font: bold });
  one.drawText('Between Acme Legal ("Agent") and the Client named below.', { x: 72, y: 660, size: 11, font });
  one.drawText('Client name:', { x: 72, y: at(0.3), size: 12, font });
  one.drawText('Start date:', { x: 72, y: at(0.36), size: 12, font });
  one.drawText('I agree to the terms on page 2.', { x: 0.16 * W, y: at(0.42) + 3, size: 12, font });
  const two = doc.addPage([W, H]);
  two.drawText('Terms', { x: 72, y: 700, size: 18, font: bold });
  for (let i = 0; i < 8; i++)
    two.drawText(`${i + 1}. The parties agree to clause ${i + 1} as written here.`, {
      x: 72,
      y: 660 - i * 22,
      size: 11,
      font,
    });
  two.drawText('Client signature', { x: 0.1 * W, y: H * 0.2, size: 10, font });
  two.drawText('Agent signature', { x: 0.55 * W, y: H * 0.2, size: 10, font });
  return doc.save();
}

describe.runIf(browserTestsEnabled('dashboard documents'))(
  'dashboard: documents and values (issue 33)',
  () => {
    let t: TestApp;
    let browser: Browser;
    let worker: WorkerHandle;
    let owner: TestAccount;
    let agreementId: number;
    const tabs: EditorTab[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      if (DOCS) mkdirSync(DOCS, { recursive: true });
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      worker = startWorker(
        { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
        jobHandlers,
        { concurrency: 1, pollMs: 100 },
      );
      owner = await createTestAccount(t.db, { credits: 20 });
      const two = await t.api('POST', 'templates', {
        key: owner.key,
        body: {
          name: 'Welcome pack',
          documents: [
            { file: b64(await plainPdf(1, 'Cover')) },
            { file: b64(await plainPdf(3, 'Handbook')) },
          ],
          fields: [FIELDS[0]],
        },
      });
      expect(two.status, two.text).toBe(201);
      const agreement = await t.api('POST', 'templates', {
        key: owner.key,
        body: {
          name: 'Consulting agreement',
          documents: [{ file: b64(await agreementPdf()) }],
          fields: FIELDS,
        },
      });
      expect(agreement.status, agreement.text).toBe(201);
      agreementId = agreement.body.id;
    }, 120_000);
    afterAll(async () => {
      for (const tab of tabs) expect(tab.problems).toEqual([]);
      await worker?.stop();
      await browser?.close();
      await t?.close();
    });

    async function open(viewport: typeof DESKTOP, path: string): Promise<Page> {
      const tab = await signedInContext(browser, t, owner, viewport);
      tabs.push(tab);
      await tab.page.goto(`${t.baseUrl}${path}`);
      await tab.page.locator('main h1').first().waitFor({ timeout: 30_000 });
      return tab.page;
    }

    async function shot(page: Page, name: string, fullPage = false) {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
      if (DOCS && DOC_SHOTS.has(name)) await page.screenshot({ path: join(DOCS, `${name}.png`), fullPage });
    }

    /** Every image in `scope` has loaded and has pixels (a page image that failed has none). */
    const imagesLoaded = (page: Page, selector: string) =>
      expect
        .poll(
          () =>
            page.$$eval(selector, (imgs) =>
              (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0),
            ),
          { timeout: 60_000 },
        )
        .toBe(true);

    /** The page does not scroll sideways (wide content scrolls inside its own box). */
    const noSideways = async (page: Page) =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ])(
      'issue 33.7: the templates list shows each first page as a thumbnail with page and field counts (%s)',
      async (name, viewport) => {
        const page = await open(viewport, '/templates');
        const list = page.getByRole('list', { name: 'Templates' });
        const agreement = list.getByRole('listitem').filter({ hasText: 'Consulting agreement' });
        await agreement.getByText('2 pages · 5 fields').waitFor();
        await list
          .getByRole('listitem')
          .filter({ hasText: 'Welcome pack' })
          .getByText('4 pages in 2 documents · 1 field')
          .waitFor();
        await agreement.locator('.thumb-shown').waitFor({ timeout: 60_000 });
        await imagesLoaded(page, '.thumb img');
        // Lazy: the thumbnail is an image the browser loads when its row comes into view.
        expect(await agreement.locator('.thumb img').getAttribute('loading')).toBe('lazy');
        const box = (await agreement.locator('.thumb').boundingBox())!;
        expect(box.height / box.width).toBeCloseTo(792 / 612, 1);
        await noSideways(page);
        await shot(page, `${name}-templates`);
      },
    );

    it('issue 33.7: a thumbnail not drawn yet shows a plain sheet, never a broken image', async () => {
      const page = await open(DESKTOP, '/templates');
      // The page image route answers slowly here: the row shows the stand-in until the image arrives.
      let release = () => {};
      const held = new Promise<void>((ok) => {
        release = ok;
      });
      await page.route('**/files/**', async (route) => {
        await held;
        await route.continue();
      });
      await page.reload();
      const agreement = page.getByRole('listitem').filter({ hasText: 'Consulting agreement' });
      await agreement.locator('.thumb-loading').waitFor();
      expect(await agreement.locator('.thumb-loading img').evaluate((i) => getComputedStyle(i).opacity)).toBe(
        '0',
      );
      release();
      await agreement.locator('.thumb-shown').waitFor({ timeout: 60_000 });
    });

    it("issue 33.7: a request's page shows its pages with the values so far drawn at their fields, each signer's values, then the sealed pages", async () => {
      const sent = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: agreementId,
          send_email: false,
          signing_order: 'parallel',
          signers: [
            { role: 'Client', name: 'Cleo Client', email: 'cleo@example.com' },
            { role: 'Agent', name: 'Andy Agent', email: 'andy@example.com' },
          ],
        },
      });
      expect(sent.status, sent.text).toBe(201);
      const [client, agent] = sent.body.signers as { signing_url: string }[];
      const signature = signaturePng();
      const done = await trpc(t, 'complete', {
        token: tokenOf(client!.signing_url),
        values: {
          'Client name': 'Cleo Client',
          'Start date': '2026-12-01',
          Agree: true,
          'Client signature': signature,
        },
      });
      expect(done.error).toBeNull();

      for (const [name, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await open(viewport, `/requests/${sent.body.id}`);
        await page.getByRole('heading', { name: 'Documents' }).waitFor();
        await imagesLoaded(page, '.doc-page > img');
        // The value is drawn where its field stands on the page image.
        const pageBox = (await page.getByRole('img', { name: 'Page 1 of Document 1' }).boundingBox())!;
        const nameBox = (await page.locator('[data-field="Client name"]').boundingBox())!;
        expect(Math.abs(nameBox.x - (pageBox.x + 0.3 * pageBox.width))).toBeLessThan(2);
        expect(Math.abs(nameBox.y - (pageBox.y + 0.3 * pageBox.height))).toBeLessThan(2);
        expect(Math.abs(nameBox.width - 0.4 * pageBox.width)).toBeLessThan(2);
        expect(await page.locator('[data-field="Client name"]').textContent()).toBe('Cleo Client');
        expect(await page.locator('[data-field="Agree"]').textContent()).toBe('✓');
        expect(await page.locator('[data-field="Client signature"] img').getAttribute('src')).toMatch(
          /^data:image\/png;base64,/,
        );
        // The agent has not signed: their field is outlined, named by its role.
        expect(await page.locator('[data-field="Agent signature"]').getAttribute('class')).toContain(
          'doc-field-empty',
        );
        expect(await page.locator('[data-field="Agent signature"]').textContent()).toBe('Agent');
        // Each signer's values beside them: text, the date, the box, the signature as a picture.
        const values = page.getByRole('definition');
        const cleo = page.locator('dl[aria-label="Values of Cleo Client"]');
        expect(await cleo.locator('dt').allTextContents()).toEqual([
          'Client name',
          'Start date',
          'Agree',
          'Client signature',
        ]);
        expect(await cleo.locator('dd').allTextContents()).toEqual(['Cleo Client', '2026-12-01', 'Yes', '']);
        await cleo.getByRole('img', { name: 'Client signature of Cleo Client' }).waitFor();
        expect(await page.locator('dl[aria-label="Values of Andy Agent"]').count()).toBe(0);
        expect(await values.count()).toBe(4);
        await noSideways(page);
        await page.getByRole('heading', { name: 'Documents' }).evaluate((h) => h.scrollIntoView());
        await shot(page, `${name}-request-in-progress`);
        expect(await seriousViolations(page)).toEqual([]);
      }

      // The agent signs; once sealed, the pages are the sealed file's, with no boxes over them.
      const last = await trpc(t, 'complete', {
        token: tokenOf(agent!.signing_url),
        values: { 'Agent signature': signature },
      });
      expect(last.error).toBeNull();
      const page = await open(DESKTOP, `/requests/${sent.body.id}`);
      await page.getByText('The sealed documents, with every value drawn in.').waitFor({ timeout: 90_000 });
      await imagesLoaded(page, '.doc-page > img');
      expect(await page.locator('.doc-field').count()).toBe(0);
      expect(await page.getByRole('img', { name: 'Page 2 of Document 1' }).getAttribute('src')).toMatch(
        /\/files\/[^/]+\/Document%201-page-2\.png$/,
      );
      await page.locator('dl[aria-label="Values of Andy Agent"]').getByRole('img').waitFor();
      await page.getByRole('heading', { name: 'Signed documents' }).waitFor();
      const page2 = page.getByRole('img', { name: 'Page 2 of Document 1' });
      await page2.scrollIntoViewIfNeeded();
      await imagesLoaded(page, '.doc-page > img');
      await page2.screenshot({ path: join(SHOTS, 'sealed-page-2.png') });
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'desktop-request-completed');
      await shot(page, 'desktop-request-completed-full', true);
      expect(await seriousViolations(page)).toEqual([]);
    }, 180_000);

    it('issue 33.5: the bulk preview scrolls within its box, keeps its header and row numbers in view and marks rows with errors (desktop and phone)', async () => {
      const header = 'Client name,Client email,Agent name,Agent email,Notes,Start date';
      const rows = Array.from(
        { length: 30 },
        (_, i) =>
          `Client ${i + 1},client${i + 1}@example.com,Andy Agent,andy@example.com,Renewal of the yearly consulting contract number ${i + 1},2026-12-0${(i % 9) + 1}`,
      );
      rows.splice(3, 0, 'Broken row,not-an-email,Andy Agent,andy@example.com,Broken,2026-12-01');
      const file = {
        name: 'clients.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from([header, ...rows].join('\n')),
      };
      for (const [name, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const page = await open(viewport, `/bulk?template=${agreementId}`);
        await page.getByLabel(/Spreadsheet/).setInputFiles(file);
        await page
          .getByRole('status')
          .filter({ hasText: /31 rows; 1 with errors/ })
          .waitFor({ timeout: 30_000 });
        const region = page.getByRole('region', { name: /^First \d+ rows$/ });
        const bad = region.locator('tr.row-invalid');
        expect(await bad.count()).toBe(1);
        expect(await bad.locator('th').textContent()).toBe('5');
        expect(await bad.locator('td.row-check').textContent()).toMatch(/^Not sent: /);
        expect(
          await bad.evaluate((tr) => getComputedStyle(tr.querySelector('td')!).backgroundColor),
        ).not.toBe('rgba(0, 0, 0, 0)');
        await noSideways(page);
        // Scrolled inside its box: the header row stays at its top; on a phone the table scrolls
        // sideways within the box and the row numbers stay at its left edge.
        const regionBox = (await region.boundingBox())!;
        const sideways = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
        if (name === 'phone') expect(sideways).toBe(true);
        await region.evaluate((el) => {
          el.scrollTop = 150;
          el.scrollLeft = 400;
        });
        const headBox = (await region.locator('thead th').first().boundingBox())!;
        expect(Math.abs(headBox.y - regionBox.y)).toBeLessThan(3);
        const numberBox = (await region.locator('tbody th').last().boundingBox())!;
        expect(Math.abs(numberBox.x - regionBox.x)).toBeLessThan(3);
        if (name === 'phone') {
          expect(await region.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
          await region.evaluate((el) => el.scrollIntoView({ block: 'center' }));
          await shot(page, `${name}-bulk-preview-scrolled`);
        }
        await region.evaluate((el) => {
          el.scrollTop = 0;
          el.scrollLeft = 0;
        });
        await region.scrollIntoViewIfNeeded();
        await shot(page, `${name}-bulk-preview`);
        expect(await seriousViolations(page)).toEqual([]);
      }
    }, 120_000);

    it('issue 33.5: the Account page inputs side by side are equally tall', async () => {
      const page = await open(DESKTOP, '/account');
      await page.getByLabel('Billing country').waitFor();
      const heights = async (labels: string[]) =>
        Promise.all(
          labels.map(async (l) => (await page.getByLabel(l, { exact: true }).boundingBox())!.height),
        );
      const [name, country] = await heights(['Name', 'Billing country']);
      expect(name).toBe(country);
      // The fields of both forms have the same input height, hint or none.
      const [password, accountName] = await heights(['New password', 'Account name']);
      expect(password).toBe(name);
      expect(accountName).toBe(name);
      await shot(page, 'desktop-account', true);
    });
  },
);

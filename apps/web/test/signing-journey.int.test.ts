import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@esign/core';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs, type JobContext, SIGNING_CONSENT_TEXT } from '@esign/core/testing';
import { b64 } from '@esign/testing/pdfs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_DEFAULT_SIZES } from '../../../packages/pdf/src/index.ts';
import {
  expectValidSignedPdf,
  pdfText,
  tempDir,
  writeTemp,
} from '../../../packages/pdf/test/seal-helpers.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';

// Issue 14, as signers would do it on a phone: a two-signer sequential request made from a
// Chromium-printed PDF with text tags (one wrapped onto two lines), signed by both signers.
// Screenshots of each step go to SIGNING_SCREENSHOTS (the closing note uses /work/notes/shots/14).

const SHOTS = process.env.SIGNING_SCREENSHOTS ?? join(tmpdir(), 'esign-signing-journey');
const PHONE = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** The lease, as a sender would write it in HTML; the narrow column makes Chromium wrap a tag. */
const LEASE_HTML = `<!doctype html><html><head><style>
body { font: 12pt Helvetica, Arial, sans-serif; margin: 0; }
.col { width: 260px; }
p { margin: 0 0 14pt; }
.sign { margin-bottom: 64pt; }
</style></head><body><div class="col">
<h1 style="font-size:18pt">Lease agreement</h1>
<p>The landlord lets the flat at 1 Main Street to the tenant from 1 January.</p>
<p>Landlord: {{Landlord full legal name;role=Landlord}}</p>
<p class="sign">Landlord signature:<br>{{signature;role=Landlord}}</p>
<p>Tenant: {{Tenant name;role=Tenant}}</p>
<p>{{House rules read;type=checkbox;role=Tenant}} I have read the house rules.</p>
<p class="sign">Tenant signature:<br>{{signature;role=Tenant}}</p>
<p>Both parties keep a signed copy.</p>
</div></body></html>`;

describe.runIf(browserTestsEnabled('signing journey'))(
  'two signers, sequential, on a phone (issue 14)',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;
    let jctx: JobContext;
    let dir: string;
    let leasePdf: Uint8Array;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      dir = tempDir('signing-journey');
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
      jctx = {
        db: t.db,
        logger: createLogger('silent', 'test'),
        config: t.config,
        deps: t.rt.deps,
        now: () => new Date(),
      };
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.setContent(LEASE_HTML);
      leasePdf = new Uint8Array(await page.pdf({ format: 'Letter', printBackground: false }));
      await ctx.close();
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
    const getSigner = async (id: number) => (await t.api('GET', `signers/${id}`, { key: owner.key })).body;

    async function openPhone(url: string): Promise<{ ctx: BrowserContext; page: Page; problems: string[] }> {
      const ctx = await browser.newContext(PHONE);
      const page = await ctx.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(url);
      await page.getByRole('heading', { level: 1, name: 'Lease' }).waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('main .page img')].every(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      );
      return { ctx, page, problems };
    }

    /** Finish, the review step (screenshot), then Sign. */
    async function reviewAndSign(page: Page, who: string, expectInSummary: string[]) {
      await page.getByRole('button', { name: 'Finish' }).tap();
      const review = page.getByRole('dialog', { name: 'Review and sign' });
      await review.waitFor();
      const summary = await review.locator('.review-list').textContent();
      for (const s of expectInSummary) expect(summary).toContain(s);
      // The signature is shown as the picture that will be sealed.
      expect(await review.locator('img.review-img').getAttribute('alt')).toBe('signed');
      // The consent sentence is right next to the button that signs (and describes it).
      const note = review.locator('.sheet-note');
      expect(await note.textContent()).toBe(SIGNING_CONSENT_TEXT);
      const sign = review.getByRole('button', { name: 'Sign' });
      expect(await sign.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
      const [n, b] = [(await note.boundingBox())!, (await sign.boundingBox())!];
      expect(b.y - (n.y + n.height)).toBeLessThan(24);
      expect(b.y + b.height).toBeLessThanOrEqual(740);
      await shot(page, `${who}-4-review`);
      await sign.tap();
      await page.getByRole('heading', { name: 'Document signed' }).waitFor();
      await shot(page, `${who}-5-signed`);
    }

    it('a wrapped tag in a Chromium-printed PDF becomes one field and disappears from the page; tag signatures get the default size', async () => {
      // Chromium wrapped the landlord's name tag in the narrow column: two lines of text.
      const printed = pdfText(writeTemp(dir, 'lease-printed.pdf', leasePdf));
      expect(printed).toMatch(/\{\{Landlord full legal\s*\n\s*name;role=Landlord\}\}/);
      const res = await t.api('POST', 'templates', {
        key: owner.key,
        body: { name: 'Lease', documents: [{ name: 'Lease', file: b64(leasePdf) }] },
      });
      expect(res.status, res.text).toBe(201);
      const fields = res.body.fields as {
        name: string;
        role: string;
        type: string;
        areas: { w: number; h: number }[];
      }[];
      expect(fields.map((f) => [f.name, f.role, f.type])).toEqual([
        ['Landlord full legal name', 'Landlord', 'text'],
        ['Signature', 'Landlord', 'signature'],
        ['Tenant name', 'Tenant', 'text'],
        ['House rules read', 'Tenant', 'checkbox'],
        ['Signature', 'Tenant', 'signature'],
      ]);
      for (const f of fields.filter((x) => x.type === 'signature')) {
        expect(f.areas[0]!.h * 792).toBeGreaterThanOrEqual(TAG_DEFAULT_SIZES.signature!.height - 0.01);
        expect(f.areas[0]!.w * 612).toBeGreaterThanOrEqual(TAG_DEFAULT_SIZES.signature!.width - 0.01);
      }
      const stored = new Uint8Array(await (await fetch(res.body.documents[0].url)).arrayBuffer());
      const text = pdfText(writeTemp(dir, 'lease-stored.pdf', stored));
      expect(text).not.toContain('{{');
      expect(text).not.toContain('legal');
      expect(text).not.toContain('role=');
      expect(text).toContain('Landlord:');
      // Where Chromium wraps the sentence after the removed tag depends on its version ("I" may
      // end the tag's line): every word is still on the page.
      expect(text).toContain('have read the house rules.');
      expect(text.split(/\s+/)).toContain('I');
    });

    it('signer 1 signs on a phone, gets their signed copy right away; signer 2 sees what signer 1 filled in, then signs', async () => {
      const tpl = (await t.api('GET', 'templates?limit=1', { key: owner.key })).body.data[0];
      const sent = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: tpl.id,
          signing_order: 'sequential',
          signers: [
            { role: 'Landlord', name: 'Lena Lee', email: 'lena@example.com' },
            { role: 'Tenant', name: 'Tariq Tan', email: 'tariq@example.com' },
          ],
        },
      });
      expect(sent.status, sent.text).toBe(201);
      const [s1, s2] = sent.body.signers;

      // Signer 1 (Landlord).
      const one = await openPhone(s1.signing_url);
      await shot(one.page, 'signer1-1-open');
      await one.page.getByRole('button', { name: 'Next field' }).tap();
      const dialog = one.page.getByRole('dialog');
      await dialog.getByLabel(/Landlord full legal name/).fill('Lena M. Lee');
      await shot(one.page, 'signer1-2-name');
      await dialog.getByRole('button', { name: 'Save and next' }).tap();
      await expect.poll(() => dialog.locator('canvas').isVisible()).toBe(true);
      await drawSignature(one.page, dialog.locator('canvas'));
      await shot(one.page, 'signer1-3-signature');
      await dialog.getByRole('button', { name: 'Save' }).tap();
      await expect.poll(() => dialog.count()).toBe(0);
      await reviewAndSign(one.page, 'signer1', ['Landlord full legal name', 'Lena M. Lee', 'Signature']);
      expect(one.problems).toEqual([]);
      await one.ctx.close();

      // Their copy: documents listed right after the copy job, the PDF passes pdfsig, and an email.
      expect((await getSigner(s1.id)).documents).toEqual([]);
      await drainJobs(jctx, jobHandlers);
      const signed1 = await getSigner(s1.id);
      expect(signed1.documents).toHaveLength(1);
      const copy = new Uint8Array(await (await fetch(signed1.documents[0].url)).arrayBuffer());
      const copyFile = writeTemp(dir, 'signer1-copy.pdf', copy);
      expectValidSignedPdf(copyFile);
      expect(pdfText(copyFile)).toContain('Lena M. Lee');
      const mail = await t.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'subject'])
        .where('kind', '=', 'signer.copy')
        .where('signer_id', '=', s1.id)
        .execute();
      expect(mail).toEqual([{ to_address: 'lena@example.com', subject: 'Your signed copy: Lease' }]);

      // Signer 2 (Tenant) sees signer 1's name and signature image, read-only, on the page.
      const two = await openPhone(s2.signing_url);
      const others = two.page.locator('.field.other');
      await expect.poll(() => others.count()).toBe(2);
      expect(
        await two.page.locator('.field.other[data-other-field="Landlord full legal name"]').textContent(),
      ).toContain('Lena M. Lee');
      const img = two.page.locator('.field.other.t-signature img');
      await expect
        .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
        .toBe(true);
      expect((await img.boundingBox())!.height).toBeGreaterThan(10);
      expect(await two.page.locator('.intro').textContent()).toContain(
        'What Lena Lee already signed is shown',
      );
      await shot(two.page, 'signer2-1-open-sees-signer1');

      // Next field: the text field's editor opens; Save and next moves on to the checkbox.
      await two.page.getByRole('button', { name: 'Next field' }).tap();
      await two.page.getByRole('dialog').waitFor();
      await two.page
        .getByRole('dialog')
        .getByLabel(/Tenant name/)
        .fill('Tariq Tan');
      await two.page.getByRole('dialog').getByRole('button', { name: 'Save and next' }).tap();
      await expect.poll(() => two.page.getByRole('dialog').count()).toBe(0);
      await two.page.waitForTimeout(600); // the smooth scroll to the checkbox
      // Next field onto a checkbox: zoomed to a readable size, with a visible focus ring.
      const box = two.page.getByRole('checkbox', { name: /House rules read/ });
      expect(await box.evaluate((el) => document.activeElement === el)).toBe(true);
      expect(await box.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
      expect(await two.page.locator('main').getAttribute('class')).toContain('zoomed');
      // Zoomed at most MAX_ZOOM (2.5) times the fitted width.
      const zoom = Number(
        await two.page.locator('main').evaluate((m) => (m as HTMLElement).style.getPropertyValue('--zoom')),
      );
      expect(zoom).toBeGreaterThan(1);
      expect(zoom).toBeLessThanOrEqual(2.5);
      expect((await box.boundingBox())!.height).toBeGreaterThanOrEqual(30);
      await shot(two.page, 'signer2-2-checkbox-zoomed');
      await box.tap();
      expect(await box.getAttribute('aria-checked')).toBe('true');
      await two.page.getByRole('button', { name: 'Next field' }).tap();
      const sheet = two.page.getByRole('dialog');
      await expect.poll(() => sheet.locator('canvas').isVisible()).toBe(true);
      await drawSignature(two.page, sheet.locator('canvas'));
      await shot(two.page, 'signer2-3-signature');
      await sheet.getByRole('button', { name: 'Save' }).tap();
      await expect.poll(() => sheet.count()).toBe(0);
      await two.page.getByRole('button', { name: 'Fit page' }).tap();
      await reviewAndSign(two.page, 'signer2', ['Tenant name', 'Tariq Tan', 'House rules read', 'checked']);
      expect(two.problems).toEqual([]);
      await two.ctx.close();

      // The final seal: every value; the tag-made signatures drawn at least the documented size.
      await drainJobs(jctx, jobHandlers);
      const request = (await t.api('GET', `signature_requests/${sent.body.id}`, { key: owner.key })).body;
      expect(request.status).toBe('completed');
      const sealed = writeTemp(
        dir,
        'sealed.pdf',
        new Uint8Array(await (await fetch(request.documents[0].url)).arrayBuffer()),
      );
      expectValidSignedPdf(sealed);
      const images = drawnImages(sealed);
      expect(images).toHaveLength(2);
      for (const im of images) {
        // Fitted into a 180 x 48 pt (or larger) field: it fills the field's height or width.
        expect(im.height).toBeGreaterThanOrEqual(TAG_DEFAULT_SIZES.signature!.height / 2);
        expect(im.width).toBeGreaterThanOrEqual(TAG_DEFAULT_SIZES.signature!.width / 2);
      }
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '60',
        '-f',
        '1',
        '-l',
        '1',
        sealed,
        join(SHOTS, 'sealed-page'),
      ]);
    });
  },
);

/** Images drawn on page 1 of a PDF, with their size in points (mutool trace's transforms). */
function drawnImages(file: string): { width: number; height: number }[] {
  const trace = execFileSync('mutool', ['trace', file, '1'], { encoding: 'utf8' });
  return [...trace.matchAll(/<fill_image[^>]*transform="([^"]+)"/g)].map((m) => {
    const [a, b, c, d] = m[1]!.trim().split(/\s+/).map(Number) as [number, number, number, number];
    return { width: Math.hypot(a, b), height: Math.hypot(c, d) };
  });
}

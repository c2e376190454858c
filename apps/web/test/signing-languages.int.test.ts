import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { t as tr } from '@esign/i18n';
import { en } from '@esign/i18n/catalogues/en';
import { b64, plainPdf } from '@esign/testing/pdfs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';

// Issue 32, Languages, in Chromium: a German and an Arabic signer read every word of the signing
// page in their language, `<html lang dir>` follow it, Arabic lays out right to left, and nothing
// is clipped on a phone (390×844) or a desktop. Screenshots go to LANGUAGE_SCREENSHOTS.

const SHOTS = process.env.LANGUAGE_SCREENSHOTS ?? join(tmpdir(), 'esign-signing-languages');
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 860 } };

/** English words of the catalogue that must not be on a page in another language. */
const ENGLISH = Object.values(en).filter((m) => !m.includes('{') && m.length > 6 && !/^[A-Z]+$/.test(m));

describe.runIf(browserTestsEnabled('signing languages'))(
  'the signing page in German and Arabic (issue 32)',
  () => {
    let t: TestApp;
    let owner: TestAccount;
    let browser: Browser;
    let templateId: number;
    const area = (y: number) => ({ page: 1, x: 0.1, y, w: 0.4, h: 0.06, document: 0 });

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
      owner = await createTestAccount(t.db, { lifetime: true });
      const tpl = await t.api('POST', 'templates', {
        key: owner.key,
        body: {
          name: 'Mietvertrag',
          documents: [{ name: 'Mietvertrag', file: b64(await plainPdf(1, 'Mietvertrag')) }],
          fields: [
            { name: 'Name', type: 'text', role: 'Mieter', required: true, areas: [area(0.2)] },
            { name: 'Unterschrift', type: 'signature', role: 'Mieter', required: true, areas: [area(0.4)] },
          ],
        },
      });
      expect(tpl.status, tpl.text).toBe(201);
      templateId = tpl.body.id;
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    const ids = new Map<string, number>();
    const signerIdOf = async (url: string) => ids.get(url)!;

    async function signingUrl(body: Record<string, unknown>, signer: Record<string, unknown>) {
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: {
          template_id: templateId,
          signers: [{ role: 'Mieter', email: 'x@example.com', ...signer }],
          ...body,
        },
      });
      expect(res.status, res.text).toBe(201);
      ids.set(res.body.signers[0].signing_url, res.body.signers[0].id);
      return res.body.signers[0].signing_url as string;
    }

    async function open(url: string, device: typeof PHONE | typeof DESKTOP, locale = 'en-US') {
      const ctx = await browser.newContext({ ...device, locale });
      const page = await ctx.newPage();
      // Every text the page shows while it loads (issue 32: its language is fetched on its own).
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver(() => {
          const app = document.getElementById('app');
          // biome-ignore lint/performance/useDomNodeTextContent: what the signer sees, not hidden text
          if (app) seen.push(app.innerText);
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(url);
      await page.locator('main.docs .page img').first().waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('main .page img')].every(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      );
      return { ctx, page, problems };
    }

    /** No English sentence of the catalogue on the page, and nothing cut off or overflowing. */
    async function expectTranslatedAndUnclipped(page: Page, what: string) {
      const text = await page.locator('body').innerText();
      const left = ENGLISH.filter((m) => text.includes(m) && !['Mietvertrag'].includes(m));
      expect(left, what).toEqual([]);
      const clipped = await page.evaluate(() => {
        const out: string[] = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > doc.clientWidth + 1)
          out.push(`page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth})`);
        for (const el of document.querySelectorAll<HTMLElement>(
          'button, label, h1, h2, .who, .bar-status, select, .sheet-note',
        )) {
          if (!el.offsetParent || el.classList.contains('sr-only')) continue;
          const style = getComputedStyle(el);
          if (style.textOverflow === 'ellipsis') continue; // the title is shortened on purpose
          if (el.scrollWidth > el.clientWidth + 1)
            out.push(`${el.tagName} "${el.textContent?.trim()}" is cut off`);
        }
        return out;
      });
      expect(clipped, what).toEqual([]);
    }

    it('issue 32: a German signer (signers[].locale de) reads the page, the review step and the consent in German', async () => {
      const url = await signingUrl({}, { locale: 'de', name: 'Jana Schmidt' });
      const { ctx, page, problems } = await open(url, PHONE);
      expect(
        await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
      ).toEqual(['de', 'ltr']);
      // Issue 42.6: the first HTML is already German (the server knows the link's language), and
      // no English word shows at any moment while the page loads, not even the loading words.
      const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
      const flashed = ENGLISH.filter((m) => seen.some((text) => text.includes(m)));
      expect(flashed).toEqual([]);
      expect(seen.some((text) => text.includes(tr('de', 'page.loading')))).toBe(true);
      await page.getByRole('button', { name: 'Nächstes Feld' }).waitFor();
      expect(await page.locator('.who').textContent()).toBe('Sie unterschreiben als Jana Schmidt (Mieter)');
      expect(await page.locator('.intro').textContent()).toContain(
        'Füllen Sie die markierten Felder im Dokument aus; die 2 mit * gekennzeichneten Felder sind Pflichtfelder.',
      );
      expect(await page.locator('.progress').textContent()).toBe('0 von 2 Pflichtfeldern ausgefüllt');
      await page.screenshot({ path: join(SHOTS, 'de-phone-1-open.png') });
      await expectTranslatedAndUnclipped(page, 'German page, phone');

      // Finish with nothing filled in: the error summary in German.
      await page.getByRole('button', { name: 'Fertig' }).tap();
      await page.getByRole('heading', { name: '2 Pflichtfelder sind leer' }).waitFor();
      expect(await page.locator('.error-summary').innerText()).toContain('Unterschrift (Unterschrift)');

      await page.getByRole('button', { name: 'Nächstes Feld' }).tap();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name (Text, Pflichtfeld)').fill('Jana Schmidt');
      await dialog.getByRole('button', { name: 'Speichern und weiter' }).tap();
      await expect.poll(() => dialog.locator('canvas').isVisible()).toBe(true);
      expect(await dialog.getByRole('radio', { name: 'Zeichnen' }).count()).toBe(1);
      await page.screenshot({ path: join(SHOTS, 'de-phone-2-signature.png') });
      await expectTranslatedAndUnclipped(page, 'German signature dialog');
      await drawSignature(page, dialog.locator('canvas'));
      await dialog.getByRole('button', { name: 'Speichern', exact: true }).tap();
      await expect.poll(() => dialog.count()).toBe(0);

      await page.getByRole('button', { name: 'Fertig' }).tap();
      const review = page.getByRole('dialog', { name: 'Prüfen und unterschreiben' });
      await review.waitFor();
      expect(await review.locator('.sheet-note').textContent()).toBe(tr('de', 'consent.text'));
      await page.screenshot({ path: join(SHOTS, 'de-phone-3-review.png') });
      await expectTranslatedAndUnclipped(page, 'German review step');
      await review.getByRole('button', { name: 'Unterschreiben' }).tap();
      await page.getByRole('heading', { name: 'Dokument unterschrieben' }).waitFor();
      await page.screenshot({ path: join(SHOTS, 'de-phone-4-signed.png') });
      expect(problems).toEqual([]);
      await ctx.close();

      const signed = await t.db
        .selectFrom('audit_events')
        .select('data')
        .where('type', '=', 'signer.signed')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(signed.data).toMatchObject({ consent: tr('de', 'consent.text'), locale: 'de' });
    });

    it("issue 32 item 3: the server's refusal is in the signer's language (a wrong code, German)", async () => {
      const url = await signingUrl({ require_email_otp: true }, { locale: 'de', name: 'Jana Schmidt' });
      const ctx = await browser.newContext({ ...PHONE, locale: 'en-US' });
      const page = await ctx.newPage();
      await page.goto(url);
      await page.getByRole('button', { name: 'Code per E-Mail senden' }).tap();
      await page.getByLabel('Code aus der E-Mail').fill('000000');
      await page.getByRole('button', { name: 'Bestätigen' }).tap();
      await page.getByText('Dieser Code ist falsch; noch 4 Versuche').waitFor();
      await page.screenshot({ path: join(SHOTS, 'de-phone-0-wrong-code.png') });
      await expectTranslatedAndUnclipped(page, 'German code gate with an error');
      await ctx.close();
    });

    it('issue 32: an Arabic signer (the request\'s locale ar) gets <html lang="ar" dir="rtl"> and a right-to-left layout, phone and desktop', async () => {
      const url = await signingUrl({ locale: 'ar' }, { name: 'ليلى حداد' });
      for (const [device, name] of [
        [PHONE, 'phone'],
        [DESKTOP, 'desktop'],
      ] as const) {
        const { ctx, page, problems } = await open(url, device);
        expect(
          await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
        ).toEqual(['ar', 'rtl']);
        await page.getByRole('button', { name: 'إنهاء' }).waitFor();
        expect(await page.locator('.who').textContent()).toBe('توقّع بصفتك ليلى حداد (Mieter)');
        // Right to left: the title block starts at the right edge, the actions sit to its left.
        const bar = (await page.locator('.bar').boundingBox())!;
        const title = (await page.locator('.bar h1').boundingBox())!;
        expect(bar.x + bar.width - (title.x + title.width)).toBeLessThan(40);
        if (name === 'desktop') {
          const finish = (await page.getByRole('button', { name: 'إنهاء' }).boundingBox())!;
          expect(finish.x).toBeLessThan(title.x);
        }
        expect(await page.locator('.intro').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
        // The document itself is never mirrored.
        expect(
          await page
            .locator('.page')
            .first()
            .evaluate((el) => getComputedStyle(el).direction),
        ).toBe('ltr');
        await page.screenshot({ path: join(SHOTS, `ar-${name}-1-open.png`) });
        await expectTranslatedAndUnclipped(page, `Arabic page, ${name}`);
        await page.getByRole('button', { name: 'رفض' }).click();
        await page.getByRole('dialog', { name: 'رفض التوقيع' }).waitFor();
        await page.screenshot({ path: join(SHOTS, `ar-${name}-2-decline.png`) });
        await expectTranslatedAndUnclipped(page, `Arabic decline dialog, ${name}`);
        expect(problems).toEqual([]);
        await ctx.close();
      }
    });

    it('issue 32: without any locale the page follows Accept-Language; the signer can switch language on the page, for their link only', async () => {
      const url = await signingUrl({}, { name: 'Camille Martin' });
      const { ctx, page, problems } = await open(url, DESKTOP, 'fr-FR');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
      await page.getByRole('button', { name: 'Champ suivant' }).waitFor();
      await page.getByRole('combobox', { name: 'Langue' }).selectOption('nl');
      await page.getByRole('button', { name: 'Volgend veld' }).waitFor();
      expect(
        await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
      ).toEqual(['nl', 'ltr']);
      await page.screenshot({ path: join(SHOTS, 'nl-desktop-switched.png') });
      await expectTranslatedAndUnclipped(page, 'switched to Dutch');
      // The choice is kept for this browser, and is the signer's language from now on (issue 32
      // item 4: signing.setLocale; emails, SMS and the audit trail follow it).
      await page.reload();
      await page.getByRole('button', { name: 'Volgend veld' }).waitFor();
      // The choice belongs to this link: a second signer's link opened in the same browser reads
      // that signer's language (the request's `de`), and their stored language is left alone.
      const other = await signingUrl({ locale: 'de' }, { name: 'Jonas Weber', email: 'jonas@example.com' });
      await page.goto(other);
      await page.getByRole('button', { name: 'Nächstes Feld' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      const otherId = await signerIdOf(other);
      const untouched = await t.db
        .selectFrom('signers')
        .select('locale')
        .where('id', '=', otherId)
        .executeTakeFirstOrThrow();
      expect(untouched.locale).toBeNull();
      expect(
        await t.db
          .selectFrom('audit_events')
          .select('id')
          .where('signer_id', '=', otherId)
          .where('type', '=', 'signer.locale')
          .execute(),
      ).toEqual([]);
      // And the first link still opens in Dutch.
      await page.goto(url);
      await page.getByRole('button', { name: 'Volgend veld' }).waitFor();
      expect(problems).toEqual([]);
      await ctx.close();
      const id = await signerIdOf(url);
      const signer = await t.db
        .selectFrom('signers')
        .select('locale')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(signer.locale).toBe('nl');
      const changed = await t.db
        .selectFrom('audit_events')
        .select('data')
        .where('signer_id', '=', id)
        .where('type', '=', 'signer.locale')
        .execute();
      expect(changed.map((e) => e.data)).toEqual([{ from: null, to: 'nl' }]);
    });
  },
);

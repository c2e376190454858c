import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIGNING_CONSENT_TEXT } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { b64, plainPdf } from '@esign/testing/pdfs';
import { tokenOf } from '@esign/testing/signing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, drawSignature, launchChromium } from './browser.ts';

/** Where the layout screenshots go (look at them after a change to the page). */
const SHOTS = process.env.SIGNING_SCREENSHOTS ?? join(tmpdir(), 'esign-signing-page');

const area = (page: number, x: number, y: number, w = 0.3, h = 0.04) => [{ page, x, y, w, h }];

/** One document of two pages with one field of most types for the signer role. */
const FORM_FIELDS = [
  { name: 'Full name', type: 'text', areas: area(1, 0.1, 0.2) },
  { name: 'Agree to terms', type: 'checkbox', areas: area(1, 0.1, 0.28, 0.03, 0.025) },
  { name: 'Plan', type: 'select', options: ['Basic', 'Pro', 'Enterprise'], areas: area(1, 0.1, 0.34) },
  { name: 'Start date', type: 'date', required: false, areas: area(1, 0.5, 0.34, 0.2) },
  { name: 'Seats', type: 'number', required: false, areas: area(1, 0.1, 0.42, 0.15) },
  { name: 'Phone', type: 'phone', required: false, areas: area(1, 0.5, 0.42, 0.3) },
  {
    name: 'Payment',
    type: 'radio',
    required: false,
    options: ['Card', 'Invoice'],
    areas: area(1, 0.1, 0.5, 0.2),
  },
  {
    name: 'Extras',
    type: 'multiple',
    required: false,
    options: ['Support', 'Training'],
    areas: area(1, 0.5, 0.5),
  },
  { name: 'Signature', type: 'signature', areas: area(2, 0.1, 0.75, 0.35, 0.07) },
  { name: 'Initials', type: 'initials', required: false, areas: area(1, 0.85, 0.92, 0.1, 0.04) },
];

interface TrpcCall {
  method: string;
  url: string;
}

describe.runIf(browserTestsEnabled('signing page'))('signing page /s/{token} in a real browser', () => {
  let t: TestApp;
  let owner: TestAccount;
  let browser: Browser;
  let formTemplateId: number;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
    owner = await createTestAccount(t.db, { lifetime: true });
    formTemplateId = (
      await makeTemplate(t, owner, {
        name: 'Service Agreement',
        documents: [{ name: 'Service Agreement', file: b64(await plainPdf(2, 'Service Agreement page')) }],
        fields: FORM_FIELDS,
      })
    ).id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function send(
    templateId: number,
    signer: Record<string, unknown> = {},
    body: Record<string, unknown> = {},
  ) {
    const res = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: {
        template_id: templateId,
        send_email: false,
        signers: [{ name: 'Jane Doe', email: 'jane@example.com', ...signer }],
        ...body,
      },
    });
    expect(res.status, res.text).toBe(201);
    const s = res.body.signers[0];
    expect(s.signing_url).toMatch(/\/s\/[^/]+$/);
    return { requestId: res.body.id as number, signerId: s.id as number, url: s.signing_url as string };
  }

  async function signer(id: number) {
    const res = await t.api('GET', `signers/${id}`, { key: owner.key });
    expect(res.status).toBe(200);
    return res.body;
  }

  const fieldValue = (s: { values: { field: string; value: unknown }[] }, name: string) =>
    s.values.find((v) => v.field === name)?.value;

  async function open(ctx: BrowserContext, url: string): Promise<Page> {
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    (page as Page & { problems?: string[] }).problems = problems;
    const calls: TrpcCall[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/trpc/')) calls.push({ method: r.method(), url: r.url() });
    });
    (page as Page & { trpcCalls?: TrpcCall[] }).trpcCalls = calls;
    await page.goto(url);
    return page;
  }

  const trpcCalls = (page: Page) => (page as Page & { trpcCalls?: TrpcCall[] }).trpcCalls ?? [];

  const fieldButton = (page: Page, name: string) =>
    page.locator('main').getByRole('button', { name: new RegExp(`^${name} \\(`) });

  /** Finish, then the review step: the summary and the consent sentence beside Sign. */
  async function finishAndSign(page: Page, via: 'pointer' | 'touch' = 'pointer') {
    const tap = (l: Locator) => (via === 'touch' ? l.tap() : l.click());
    await tap(page.getByRole('button', { name: 'Finish' }));
    const review = page.getByRole('dialog', { name: 'Review and sign' });
    await review.waitFor();
    await tap(review.getByRole('button', { name: 'Sign' }));
  }

  async function fillForm(page: Page, via: 'pointer' | 'touch') {
    const tap = (l: Locator) => (via === 'touch' ? l.tap() : l.click());
    const dialog = page.getByRole('dialog');
    await tap(fieldButton(page, 'Full name'));
    await dialog.getByLabel('Full name (text, required)').fill('Jane Q. Doe');
    await tap(dialog.getByRole('button', { name: 'Save' }));
    await expect.poll(() => dialog.count()).toBe(0);

    await tap(page.getByRole('checkbox', { name: 'Agree to terms, required' }));
    expect(
      await page.getByRole('checkbox', { name: 'Agree to terms, required' }).getAttribute('aria-checked'),
    ).toBe('true');

    await tap(fieldButton(page, 'Plan'));
    await dialog.getByLabel('Plan (list, required)').selectOption('Pro');
    await tap(dialog.getByRole('button', { name: 'Save' }));

    await tap(fieldButton(page, 'Payment'));
    await tap(dialog.getByText('Invoice'));
    await tap(dialog.getByRole('button', { name: 'Save' }));

    await tap(fieldButton(page, 'Signature'));
    await expect.poll(() => dialog.getByRole('img', { name: /Drawing area/ }).isVisible()).toBe(true);
    await drawSignature(page, dialog.locator('canvas'));
    await page.screenshot({ path: join(SHOTS, `${via === 'touch' ? 'phone' : 'laptop'}-signature.png`) });
    await tap(dialog.getByRole('button', { name: 'Save' }));
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => fieldButton(page, 'Signature').getAttribute('aria-label')).toMatch(/signed$/);
  }

  it('signs end to end on a laptop (1280 px): required checks, drawn signature, text, checkbox, option', async () => {
    const req = await send(
      formTemplateId,
      { prefill: { Phone: '+1 555 0100' } },
      { message: { subject: 'Please sign', body: 'Thanks, Bob' } },
    );
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await open(ctx, req.url);
    await page.getByRole('heading', { level: 1, name: 'Service Agreement' }).waitFor();
    // Page images (rendered from the PDF on first request) load and fill the page width.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('main .page img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await page.screenshot({ path: join(SHOTS, 'laptop-open.png') });
    // The sender's prefilled value is shown read-only: no control, but read out.
    expect(await page.locator('.field.prefilled').textContent()).toContain('+1 555 0100');
    expect(await fieldButton(page, 'Phone').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Message from the sender' }).textContent()).toContain(
      'Thanks, Bob',
    );

    // Finish with empty required fields: an error summary, and each field marked invalid.
    await page.getByRole('button', { name: 'Finish' }).click();
    const summary = page.locator('.error-summary');
    await expect.poll(() => summary.isVisible()).toBe(true);
    expect(await summary.textContent()).toContain('4 required fields are empty');
    expect(await page.evaluate(() => document.activeElement?.className)).toContain('error-summary');
    const name = fieldButton(page, 'Full name');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await name.getAttribute('aria-describedby');
    expect(await page.locator(`#${describedBy}`).textContent()).toBe('Required');
    await page.screenshot({ path: join(SHOTS, 'laptop-required.png') });

    await fillForm(page, 'pointer');
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    // Autosave keeps progress before Finish.
    await expect
      .poll(async () => fieldValue(await signer(req.signerId), 'Full name'), { timeout: 5000 })
      .toBe('Jane Q. Doe');
    await page.screenshot({ path: join(SHOTS, 'laptop-filled.png'), fullPage: true });

    await finishAndSign(page);
    await page.getByRole('heading', { name: 'Document signed' }).waitFor();
    const s = await signer(req.signerId);
    expect(s.status).toBe('signed');
    expect(fieldValue(s, 'Full name')).toBe('Jane Q. Doe');
    expect(fieldValue(s, 'Agree to terms')).toBe(true);
    expect(fieldValue(s, 'Plan')).toBe('Pro');
    expect(fieldValue(s, 'Payment')).toBe('Invoice');
    expect(String(fieldValue(s, 'Signature'))).toMatch(/^data:image\/png;base64,/);
    // How the signature was made (issue 15) and the consent given (issue 14) go to the audit trail.
    const signedEvent = await t.db
      .selectFrom('audit_events')
      .select('data')
      .where('signer_id', '=', req.signerId)
      .where('type', '=', 'signer.signed')
      .executeTakeFirstOrThrow();
    expect(signedEvent.data).toEqual({
      consent: SIGNING_CONSENT_TEXT,
      locale: 'en',
      signature_methods: { Signature: 'drawn' },
    });
    expect((page as Page & { problems?: string[] }).problems).toEqual([]);
    // Every procedure goes by POST, queries too: the token is in no request URL (nor its logs).
    const calls = trpcCalls(page);
    const paths = new Set(calls.map((c) => new URL(c.url).pathname));
    expect([...paths].sort()).toEqual([
      '/trpc/signing.complete',
      '/trpc/signing.open',
      '/trpc/signing.saveValues',
    ]);
    expect(calls.filter((c) => c.method !== 'POST' || c.url.includes(tokenOf(req.url)))).toEqual([]);

    // The link is finished now: a clear page, not a crash.
    await page.reload();
    await page.getByRole('heading', { name: 'You have already finished' }).waitFor();
    await ctx.close();
  });

  it('signs end to end on a phone (375 px): touch taps, bottom-sheet editors, drawn signature', async () => {
    const req = await send(formTemplateId, { redirect_url: `${t.baseUrl}/healthz` });
    const ctx = await browser.newContext({
      viewport: { width: 375, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await open(ctx, req.url);
    await page.getByRole('heading', { level: 1, name: 'Service Agreement' }).waitFor();
    // Nothing wider than the screen; the page is scaled to the viewport.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const pageBox = await page.locator('.page').first().boundingBox();
    expect(pageBox?.width).toBeGreaterThan(330);
    expect(pageBox?.width).toBeLessThanOrEqual(375);
    // The small checkbox still has a finger-sized target: 32 px wide (nothing beside it); in height
    // it reaches halfway to the fields above and below and no further (issue 33.1): ~28 px here.
    const hit = await page.getByRole('checkbox', { name: 'Agree to terms, required' }).evaluate((el) => {
      const after = getComputedStyle(el, '::after');
      return [Number.parseFloat(after.width), Number.parseFloat(after.height)];
    });
    expect(hit[0]).toBeGreaterThan(31.9); // 32 px, to layout rounding (1/64 px)
    expect(hit[1]).toBeGreaterThan(24);
    await page.screenshot({ path: join(SHOTS, 'phone-open.png') });

    await fieldButton(page, 'Full name').tap();
    const dialog = page.getByRole('dialog');
    const sheet = await dialog.boundingBox();
    // A bottom sheet: full width, attached to the bottom of the screen.
    expect(sheet?.width).toBe(375);
    expect(Math.round((sheet?.y ?? 0) + (sheet?.height ?? 0))).toBe(740);
    await page.screenshot({ path: join(SHOTS, 'phone-sheet.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).tap();

    await fillForm(page, 'touch');
    await page.screenshot({ path: join(SHOTS, 'phone-filled.png') });
    await finishAndSign(page, 'touch');
    // redirect_url: the browser goes there after signing.
    await page.waitForURL(`${t.baseUrl}/healthz`);
    const s = await signer(req.signerId);
    expect(s.status).toBe('signed');
    expect(fieldValue(s, 'Plan')).toBe('Pro');
    await ctx.close();
  });

  it('draws with touch input on the signature pad', async () => {
    const tpl = await makeTemplate(t, owner, {
      name: 'Touch',
      fields: [{ name: 'Signature', type: 'signature', areas: area(1, 0.1, 0.8, 0.35, 0.07) }],
    });
    const req = await send(tpl.id);
    const ctx = await browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await open(ctx, req.url);
    await fieldButton(page, 'Signature').tap();
    const canvas = page.getByRole('dialog').locator('canvas');
    await expect.poll(() => canvas.isVisible()).toBe(true);
    const box = (await canvas.boundingBox())!;
    const cdp = await ctx.newCDPSession(page);
    const point = (i: number) => ({ x: box.x + 30 + i * 12, y: box.y + box.height / 2 + (i % 2 ? 15 : -15) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point(0)] });
    for (let i = 1; i < 20; i++)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point(i)] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.screenshot({ path: join(SHOTS, 'phone-touch.png') });
    // Chromium drops a tap that lands within ~150 ms of the end of a drawn touch stroke (its tap
    // suppression after a gesture); a finger needs longer than that to reach the button. On a busy
    // machine the suppression lasted longer (CI, 2026-11-26): like a person, tap again until the
    // sheet closes.
    await page.waitForTimeout(300);
    const sheet = page.getByRole('dialog');
    for (let i = 0; i < 10 && (await sheet.isVisible()); i++) {
      await sheet
        .getByRole('button', { name: 'Save' })
        .tap({ timeout: 2_000 })
        .catch(() => {});
      await sheet.waitFor({ state: 'hidden', timeout: 1_000 }).catch(() => {});
    }
    await sheet.waitFor({ state: 'hidden' });
    await finishAndSign(page, 'touch');
    await page.getByRole('heading', { name: 'Document signed' }).waitFor();
    expect(String(fieldValue(await signer(req.signerId), 'Signature'))).toMatch(/^data:image\/png;base64,/);
    await ctx.close();
  });

  it('uploads an image (scaled down in the browser) and a 2 MB file', async () => {
    const tpl = await makeTemplate(t, owner, {
      name: 'Uploads',
      fields: [
        { name: 'Photo', type: 'image', areas: area(1, 0.1, 0.2, 0.3, 0.2) },
        { name: 'Attachment', type: 'file', areas: area(1, 0.1, 0.5) },
      ],
    });
    const req = await send(tpl.id);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await open(ctx, req.url);
    // A 2000 x 1000 picture, made by the browser itself.
    const photo = await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = 2000;
      c.height = 1000;
      const g = c.getContext('2d')!;
      const grad = g.createLinearGradient(0, 0, 2000, 1000);
      grad.addColorStop(0, '#1d4ed8');
      grad.addColorStop(1, '#f59e0b');
      g.fillStyle = grad;
      g.fillRect(0, 0, 2000, 1000);
      return c.toDataURL('image/png').split(',')[1]!;
    });
    const dialog = page.getByRole('dialog');
    await fieldButton(page, 'Photo').click();
    await dialog
      .getByLabel(/Photo \(image, required\)/)
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from(photo, 'base64') });
    await dialog.getByText('photo.png is ready.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();

    const bytes = Buffer.alloc(2 * 1024 * 1024, 7);
    await fieldButton(page, 'Attachment').click();
    await dialog
      .getByLabel(/Attachment \(file, required\)/)
      .setInputFiles({ name: 'scan.bin', mimeType: 'application/octet-stream', buffer: bytes });
    await dialog.getByText('scan.bin is ready.').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await finishAndSign(page);
    await page.getByRole('heading', { name: 'Document signed' }).waitFor();

    const s = await signer(req.signerId);
    const image = String(fieldValue(s, 'Photo'));
    expect(image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(image.split(',')[1]!, 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1600, 800]);
    const file = fieldValue(s, 'Attachment') as { name: string; type: string; data: string };
    expect(file.name).toBe('scan.bin');
    expect(Buffer.from(file.data.split(',')[1]!, 'base64').equals(bytes)).toBe(true);
    await ctx.close();
  });

  it('declines with a reason', async () => {
    const req = await send(formTemplateId);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await open(ctx, req.url);
    await page.getByRole('button', { name: 'Decline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign' });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    const reason = dialog.getByLabel('Reason for declining (required)');
    expect(await reason.getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.locator('.form-error').textContent()).toBe('Enter a reason for declining.');
    await reason.fill('The start date is wrong.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { name: 'You declined to sign' }).waitFor();
    expect((await signer(req.signerId)).status).toBe('declined');
    const r = await t.api('GET', `signature_requests/${req.requestId}`, { key: owner.key });
    expect(r.body.status).toBe('declined');
    await ctx.close();
  });

  it('completes a text and checkbox form with the keyboard alone', async () => {
    const tpl = await makeTemplate(t, owner, {
      name: 'Keyboard',
      fields: [
        { name: 'Company', type: 'text', areas: area(1, 0.1, 0.2) },
        { name: 'Confirm', type: 'checkbox', areas: area(1, 0.1, 0.3, 0.03, 0.025) },
      ],
    });
    const req = await send(tpl.id);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await open(ctx, req.url);
    await page.getByRole('heading', { level: 1, name: 'Keyboard' }).waitFor();
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName : null;
      });
    // Header order: the language switcher (issue 32), Decline, Next field, Finish, then the fields
    // in reading order.
    const stops: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
    }
    expect(stops).toEqual([
      'Language',
      'Decline',
      'Next field',
      'Finish',
      'Company (text, required): empty',
      'Confirm, required',
    ]);
    // A visible focus ring on the field.
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).toBe('solid');

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    // Escape closes the dialog and gives focus back to the field.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await focused()).toBe('Company (text, required): empty');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Acme Ltd');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Company (text, required): Acme Ltd');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox', { name: 'Confirm, required' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await expect.poll(() => page.locator('#live').textContent()).toContain('Confirm checked');
    // Back to Finish (Next field hides once everything required is filled).
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Finish');
    await page.keyboard.press('Enter');
    // The review step opens with Sign focused, the consent sentence beside it.
    await page.getByRole('dialog', { name: 'Review and sign' }).waitFor();
    expect(await focused()).toBe('Sign');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Document signed' }).waitFor();
    const s = await signer(req.signerId);
    expect(s.status).toBe('signed');
    expect(fieldValue(s, 'Company')).toBe('Acme Ltd');
    expect(fieldValue(s, 'Confirm')).toBe(true);
    await ctx.close();
  });

  it('guides through required fields with Next field, typing the signature from the keyboard', async () => {
    const tpl = await makeTemplate(t, owner, {
      name: 'Guided',
      fields: [
        { name: 'Company', type: 'text', areas: area(1, 0.1, 0.2) },
        { name: 'Signature', type: 'signature', areas: area(2, 0.1, 0.8, 0.35, 0.07) },
      ],
      documents: [{ file: b64(await plainPdf(2)) }],
    });
    const req = await send(tpl.id);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await open(ctx, req.url);
    await page.getByRole('button', { name: 'Next field' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Company (text, required)').waitFor();
    await page.keyboard.type('Acme');
    expect(await dialog.getByRole('button', { name: 'Save and next' }).count()).toBe(1);
    await page.keyboard.press('Enter');
    // The signature editor opens next, on Type (opened from the keyboard) with the signer's name.
    const typed = dialog.getByLabel(/Type your full name/);
    await typed.waitFor();
    expect(await typed.inputValue()).toBe('Jane Doe');
    await page.waitForTimeout(600); // let the smooth scroll to the field settle
    await page.screenshot({ path: join(SHOTS, 'laptop-typed-signature.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    // Every required field is filled once the save answers (the signature is checked server-side).
    await expect.poll(() => page.getByRole('button', { name: 'Next field' }).isHidden()).toBe(true);
    await finishAndSign(page);
    await page.getByRole('heading', { name: 'Document signed' }).waitFor();
    expect(String(fieldValue(await signer(req.signerId), 'Signature'))).toMatch(/^data:image\/png;base64,/);
    await ctx.close();
  });

  it('asks for an emailed code first when require_email_otp is set', async () => {
    const tpl = await makeTemplate(t, owner, {
      name: 'Protected',
      fields: [{ name: 'Company', type: 'text', areas: area(1, 0.1, 0.2) }],
    });
    const req = await send(tpl.id, { email: 'otp-signer@example.com', require_email_otp: true });
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await open(ctx, req.url);
    await page.getByRole('heading', { name: 'Confirm your email address' }).waitFor();
    expect(await page.locator('main .page').count()).toBe(0);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const code = page.getByLabel('Code from the email');
    await code.waitFor();
    await page.screenshot({ path: join(SHOTS, 'laptop-code-gate.png') });
    // A wrong code is tied to the input.
    await code.fill('000000x');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => code.getAttribute('aria-invalid')).toBe('true');
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['text_body'])
      .where('to_address', '=', 'otp-signer@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const otp = /\b(\d{6})\b/.exec(mail.text_body)?.[1];
    expect(otp).toBeDefined();
    await code.fill(otp!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await fieldButton(page, 'Company').waitFor();
    // The session is an HTTP-only cookie: it survives a reload and no script can read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await page.reload();
    await fieldButton(page, 'Company').click();
    await page.getByRole('dialog').getByLabel('Company (text, required)').fill('Acme');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await finishAndSign(page);
    await page.getByRole('heading', { name: 'Document signed' }).waitFor();
    expect((await signer(req.signerId)).status).toBe('signed');
    await ctx.close();
  });

  it('shows a clear page for an invalid link, a canceled request and an archived template', async () => {
    const ctx = await browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await open(ctx, `${t.baseUrl}/s/${'x'.repeat(43)}`);
    await page.getByRole('heading', { name: 'This signing link is not valid' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'phone-invalid-link.png') });

    const canceled = await send(formTemplateId);
    expect(
      (await t.api('POST', `signature_requests/${canceled.requestId}/cancel`, { key: owner.key })).status,
    ).toBe(200);
    await page.goto(canceled.url);
    await page.getByRole('heading', { name: 'This request is closed' }).waitFor();

    const tpl = await makeTemplate(t, owner, { name: 'Soon archived' });
    const archived = await send(tpl.id);
    expect((await t.api('POST', `templates/${tpl.id}/archive`, { key: owner.key })).status).toBe(200);
    await page.goto(archived.url);
    await page.getByRole('heading', { name: 'This document is no longer available' }).waitFor();
    await ctx.close();
  });
});

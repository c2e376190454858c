import { t as tr } from '@esign/i18n';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled } from './browser.ts';
import { type DashboardFixture, openDashboard } from './editor-helpers.ts';

// Issue 34.2 and 34.3 in Chromium: the account's reminder default and the Send page's options in
// the dashboard, and the signing page's "Someone else signs" dialog at desktop and phone width.

const SHOTS = '/work/notes/shots/34-remind';

describe.runIf(browserTestsEnabled('reminders and delegation'))('issue 34.2, 34.3 in the browser', () => {
  let fixture: DashboardFixture;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let key: string;
  let templateId: number;

  beforeAll(async () => {
    fixture = await openDashboard({
      template: { name: 'Employment contract', role: 'Employee', text: { name: 'Address' } },
    });
    ({ t, browser, page, templateId } = fixture);
    key = fixture.owner.key;
  }, 240_000);
  afterAll(() => fixture?.close());

  async function sendWithDelegation(emailAddress: string, locale?: string): Promise<string> {
    const res = await t.api('POST', 'signature_requests', {
      key,
      body: {
        template_id: templateId,
        signers: [{ name: 'Sam Signer', email: emailAddress, ...(locale ? { locale } : {}) }],
        allow_delegation: true,
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.signers[0].signing_url;
  }

  it('issue 34.2: an admin sets the account default on the Account page; the Send page starts from it and sends reminders and allow_delegation', async () => {
    await page.goto(`${t.baseUrl}/account`);
    const card = page.getByRole('form', { name: 'Automatic reminders' });
    await card.getByLabel('Remind signers automatically').check();
    await card.getByLabel('Every').selectOption('120');
    await card.getByLabel('At most').selectOption('2');
    await card.getByRole('button', { name: 'Save reminder default' }).click();
    await page.getByText('Reminder default saved').first().waitFor();
    await card.screenshot({ path: `${SHOTS}/account-default.png` });

    await page.goto(`${t.baseUrl}/send?template=${templateId}`);
    const sendForm = page.getByRole('form', { name: 'Send for signature' });
    await sendForm.getByRole('textbox', { name: 'Email' }).fill('employee@example.com');
    const extras = sendForm.getByRole('group', { name: 'Reminders and handing on' });
    await expect.poll(() => extras.getByLabel('Remind signers automatically').isChecked()).toBe(true);
    expect(await extras.getByLabel('Every').inputValue()).toBe('120');
    await extras.getByLabel('Let signers hand their turn to someone else').check();
    await extras.screenshot({ path: `${SHOTS}/send-options.png` });
    await sendForm.getByRole('button', { name: 'Send for signature' }).click();
    await page.waitForURL(/\/requests\/\d+$/);
    const id = Number(page.url().split('/').pop());
    const row = await t.db
      .selectFrom('signature_requests')
      .select(['reminders', 'allow_delegation'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ reminders: { every_hours: 120, max: 2 }, allow_delegation: true });
  }, 120_000);

  it('issue 34 leftover (a): the request page shows the automatic reminders: the schedule, the next reminder time, and how many each signer got of max; issue 42: once the request ended, no next reminder and no "of max"', async () => {
    const res = await t.api('POST', 'signature_requests', {
      key,
      body: {
        template_id: templateId,
        signers: [{ name: 'Rita Reminded', email: 'rita@example.com' }],
        reminders: { every_hours: 72, max: 3 },
      },
    });
    expect(res.status, res.text).toBe(201);
    const job = await t.db
      .selectFrom('jobs')
      .select('run_at')
      .where('unique_key', '=', `auto_remind:${res.body.id}`)
      .executeTakeFirstOrThrow();
    await page.goto(`${t.baseUrl}/requests/${res.body.id}`);
    const section = page.getByRole('region', { name: 'Automatic reminders' });
    await section.getByText('Every 72 hours, at most 3 per signer').waitFor();
    const text = (await section.textContent()) ?? '';
    expect(text).not.toContain('None scheduled');
    expect(text).toContain(String(job.run_at.getFullYear()));
    expect(text).toMatch(/Rita Reminded\s*0 of 3 sent/);
    await section.screenshot({ path: `${SHOTS}/request-reminders.png` });

    // Issue 42: once the request ended (its queued run not yet gone), no "Next reminder" date and
    // no "0 of 3": the schedule is over and each signer's total is what is left.
    expect((await t.api('POST', `signature_requests/${res.body.id}/cancel`, { key })).status).toBe(200);
    await page.reload();
    await section.getByText('None: the request is no longer open').waitFor();
    const ended = (await section.textContent()) ?? '';
    expect(ended).not.toContain(String(job.run_at.getFullYear()));
    expect(ended).not.toMatch(/of 3 sent/);
    expect(ended).toMatch(/Rita Reminded\s*None sent/);
  });

  it("issue 34.3: the signing page dialog (desktop): labelled, checks its input, asks the new person's language (issue 32), hands the turn on; the old link then shows the invalid-link page", async () => {
    const url = await sendWithDelegation('sam@example.com');
    const signer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signer.goto(url);
    await signer.getByRole('button', { name: 'Someone else signs' }).click();
    const dialog = signer.getByRole('dialog', { name: 'Hand this to someone else' });
    await dialog.waitFor();
    await expect.poll(() => signer.evaluate(() => document.activeElement?.id)).toBe('delegate-name');
    await dialog.getByRole('button', { name: 'Hand it over' }).click();
    await dialog.getByText('Enter the name of the person who signs instead.').waitFor();
    expect(await dialog.getByLabel(/Their full name/).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel(/Their full name/).fill('Dana Deputy');
    await dialog.getByLabel('Their email address').fill('dana@example.com');
    await dialog.getByLabel(/Why should they sign/).fill('I moved to another department.');
    // Issue 32: the new person's language, the page's own to begin with.
    const language = dialog.getByLabel('The language they read (invitation and signing page)');
    expect(await language.inputValue()).toBe('en');
    await language.selectOption('pl');
    await signer.screenshot({ path: `${SHOTS}/signing-delegate-desktop.png` });
    await dialog.getByRole('button', { name: 'Hand it over' }).click();
    await signer.getByRole('heading', { name: 'Handed to someone else' }).waitFor();
    const dana = await t.db
      .selectFrom('signers')
      .select('locale')
      .where('email', '=', 'dana@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(dana.locale).toBe('pl');
    await signer.goto(url);
    await signer.getByRole('heading', { name: 'This signing link is not valid' }).waitFor();
    await signer.context().close();
  }, 120_000);

  it('issue 34.3: at 390 × 844 the dialog fits the screen and every control is reachable', async () => {
    const url = await sendWithDelegation('sam390@example.com');
    const phone = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    ).newPage();
    await phone.goto(url);
    await phone.getByRole('button', { name: 'Someone else signs' }).waitFor();
    await phone.screenshot({ path: `${SHOTS}/signing-bar-390.png` });
    await phone.getByRole('button', { name: 'Someone else signs' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Hand this to someone else' });
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await dialog.getByLabel(/Their full name/).fill('Dana Deputy');
    await dialog.getByLabel('Or their phone number').fill('+49 30 1234567');
    await dialog.getByLabel(/Why should they sign/).fill('On parental leave until May.');
    await phone.screenshot({ path: `${SHOTS}/signing-delegate-390.png` });
    await dialog.getByRole('button', { name: 'Hand it over' }).scrollIntoViewIfNeeded();
    await dialog.getByRole('button', { name: 'Hand it over' }).click();
    await phone.getByRole('heading', { name: 'Handed to someone else' }).waitFor();
    await phone.context().close();
  }, 120_000);

  it("issue 42.6: the server's refusals (own address, impossible number) show at their input, marked aria-invalid, in sight and in the signer's language", async () => {
    const url = await sendWithDelegation('sam-de@example.com', 'de');
    const phone = await (
      await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    ).newPage();
    await phone.goto(url);
    await phone.getByRole('button', { name: tr('de', 'delegate.button') }).click();
    const dialog = phone.getByRole('dialog', { name: tr('de', 'delegate.title') });
    await dialog.waitFor();
    await dialog.getByLabel(tr('de', 'delegate.name')).fill('Dana Deputy');
    await dialog.getByLabel(tr('de', 'delegate.reason')).fill('Urlaub');
    const email = dialog.getByLabel(tr('de', 'delegate.email'));
    const number = dialog.getByLabel(tr('de', 'delegate.phone'));
    const submit = dialog.getByRole('button', { name: tr('de', 'delegate.submit') });

    /** The refusal's line: right after the input, the one the input is described by, on screen. */
    async function expectAt(input: typeof email, key: 'error.delegation_self' | 'error.delegation_phone') {
      await dialog.getByText(tr('de', key)).waitFor();
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      const at = await input.evaluate((el) => {
        const next = el.nextElementSibling as HTMLElement | null;
        const described = (el.getAttribute('aria-describedby') ?? '').split(' ');
        const box = next?.getBoundingClientRect();
        return {
          text: next?.textContent,
          described: !!next && described.includes(next.id),
          inView: !!box && box.top >= 0 && box.bottom <= window.innerHeight,
        };
      });
      expect(at).toEqual({ text: tr('de', key), described: true, inView: true });
    }

    await email.fill('SAM-DE@example.com');
    await submit.click();
    await expectAt(email, 'error.delegation_self');
    await email.fill('');
    for (const impossible of ['12', '+1 555 12']) {
      // '12' is refused in the page, '+1 555 12' by the server (not a possible number): both at the input.
      await number.fill(impossible);
      await submit.click();
      await expectAt(number, 'error.delegation_phone');
    }
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    await phone.context().close();
  }, 120_000);
});

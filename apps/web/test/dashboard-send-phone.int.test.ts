import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled } from './browser.ts';
import { type DashboardFixture, openDashboard } from './editor-helpers.ts';

// Issue 42 item 5: the dashboard offers what the API offers for signers: the Send page takes a
// phone, a language and a delivery channel; "Edit or resend" fixes a wrong number and texts the
// link again to the right one; an SMS that did not arrive shows in the requests list.

describe.runIf(browserTestsEnabled('send to a phone'))(
  'issue 42 item 5: phone-only signers from the dashboard',
  () => {
    let d: DashboardFixture;

    beforeAll(async () => {
      d = await openDashboard({ template: { name: 'Lease', role: 'Tenant' } });
    }, 120_000);
    afterAll(() => d?.close());

    const smsTo = (signerId: number) =>
      d.t.db
        .selectFrom('sms_outbox')
        .select(['to_number', 'kind'])
        .where('signer_id', '=', signerId)
        .orderBy('id')
        .execute();

    it('the Send page sends to a phone only signer, in their language, by SMS; Edit or resend corrects the number and texts the link again', async () => {
      const { page, t } = d;
      await page.goto(`${t.baseUrl}/send?template=${d.templateId}`);
      const form = page.getByRole('form', { name: 'Send for signature' });
      const tenant = form.getByRole('group', { name: 'Tenant' });
      await tenant.getByLabel('Name', { exact: true }).fill('Tom Tenant');
      // Neither an email nor a phone: refused in words, nothing sent.
      await form.getByRole('button', { name: 'Send for signature' }).click();
      await tenant.getByText('Enter an email address or a mobile phone number.').waitFor();
      await tenant.getByLabel('Mobile phone').fill('+49 151 1234567');
      await tenant.getByLabel('Language').selectOption('de');
      await tenant.getByLabel('Send the link by').selectOption('sms');
      await form.getByRole('button', { name: 'Send for signature' }).click();
      await page.waitForURL(/\/requests\/\d+$/);
      const id = Number(page.url().split('/').pop());
      const sent = await t.api('GET', `signature_requests/${id}`, { key: d.owner.key });
      const signer = sent.body.signers[0];
      expect(signer).toMatchObject({ name: 'Tom Tenant', email: null, phone: '+491511234567', locale: 'de' });
      await expect.poll(() => smsTo(signer.id)).toEqual([{ to_number: '+491511234567', kind: 'invitation' }]);

      // The provider gave up on that number: the requests list shows it on the request's row.
      await t.db
        .updateTable('sms_outbox')
        .set({ status: 'undeliverable' })
        .where('signer_id', '=', signer.id)
        .execute();
      await page.goto(`${t.baseUrl}/requests`);
      const row = page.getByRole('list', { name: 'Signature requests' }).getByRole('listitem').first();
      await row.getByText('SMS not delivered').waitFor();
      await row.getByRole('link').first().click();
      await page.waitForURL(/\/requests\/\d+$/);

      // The number was wrong: fixed in the dialog, and the link goes again to the right one (a
      // resend waits 10 minutes after the last message: that time has passed).
      await t.db
        .updateTable('signers')
        .set({ last_emailed_at: new Date(Date.now() - 11 * 60_000) })
        .where('id', '=', signer.id)
        .execute();
      await page.getByRole('button', { name: 'Edit or resend' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Edit Tom Tenant' });
      expect(await dialog.getByLabel('Mobile phone').inputValue()).toBe('+491511234567');
      expect(await dialog.getByLabel('Language').inputValue()).toBe('de');
      await dialog.getByLabel('Mobile phone').fill('+49 151 7654321');
      await dialog.getByRole('button', { name: 'Save and resend the link' }).click();
      await page.getByText('Saved and the link was sent again').first().waitFor();
      const fixed = await t.api('GET', `signers/${signer.id}`, { key: d.owner.key });
      expect(fixed.body).toMatchObject({ phone: '+491517654321', locale: 'de' });
      await expect
        .poll(() => smsTo(signer.id))
        .toEqual([
          { to_number: '+491511234567', kind: 'invitation' },
          { to_number: '+491517654321', kind: 'resend' },
        ]);
      // The link went to the corrected number: the warning is gone from the list.
      await page.goto(`${t.baseUrl}/requests`);
      await page.getByRole('list', { name: 'Signature requests' }).getByRole('listitem').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByText('SMS not delivered').count()).toBe(0);
    }, 120_000);
  },
);

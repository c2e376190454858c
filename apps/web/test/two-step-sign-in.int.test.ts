import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createUser } from '@esign/core/operator';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 45 item 1 in Chromium: setting up an authenticator app on the account page, then signing in
// with the password and a code from the app, and with a recovery code. Screenshots go to a
// temporary folder (DASHBOARD_SCREENSHOTS=docs/screenshots refreshes docs/sign-in.md's).

const SHOTS = join(tmpdir(), 'esign-two-step');
const DOCS = process.env.DASHBOARD_SCREENSHOTS;
const PASSWORD = 'correct horse battery';

/**
 * RFC 6238 written out here, independently of the service's library: what an authenticator app
 * computes from the key it was shown (SHA-1, 6 digits, 30-second steps).
 */
function appCode(base32Key: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32Key.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe.runIf(browserTestsEnabled('two-step sign-in'))('two-step sign-in in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let n = 0;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    if (DOCS) mkdirSync(DOCS, { recursive: true });
    [t, browser] = await Promise.all([startTestApp(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function shot(target: Page | Locator, name: string) {
    await target.screenshot({ path: join(SHOTS, `${name}.png`) });
    if (DOCS) await target.screenshot({ path: join(DOCS, `${name}.png`) });
  }

  async function newPage() {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 860 } });
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    return { ctx, page, problems };
  }

  /** The password step on /login. */
  async function passwordStep(page: Page, email: string) {
    await page.goto(`${t.baseUrl}/login`);
    const form = page.getByRole('tabpanel', { name: 'Password' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
  }

  it('RFC 6238 test vector: the test’s own code generator is right (so it can judge the service)', () => {
    // RFC 6238 appendix B, SHA-1, T = 59 s: 94287082 (8 digits); its last 6 digits.
    const key = Buffer.from('12345678901234567890');
    let b32 = '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    const bits = [...key].map((b) => b.toString(2).padStart(8, '0')).join('');
    for (let i = 0; i < bits.length; i += 5)
      b32 += alphabet[Number.parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
    expect(appCode(b32, 59_000)).toBe('287082');
  });

  it('set up on the account page (QR code, key, first code, ten recovery codes), then sign in with password + app code, and with a recovery code', async () => {
    const email = `two-step-${++n}-${Date.now()}@example.com`;
    await t.db
      .transaction()
      .execute((tx) =>
        createAccount(
          tx,
          { email, password: PASSWORD, name: 'Tess Two-Step', accountName: 'Acme' },
          new Date(),
        ),
      );

    // Enrolment.
    const first = await newPage();
    await passwordStep(first.page, email);
    await first.page.getByRole('button', { name: /^Account menu/ }).waitFor();
    await first.page.goto(`${t.baseUrl}/account`);
    const section = first.page.getByRole('region', { name: 'Two-step sign-in' });
    await section.getByText('Off: signing in needs only').waitFor();
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = section.getByRole('img', { name: 'QR code to scan with an authenticator app' });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const key = (await section.locator('.totp-key').textContent())!.trim();
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await shot(section, 'desktop-two-step-setup');
    await section.getByLabel('Code from the app').fill(appCode(key));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await section.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = (await section.locator('.recovery-codes code').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await shot(section, 'desktop-two-step-recovery-codes');
    await section.getByRole('button', { name: 'I have stored them' }).click();
    await section.getByText('10 recovery codes left.', { exact: false }).waitFor();
    expect(first.problems).toEqual([]);
    await first.ctx.close();

    // Password, then the app's code (the next step's: this step's was spent on the set-up).
    const second = await newPage();
    await passwordStep(second.page, email);
    const step = second.page.getByRole('form', { name: 'Two-step sign-in' });
    await step.getByLabel('Code').waitFor();
    await shot(second.page, 'desktop-two-step-sign-in');
    await step.getByLabel('Code').fill('000000');
    await step.getByRole('button', { name: 'Verify and sign in' }).click();
    await step.getByText('The code is wrong or was already used').waitFor();
    await step.getByLabel('Code').fill(appCode(key, Date.now() + 30_000));
    await step.getByRole('button', { name: 'Verify and sign in' }).click();
    await second.page.getByRole('button', { name: /^Account menu/ }).waitFor();
    await second.page.goto(`${t.baseUrl}/account`);
    await second.page
      .getByRole('listitem')
      .filter({ hasText: 'this browser' })
      .getByText('with a password and an app code')
      .waitFor();
    expect(second.problems).toEqual([]);
    await second.ctx.close();

    // Password, then a recovery code.
    const third = await newPage();
    await passwordStep(third.page, email);
    const again = third.page.getByRole('form', { name: 'Two-step sign-in' });
    await again.getByLabel('Code').fill(codes[0]!);
    await again.getByRole('button', { name: 'Verify and sign in' }).click();
    await third.page.getByRole('button', { name: /^Account menu/ }).waitFor();
    await third.page.goto(`${t.baseUrl}/account`);
    await third.page
      .getByRole('listitem')
      .filter({ hasText: 'this browser' })
      .getByText('with a password and a recovery code')
      .waitFor();
    await third.page.getByText('9 recovery codes left.', { exact: false }).waitFor();
    expect(third.problems).toEqual([]);
    await third.ctx.close();
  });

  /** Sets the app up on the page in front of the user (the account page's section or the required page). */
  async function enrolOn(scope: Locator) {
    await scope.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = (await scope.locator('.totp-key').textContent())!.trim();
    await scope.getByLabel('Code from the app').fill(appCode(key));
    await scope.getByRole('button', { name: 'Turn on' }).click();
    await scope.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    return key;
  }

  it('issue 45 item 2: an admin requires two-step sign-in on the team page; a member without it is led through setting it up at the next sign-in before any page opens', async () => {
    const email = `rule-admin-${++n}-${Date.now()}@example.com`;
    const { account } = await t.db
      .transaction()
      .execute((tx) =>
        createAccount(tx, { email, password: PASSWORD, name: 'Ann Admin', accountName: 'Ruled' }, new Date()),
      );
    const memberEmail = `rule-member-${n}-${Date.now()}@example.com`;
    await createUser(t.db, {
      accountId: account.id,
      email: memberEmail,
      password: PASSWORD,
      role: 'member',
      name: 'Mo Member',
    });

    const admin = await newPage();
    await passwordStep(admin.page, email);
    await admin.page.getByRole('button', { name: /^Account menu/ }).waitFor();
    await admin.page.goto(`${t.baseUrl}/team`);
    const rule = admin.page.getByRole('region', { name: 'Two-step sign-in' });
    await rule.getByRole('button', { name: 'Require two-step sign-in for every member' }).click();
    // The admin's own password-only session is held to the rule too: the set-up page, nothing else.
    await admin.page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await enrolOn(admin.page.locator('main, body').first());
    await admin.page.getByRole('button', { name: 'I have stored them' }).click();
    await admin.page.getByRole('button', { name: /^Account menu/ }).waitFor();
    await admin.page.goto(`${t.baseUrl}/team`);
    await rule.getByText('Required: every member signs in with a code').waitFor();
    await shot(rule, 'desktop-two-step-rule');
    expect(admin.problems).toEqual([]);
    await admin.ctx.close();

    const member = await newPage();
    await passwordStep(member.page, memberEmail);
    await member.page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await shot(member.page, 'desktop-two-step-required');
    // Another page of the dashboard shows the same set-up page.
    await member.page.goto(`${t.baseUrl}/api-keys`);
    await member.page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await enrolOn(member.page.locator('body'));
    await member.page.getByRole('button', { name: 'I have stored them' }).click();
    await member.page.getByRole('button', { name: /^Account menu/ }).waitFor();
    expect(member.problems.filter((p) => !/403|Forbidden/i.test(p))).toEqual([]);
    await member.ctx.close();
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from '@esign/core/operator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 45 item 2 in Chromium, with the browser's virtual authenticator (CDP WebAuthn domain:
// ctap2, internal, resident keys, user verification): register passkeys on the account page, sign
// in with a passkey alone and as the second step; a cloned authenticator (stale signature
// counter), a replayed assertion and an assertion for another origin are refused by the server.
// PUBLIC_URL is http://localhost:PORT: WebAuthn takes no IP address as its relying party ID.

const SHOTS = '/tmp/signin2-shots';
const PASSWORD = 'correct horse battery';

interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  privateKey: string;
  userHandle: string;
  signCount: number;
}

describe.runIf(browserTestsEnabled('passkeys'))('passkeys in a real browser (virtual authenticator)', () => {
  let t: TestApp;
  let browser: Browser;
  let n = 0;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [t, browser] = await Promise.all([
      startTestApp({ PUBLIC_URL: 'http://localhost:{port}' }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page with its own virtual authenticator, holding `credentials` if given (the same device, or a clone). */
  async function newPage(credentials: VirtualCredential[] = []) {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    for (const c of credentials) {
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: c });
    }
    const stored = async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as VirtualCredential[];
    return { ctx, page, problems, cdp, authenticatorId, stored };
  }

  const user = async () => {
    const email = `passkey-${++n}-${Date.now()}@example.com`;
    await t.db
      .transaction()
      .execute((tx) =>
        createAccount(
          tx,
          { email, password: PASSWORD, name: 'Pat Passkey', accountName: 'Acme' },
          new Date(),
        ),
      );
    return email;
  };

  async function passwordStep(page: Page, email: string) {
    await page.goto(`${t.baseUrl}/login`);
    const form = page.getByRole('tabpanel', { name: 'Password' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
  }

  const signedIn = (page: Page) => page.getByRole('button', { name: /^Account menu/ }).waitFor();

  async function sessionMethod(page: Page, words: string) {
    await page.goto(`${t.baseUrl}/account`);
    await page.getByRole('listitem').filter({ hasText: 'this browser' }).getByText(words).waitFor();
  }

  async function addPasskey(page: Page, name: string) {
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByLabel('Name of the new passkey').fill(name);
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText(name, { exact: true }).waitFor();
    return section;
  }

  /** A user with a passkey registered on the account page; the authenticator's credential. */
  async function enrolled(): Promise<{ email: string; credential: VirtualCredential }> {
    const email = await user();
    const first = await newPage();
    await passwordStep(first.page, email);
    await signedIn(first.page);
    await first.page.goto(`${t.baseUrl}/account`);
    await addPasskey(first.page, 'Work laptop');
    const [credential] = await first.stored();
    expect(first.problems).toEqual([]);
    await first.ctx.close();
    return { email, credential: credential! };
  }

  it('registers several passkeys, names, renames and removes them on the account page (item 2)', async () => {
    const email = await user();
    const { page, ctx, problems, cdp, authenticatorId } = await newPage();
    await passwordStep(page, email);
    await signedIn(page);
    await page.goto(`${t.baseUrl}/account`);
    const section = await addPasskey(page, 'Work laptop');
    // A second device: another authenticator (the first would refuse, its credential is excluded).
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await addPasskey(page, 'Phone');
    await expect.poll(() => section.getByRole('listitem').count()).toBe(2);
    await section.screenshot({ path: join(SHOTS, 'desktop-passkeys.png') });
    await section.getByRole('button', { name: 'Rename Phone' }).click();
    await section.getByLabel('New name').fill('Old phone');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('Old phone', { exact: true }).waitFor();
    await section.getByRole('button', { name: 'Remove Old phone' }).click();
    await expect.poll(() => section.getByRole('listitem').count()).toBe(1);
    const audit = await t.db
      .selectFrom('audit_events')
      .select('type')
      .where('type', 'like', 'user.passkey_%')
      .where(
        'actor_id',
        '=',
        String(
          (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
            .id,
        ),
      )
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.type)).toEqual([
      'user.passkey_added',
      'user.passkey_added',
      'user.passkey_removed',
    ]);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('signs in with a passkey alone (a discoverable credential), and the session list says so (items 2 and 5)', async () => {
    const { credential } = await enrolled();
    expect(credential.isResidentCredential).toBe(true);
    const { page, ctx, problems } = await newPage([credential]);
    await page.goto(`${t.baseUrl}/login`);
    await page.screenshot({ path: join(SHOTS, 'passkeys-login.png') });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await signedIn(page);
    await sessionMethod(page, 'with a passkey');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('a passkey is the second step after the password (item 2)', async () => {
    const { email, credential } = await enrolled();
    const { page, ctx, problems } = await newPage([credential]);
    await passwordStep(page, email);
    const step = page.getByRole('form', { name: 'Two-step sign-in' });
    await step.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'passkeys-second-step.png') });
    await step.getByRole('button', { name: 'Use a passkey' }).click();
    await signedIn(page);
    await sessionMethod(page, 'with a password and a passkey');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('with the account rule on, a member without a second step sets up a passkey at sign-in, then uses it (item 3)', async () => {
    const email = await user();
    await t.db
      .updateTable('accounts')
      .set({ require_second_step: true })
      .where('id', '=', (eb) => eb.selectFrom('users').select('account_id').where('email', '=', email))
      .execute();
    const { page, ctx, problems, stored } = await newPage();
    await passwordStep(page, email);
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await page.getByLabel('Name of the new passkey').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await signedIn(page);
    await sessionMethod(page, 'with a password and a passkey');
    const [credential] = await stored();
    expect(problems).toEqual([]);
    await ctx.close();
    const next = await newPage([credential!]);
    await passwordStep(next.page, email);
    await next.page
      .getByRole('form', { name: 'Two-step sign-in' })
      .getByRole('button', { name: 'Use a passkey' })
      .click();
    await signedIn(next.page);
    await next.ctx.close();
  });

  it('a cloned authenticator (its signature counter behind the server’s) is refused', async () => {
    const { credential } = await enrolled();
    // The real device signs in: the server's counter moves on.
    const real = await newPage([credential]);
    await real.page.goto(`${t.baseUrl}/login`);
    await real.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await signedIn(real.page);
    const [used] = await real.stored();
    expect(used!.signCount).toBeGreaterThan(credential.signCount);
    await real.ctx.close();
    // A copy of the key taken before that use: its counter is stale.
    const clone = await newPage([credential]);
    await clone.page.goto(`${t.baseUrl}/login`);
    await clone.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await clone.page.getByText(/The passkey was refused.*counter/i).waitFor();
    expect(await clone.ctx.cookies()).toEqual([]);
    await clone.ctx.close();
  });

  it('a replayed assertion and an assertion whose client data names another origin are refused', async () => {
    const { credential } = await enrolled();
    const { page, ctx } = await newPage([credential]);
    let captured: { url: string; body: string; headers: Record<string, string> } | null = null;
    await page.route('**/trpc/passkeys.signIn**', async (route) => {
      const req = route.request();
      captured = { url: req.url(), body: req.postData() ?? '', headers: req.headers() };
      await route.abort();
    });
    await page.goto(`${t.baseUrl}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => captured !== null).toBe(true);
    await page.unroute('**/trpc/passkeys.signIn**');
    const { url, body, headers } = captured!;
    const clientData = /"clientDataJSON":"([A-Za-z0-9_-]+)"/.exec(body)![1]!;
    const data = JSON.parse(Buffer.from(clientData, 'base64url').toString()) as { origin: string };
    expect(data.origin).toBe(t.baseUrl);
    const phished = Buffer.from(JSON.stringify({ ...data, origin: 'https://esign.example.net' })).toString(
      'base64url',
    );
    const send = (payload: string) =>
      page.evaluate(
        async ({ url, payload, headers }) => {
          const res = await fetch(url, {
            method: 'POST',
            body: payload,
            headers: { 'content-type': headers['content-type'] ?? 'application/json' },
          });
          return { status: res.status, text: await res.text() };
        },
        { url, payload, headers },
      );
    // The assertion as a phishing site's page would have it made (client data of its origin).
    const wrongOrigin = await send(body.replace(clientData, phished));
    expect(wrongOrigin.text).toMatch(/origin/i);
    expect(wrongOrigin.status).toBeGreaterThanOrEqual(400);
    // The genuine assertion, sent again: its challenge was spent by the first try.
    const replay = await send(body);
    expect(replay.text).toContain('expired or was already used');
    expect(await ctx.cookies()).toEqual([]);
    await ctx.close();
  });
});

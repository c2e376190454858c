import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createAccount, createUser } from '@esign/core/operator';
import Provider from 'oidc-provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// Issue 45 item 4 in Chromium against a real OpenID Connect provider started here (oidc-provider,
// the library behind our own OAuth server, with its development login pages): an admin sets the
// provider up on the team page; people sign in by their email's domain; the first sign-in creates
// the user with a role mapped from a claim. Refused: a provider whose issuer is not the configured
// one, a replayed state, an ID token of another nonce, an expired code, a user of another domain.

const SHOTS = '/tmp/signin2-shots';
const PASSWORD = 'correct horse battery';
const CLIENT_SECRET = 'client-secret-of-esign-at-the-idp-0123456789';

describe.runIf(browserTestsEnabled('single sign-on'))(
  'single sign-on with OpenID Connect in a real browser',
  () => {
    let t: TestApp;
    let browser: Browser;
    let idp: Server;
    let issuer: string;
    let codeTtlSeconds = 60;
    let holdTokenMs = 0;
    let adminEmail: string;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      // The provider's HTTP is plain and on loopback: allowed only through the test-only loosening.
      [t, browser] = await Promise.all([
        startTestApp({}, { outbound: { allowPrivate: true } }),
        launchChromium(),
      ]);
      idp = createServer();
      await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
      issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: 'esign',
            client_secret: CLIENT_SECRET,
            redirect_uris: [`${t.baseUrl}/sso/callback`],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        // The login is the email; people of the esign-admins group are mapped to admins.
        findAccount: (_ctx, sub) => ({
          accountId: sub,
          claims: () => ({
            sub,
            email: sub,
            email_verified: true,
            name: `Person ${sub.split('@')[0]}`,
            groups: sub.startsWith('boss') ? ['esign-admins'] : ['staff'],
          }),
        }),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        features: { devInteractions: { enabled: true } },
        // The code's lifetime, read at each issue (a property name, not a component).
        ttl: { ['AuthorizationCode' as string]: () => codeTtlSeconds },
      });
      const handle = provider.callback();
      // The expired-code test holds the token request until the code is past its lifetime.
      idp.on('request', (req, res) => {
        if (holdTokenMs && req.url?.startsWith('/token'))
          setTimeout(() => void handle(req, res), holdTokenMs);
        else void handle(req, res);
      });
      adminEmail = `admin-${Date.now()}@acme.test`;
      await t.db
        .transaction()
        .execute((tx) =>
          createAccount(
            tx,
            { email: adminEmail, password: PASSWORD, name: 'Ada Admin', accountName: 'Acme' },
            new Date(),
          ),
        );
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => idp?.close(resolve));
      await t?.close();
    });

    async function newPage() {
      const ctx = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
      const page = await ctx.newPage();
      return { ctx, page };
    }

    async function passwordSignIn(page: Page, email: string) {
      await page.goto(`${t.baseUrl}/login`);
      const form = page.getByRole('tabpanel', { name: 'Password' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Sign in' }).click();
    }

    const signedIn = (page: Page) => page.getByRole('button', { name: /^Account menu/ }).waitFor();

    /** Sign-in page → work email → the provider's login (as `login`) and consent → back here. */
    async function ssoSignIn(
      page: Page,
      workEmail: string,
      login = workEmail,
      atProvider?: () => Promise<unknown>,
      start = '/login',
    ) {
      await page.goto(`${t.baseUrl}${start}`);
      await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
      await page.getByLabel('Work email').fill(workEmail);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${issuer}/**`).catch(async (e: unknown) => {
        await page.screenshot({ path: join(SHOTS, 'sso-debug.png') });
        throw new Error(`not at the provider but at ${page.url()}: ${String(e)}`);
      });
      await atProvider?.();
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill('anything');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      const consent = page.getByRole('button', { name: 'Continue' });
      await consent.waitFor();
      await consent.click();
    }

    const ssoError = (page: Page) =>
      page
        .waitForURL(/\/login\?sso_error=/)
        .catch(async (e: unknown) => {
          throw new Error(
            `not back at /login?sso_error= but at ${page.url()}: ${(await page.content()).slice(0, 500)} ${String(e)}`,
          );
        })
        .then(() => new URL(page.url()).searchParams.get('sso_error'));

    async function configure(page: Page, values: { issuer: string; required?: boolean }) {
      await page.goto(`${t.baseUrl}/team`);
      const form = page.getByRole('form', { name: 'Single sign-on (OpenID Connect)' });
      await form.getByLabel('Issuer URL').fill(values.issuer);
      await form.getByLabel('Client ID').fill('esign');
      await form.getByLabel('Client secret').fill(CLIENT_SECRET);
      await form.getByLabel('Email domains').fill('acme.test');
      await form.getByLabel('Role of new users').selectOption('viewer');
      await form.getByLabel('Role claim (optional)').fill('groups');
      await form.getByLabel('Claim value → role (optional)').fill('esign-admins=admin');
      await form.getByLabel('Break-glass admin (email)').fill(adminEmail);
      if (values.required) await form.getByLabel(/Require single sign-on/).check();
      await form.getByRole('button', { name: 'Save single sign-on' }).click();
      return form;
    }

    it('an admin sets the provider up on the team page; a wrong issuer is refused there (discovery document of another issuer)', async () => {
      const { page, ctx } = await newPage();
      await passwordSignIn(page, adminEmail);
      await signedIn(page);
      // The same provider reached by another name: its discovery document names another issuer.
      const form = await configure(page, { issuer: issuer.replace('127.0.0.1', 'localhost') });
      await form.getByText(/issuer: the provider's discovery document could not be used/).waitFor();
      const saved = await configure(page, { issuer });
      await page.getByText('Single sign-on saved', { exact: true }).waitFor();
      await saved.screenshot({ path: join(SHOTS, 'desktop-sso-team.png') });
      const row = await t.db.selectFrom('account_sso').selectAll().executeTakeFirstOrThrow();
      // The client secret is sealed at rest.
      expect(row.client_secret_sealed).toMatch(/^enc:v1:/);
      expect(row.client_secret_sealed).not.toContain(CLIENT_SECRET);
      await ctx.close();
    });

    it('signs in by email domain; the first sign-in creates the user with the role mapped from a claim, or the default role; the session says "single sign-on"', async () => {
      const { page, ctx } = await newPage();
      const boss = `boss-${Date.now()}@acme.test`;
      await ssoSignIn(page, boss);
      await signedIn(page);
      await page.goto(`${t.baseUrl}/account`);
      await page
        .getByRole('listitem')
        .filter({ hasText: 'this browser' })
        .getByText('with single sign-on')
        .waitFor();
      const created = await t.db
        .selectFrom('users')
        .select(['role', 'name', 'password_hash'])
        .where('email', '=', boss)
        .executeTakeFirstOrThrow();
      expect(created).toEqual({ role: 'admin', name: `Person ${boss.split('@')[0]}`, password_hash: null });
      await ctx.close();

      const second = await newPage();
      const staff = `staff-${Date.now()}@acme.test`;
      // From a sign-in page asked for by another page (?next=): back there once signed in.
      await ssoSignIn(second.page, staff, staff, undefined, '/login?next=%2Ftemplates');
      await signedIn(second.page);
      await second.page.waitForURL(`${t.baseUrl}/templates`);
      const member = await t.db
        .selectFrom('users')
        .select('role')
        .where('email', '=', staff)
        .executeTakeFirstOrThrow();
      expect(member.role).toBe('viewer');
      await second.ctx.close();
    });

    it('a replayed state is refused (the answer is used once)', async () => {
      const { page, ctx } = await newPage();
      let callback = '';
      page.on('request', (r) => {
        if (r.url().startsWith(`${t.baseUrl}/sso/callback`)) callback = r.url();
      });
      await ssoSignIn(page, `replay-${Date.now()}@acme.test`);
      await signedIn(page);
      const state = new URL(callback).searchParams.get('state')!;
      // Even with the state cookie put back, the same answer opens nothing a second time.
      await ctx.clearCookies();
      await ctx.addCookies([{ name: 'esign_sso_state', value: state, url: `${t.baseUrl}/sso/callback` }]);
      await page.goto(callback);
      expect(await ssoError(page)).toBe('expired');
      await page.getByText('This single sign-on attempt expired or was already used').waitFor();
      expect((await ctx.cookies()).map((c) => c.name)).not.toContain('esign_session');
      await ctx.close();
    });

    it('an ID token for another nonce is refused', async () => {
      const { page, ctx } = await newPage();
      // While the person is at the provider, the sign-in's nonce here becomes another one: the ID
      // token the provider then makes carries the nonce it was sent, which no longer matches.
      await ssoSignIn(page, `nonce-${Date.now()}@acme.test`, undefined, () =>
        t.db
          .updateTable('sso_logins')
          .set({ nonce: 'a-nonce-of-another-sign-in' })
          .where('id', '=', (eb) => eb.selectFrom('sso_logins').select((e) => e.fn.max('id').as('m')))
          .execute(),
      );
      expect(await ssoError(page)).toBe('provider');
      await ctx.close();
    });

    it('an expired authorization code is refused', async () => {
      codeTtlSeconds = 1;
      holdTokenMs = 2500;
      const { page, ctx } = await newPage();
      try {
        await ssoSignIn(page, `late-${Date.now()}@acme.test`);
        expect(await ssoError(page)).toBe('provider');
      } finally {
        codeTtlSeconds = 60;
        holdTokenMs = 0;
      }
      await ctx.close();
    });

    it('a user of another domain is refused, and no user is created', async () => {
      const { page, ctx } = await newPage();
      const mallory = `mallory-${Date.now()}@evil.test`;
      await ssoSignIn(page, `someone-${Date.now()}@acme.test`, mallory);
      expect(await ssoError(page)).toBe('other_domain');
      await page.screenshot({ path: join(SHOTS, 'sso-other-domain.png') });
      expect(
        await t.db.selectFrom('users').select('id').where('email', '=', mallory).executeTakeFirst(),
      ).toBeUndefined();
      // A domain no account signs in with never reaches a provider.
      await page.goto(`${t.baseUrl}/sso/start?email=${encodeURIComponent(mallory)}`);
      expect(await ssoError(page)).toBe('unknown_domain');
      await ctx.close();
    });

    it('a provider whose issuer changed since it was set up is refused at sign-in', async () => {
      await t.db
        .updateTable('account_sso')
        .set({ issuer: issuer.replace('127.0.0.1', 'localhost') })
        .execute();
      const { page, ctx } = await newPage();
      try {
        await page.goto(`${t.baseUrl}/sso/start?email=${encodeURIComponent(`x-${Date.now()}@acme.test`)}`);
        expect(await ssoError(page)).toBe('provider');
      } finally {
        await t.db.updateTable('account_sso').set({ issuer }).execute();
      }
      await ctx.close();
    });

    it('with single sign-on required, a member’s password is refused but the break-glass admin’s works', async () => {
      const { page, ctx } = await newPage();
      await passwordSignIn(page, adminEmail);
      await signedIn(page);
      await configure(page, { issuer, required: true });
      await page.getByText('Single sign-on saved', { exact: true }).waitFor();
      await ctx.close();
      const account = await t.db
        .selectFrom('users')
        .select('account_id')
        .where('email', '=', adminEmail)
        .executeTakeFirstOrThrow();
      const memberEmail = `member-${Date.now()}@acme.test`;
      await createUser(t.db, { accountId: account.account_id, email: memberEmail, password: PASSWORD });
      const member = await newPage();
      await passwordSignIn(member.page, memberEmail);
      await member.page.getByText('Your account signs in with single sign-on').waitFor();
      await member.ctx.close();
      const admin = await newPage();
      await passwordSignIn(admin.page, adminEmail);
      await signedIn(admin.page);
      await admin.ctx.close();
    });
  },
);

import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createUser, issueApiKey } from '@esign/core/operator';
import { makeBuyer, makeDiscount, makePack } from '@esign/testing/billing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// purchase_url (/billing, the dashboard's Billing page) and checkout_url (/checkout/{id}, the
// simulated provider's page), clicked through in Chromium, and their CSRF defences over plain HTTP.
// DASHBOARD_SCREENSHOTS=docs/screenshots also refreshes the README's Billing pictures.

// Each poll waits on a server round trip (and a page refetch): generous under a loaded machine.
const ROUND_TRIP = { timeout: 15_000 };
const SHOTS = join(tmpdir(), 'esign-dashboard');
const DOCS = process.env.DASHBOARD_SCREENSHOTS;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = 'correct horse battery';
let t: TestApp;
let browser: Browser | undefined;
const useBrowser = browserTestsEnabled('billing pages');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  if (DOCS) mkdirSync(DOCS, { recursive: true });
  t = await startTestApp();
  if (useBrowser) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

let n = 0;
/** A person with a password and a live key, as `esign account create --password` makes them. */
async function person(opts: { billingCountry?: string; lifetime?: boolean } = {}) {
  n += 1;
  const email = `person${n}-${Date.now()}@example.com`;
  const { account, user } = await t.db.transaction().execute((tx) =>
    createAccount(
      tx,
      {
        email,
        password: PASSWORD,
        billingCountry: opts.billingCountry,
        credits: 1,
        lifetime: opts.lifetime,
      },
      new Date(),
    ),
  );
  const key = await issueApiKey(t.db, { userId: user.id, environment: 'live', permission: 'full' });
  return { email, accountId: account.id, userId: user.id, key: key.key };
}

/** The dashboard's sign-in form (a signed-out visitor of /billing is sent there first). */
async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  const form = page.getByRole('tabpanel', { name: 'Password' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account menu/ }).waitFor();
}

async function newPage(viewport = DESKTOP) {
  const context = await browser!.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) problems.push(m.text());
  });
  return { context, page, problems };
}

async function shot(page: Page, name: string, fullPage = false) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
  if (DOCS) await page.screenshot({ path: join(DOCS, `${name}.png`), fullPage });
}

const available = async (key: string) => (await t.api('GET', 'credits', { key })).body.available;
const checkoutsOf = (userId: number) =>
  t.db.selectFrom('checkouts').select(['id', 'status']).where('user_id', '=', userId).execute();

describe.runIf(useBrowser)('the dashboard Billing page in Chromium', () => {
  it('a lifetime owner is offered no credit packs, and the page states the spec rule for when a credit is used (issue 33 items 5 and 8)', async () => {
    const me = await person({ billingCountry: 'DE', lifetime: true });
    await makePack(t.db, { credits: 5, price: 500, name: `Starter ${n}` });
    const { context, page, problems } = await newPage();
    await page.goto(`${t.baseUrl}/billing`);
    await signIn(page, me.email);
    await page.getByText('Your account is on the lifetime plan').waitFor(ROUND_TRIP);
    expect(await page.getByRole('button', { name: /^Buy / }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Buy credits' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain(
      'a template uses a credit the first time it is signed',
    );
    await shot(page, 'billing-lifetime');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a viewer is not shown Bulk send or Embedding in the menu; an editor is (issue 33 item 5)', async () => {
    const me = await person();
    const viewer = await createUser(t.db, {
      accountId: me.accountId,
      email: `viewer-${n}-${Date.now()}@example.com`,
      password: PASSWORD,
      role: 'viewer',
    });
    const { context, page } = await newPage();
    await page.goto(`${t.baseUrl}/billing`);
    await signIn(page, viewer.email);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Requests' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Bulk send' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Embedding' }).count()).toBe(0);
    await context.close();
    const owner = await newPage();
    await owner.page.goto(`${t.baseUrl}/billing`);
    await signIn(owner.page, me.email);
    const ownerNav = owner.page.getByRole('navigation', { name: 'Main' });
    await ownerNav.getByRole('link', { name: 'Bulk send' }).waitFor();
    expect(await ownerNav.getByRole('link', { name: 'Embedding' }).count()).toBe(1);
    await owner.context.close();
  });

  it('Billing page: purchase_url signs in through /login, sets a billing country, buys a pack with a code, pays on the checkout page and comes back to the new balance; money as people read it ($0.39 per credit, issue 42)', async () => {
    const me = await person();
    const cheap = await makePack(t.db, { credits: 5, price: 500, name: 'Starter' });
    const dear = await makePack(t.db, {
      credits: 50,
      price: 4000,
      name: 'Team',
      description: 'For busy teams',
    });
    const lifetime = await makePack(t.db, { lifetime: true, price: 29900, name: 'Lifetime' });
    // Issue 42: $20 for 51 credits is 0.392… a credit, shown to the cent.
    const odd = await makePack(t.db, { credits: 51, price: 2000, name: 'Odd' });
    const code = await makeDiscount(t.db, { code: 'LAUNCH25', percentOff: 25, creditPackId: dear.id });
    const credits = await t.api('GET', 'credits', { key: me.key });
    expect(credits.body.purchase_url).toBe(`${t.baseUrl}/billing`);
    const { context, page, problems } = await newPage();
    await page.goto(credits.body.purchase_url);
    await page.waitForURL(/\/login\?next=%2Fbilling$/);
    await signIn(page, me.email);
    await page.waitForURL(`${t.baseUrl}/billing`);
    await page.getByRole('heading', { name: 'Buy credits' }).waitFor();
    await page.getByRole('heading', { name: 'Balance' }).waitFor();
    await expect.poll(() => page.textContent('main'), ROUND_TRIP).toContain('1 credit');

    // Packs cheapest first; the lifetime deal is marked.
    const packs = page.getByRole('list', { name: 'Credit packs' });
    const text = (await packs.textContent())!;
    expect(text.indexOf(cheap.name)).toBeLessThan(text.indexOf(dear.name));
    expect(text.indexOf(dear.name)).toBeLessThan(text.indexOf(lifetime.name));
    expect(await packs.getByRole('listitem').filter({ hasText: lifetime.name }).textContent()).toContain(
      'Lifetime deal',
    );
    // Issue 42: money in the reader's format, a unit price to the cent.
    const oddRow = (await packs.getByRole('listitem').filter({ hasText: odd.name }).textContent())!;
    expect(oddRow).toContain('51 credits · $0.39 per credit');
    expect(oddRow).toContain('$20.00');
    expect(oddRow).not.toContain('0.392');

    // Without a billing country the purchase is refused in words, and nothing is started.
    await page.getByRole('button', { name: `Buy ${dear.name} for $40.00` }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), ROUND_TRIP)
      .toBe('Add your billing country before buying credits.');
    expect(await checkoutsOf(me.userId)).toEqual([]);
    await page.getByRole('textbox', { name: 'Billing country' }).fill('us');
    await page.getByRole('button', { name: 'Save country' }).click();
    await expect.poll(() => page.textContent('main'), ROUND_TRIP).toContain('Billing country: US');

    await page.getByLabel('Discount code (optional)').fill(code.code);
    await page.getByRole('button', { name: `Buy ${dear.name} for $40.00` }).click();
    await page.waitForURL(/\/checkout\/[0-9a-f-]{36}\?token=/);
    const order = (await page.getByRole('region', { name: 'Order' }).textContent())!;
    expect(order).toContain(dear.name);
    expect(order).toContain(code.code);
    expect(order).toContain('$40.00');
    expect(order).toContain('50 credits ($0.60 each)');
    expect(await page.getByTestId('amount').textContent()).toBe('$30.00');
    expect(await page.getByTestId('status').textContent()).toBe('pending');

    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), ROUND_TRIP).toBe('completed');
    expect(await page.getByRole('status').first().textContent()).toContain('50 credits were added');
    expect(await available(me.key)).toBe(51);

    await page.getByRole('link', { name: 'Back to Billing' }).click();
    await page.waitForURL(`${t.baseUrl}/billing`);
    await expect.poll(() => page.locator('.big-number').textContent(), ROUND_TRIP).toBe('51 credits');
    const row = page.getByRole('row').filter({ hasText: dear.name });
    await row.waitFor();
    expect(await row.textContent()).toContain('$30.00');
    expect(await row.textContent()).toContain(code.code);
    expect(await row.getByText('Paid').count()).toBe(1);
    await page.mouse.move(0, 0);
    await shot(page, 'billing-desktop', true);
    await page.setViewportSize(PHONE);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    // The phone picture shows the packs and the recent checkouts (the balance is above).
    await page.evaluate(() => {
      const top = document.getElementById('packs')!.getBoundingClientRect().top;
      window.scrollBy(0, top - 72); // below the sticky top bar
    });
    await shot(page, 'billing-phone');
    // At phone width nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Billing page: a bad discount code is explained in words; no checkout is left behind', async () => {
    const me = await person({ billingCountry: 'FR' });
    const pack = await makePack(t.db, { credits: 7, price: 700, name: `Seven ${n}` });
    const { context, page } = await newPage();
    await page.goto(`${t.baseUrl}/billing`);
    await signIn(page, me.email);
    await page.getByLabel('Discount code (optional)').fill('NOSUCHCODE');
    await page.getByRole('button', { name: `Buy ${pack.name} for $7.00` }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent(), ROUND_TRIP)
      .toContain('That discount code cannot be used');
    expect(await checkoutsOf(me.userId)).toEqual([]);
    expect(page.url()).toBe(`${t.baseUrl}/billing`);
    await context.close();
  });

  it('Billing page: a member sees the balance and that admins manage billing, and no Buy buttons', async () => {
    const owner = await person({ billingCountry: 'US' });
    await makePack(t.db, { name: `Member view ${n}` });
    const email = `member${n}-${Date.now()}@example.com`;
    await createUser(t.db, { accountId: owner.accountId, email, password: PASSWORD, role: 'member' });
    const { context, page } = await newPage(PHONE);
    await page.goto(`${t.baseUrl}/billing`);
    await signIn(page, email);
    await page.getByRole('note').waitFor();
    expect(await page.getByRole('note').textContent()).toContain('Admins of your account manage billing');
    expect(await page.locator('.big-number').textContent()).toBe('1 credit');
    expect(await page.getByRole('button', { name: /^Buy / }).count()).toBe(0);
    await context.close();
  });

  it('Checkout page: an API client sends the user to checkout_url; Cancel marks the checkout failed and links back to /billing', async () => {
    const buyer = await makeBuyer(t.db, { credits: 2 });
    const pack = await makePack(t.db, { credits: 9, price: 900 });
    const started = await t.api('POST', 'checkouts', { key: buyer.key, body: { credit_pack_id: pack.id } });
    const page = await browser!.newPage();
    await page.goto(started.body.checkout_url);
    expect(await page.getByTestId('amount').textContent()).toBe('$9.00');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), ROUND_TRIP).toBe('failed');
    expect(await page.getByRole('link', { name: 'Back to Billing' }).getAttribute('href')).toBe('/billing');
    const polled = await t.api('GET', `checkouts/${started.body.id}`, { key: buyer.key });
    expect(polled.body).toMatchObject({ status: 'failed', checkout_url: null });
    expect((await t.api('GET', 'credits', { key: buyer.key })).body.available).toBe(2);
    await page.close();
  });
});

describe('billing pages: CSRF and access', () => {
  async function pending() {
    const buyer = await makeBuyer(t.db);
    const started = await t.api('POST', 'checkouts', {
      key: buyer.key,
      body: { credit_pack_id: (await makePack(t.db)).id },
    });
    const url = new URL(started.body.checkout_url);
    return {
      buyer,
      id: started.body.id as string,
      token: url.searchParams.get('token')!,
      path: url.pathname,
    };
  }
  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });
  const statusOf = async (id: string) =>
    (await t.db.selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow())
      .status;

  it('Checkout page: without the per-checkout token the page and its Pay button are 404; nothing changes', async () => {
    const c = await pending();
    expect((await fetch(`${t.baseUrl}${c.path}`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}${c.path}?token=${'A'.repeat(32)}`)).status).toBe(404);
    expect((await post(c.path, { action: 'pay' })).status).toBe(404);
    expect((await post(c.path, { action: 'pay', token: 'x'.repeat(32) })).status).toBe(404);
    expect(await statusOf(c.id)).toBe('pending');
  });

  it('Checkout page: a Pay post from another origin is refused (403); the page forbids framing', async () => {
    const c = await pending();
    const res = await post(c.path, { action: 'pay', token: c.token }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(await statusOf(c.id)).toBe('pending');
    const page = await fetch(`${t.baseUrl}${c.path}?token=${c.token}`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const ok = await post(c.path, { action: 'pay', token: c.token }, { origin: t.baseUrl });
    expect(ok.status).toBe(303);
    expect(await statusOf(c.id)).toBe('completed');
  });

  it('Billing page: /billing is the dashboard; the old server-rendered sign-in and buy forms are gone', async () => {
    const page = await fetch(`${t.baseUrl}/billing`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('id="root"');
    for (const path of ['/billing/sign-in', '/billing/buy', '/billing/country', '/billing/sign-out']) {
      expect((await post(path, { email: 'a@example.com' })).status).toBe(404);
    }
  });

  it('Billing page: buying over /trpc without the session CSRF token is refused (403), nothing started', async () => {
    const me = await person({ billingCountry: 'US' });
    const trpc = (path: string, init: { cookie?: string; csrf?: string; body?: unknown; get?: boolean }) =>
      fetch(`${t.baseUrl}/trpc/${path}`, {
        method: init.get ? 'GET' : 'POST',
        headers: {
          origin: t.baseUrl,
          ...(init.get ? {} : { 'content-type': 'application/json' }),
          ...(init.cookie ? { cookie: init.cookie } : {}),
          ...(init.csrf ? { 'x-csrf-token': init.csrf } : {}),
        },
        body: init.get ? undefined : JSON.stringify(init.body ?? {}),
      });
    const signin = await trpc('auth.signIn', { body: { email: me.email, password: PASSWORD } });
    expect(signin.status).toBe(200);
    const cookie = signin.headers.get('set-cookie')!.split(';')[0]!;
    const pack = await makePack(t.db);
    const forged = await trpc('billing.createCheckout', { cookie, body: { credit_pack_id: pack.id } });
    expect(forged.status).toBe(403);
    expect(await checkoutsOf(me.userId)).toEqual([]);
    const session = (await (await trpc('auth.session', { cookie, get: true })).json()) as {
      result: { data: { session: { csrf_token: string } } };
    };
    const csrf = session.result.data.session.csrf_token;
    const real = await trpc('billing.createCheckout', { cookie, csrf, body: { credit_pack_id: pack.id } });
    expect(real.status).toBe(200);
    const started = (await real.json()) as { result: { data: { checkout_url: string } } };
    expect(started.result.data.checkout_url).toMatch(/\/checkout\/[0-9a-f-]{36}\?token=/);
  });

  it('Stripe webhook address answers 404 when the provider is simulated', async () => {
    const res = await fetch(`${t.baseUrl}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });
});

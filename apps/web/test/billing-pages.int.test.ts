import { createAccount, issueApiKey } from '@esign/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBuyer, makeDiscount, makePack } from '../../../test/billing.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { browserTestsEnabled, launchChromium } from './browser.ts';

// purchase_url (/billing) and checkout_url (/checkout/{id}, the simulated provider's page), clicked
// through in Chromium, and their CSRF defences over plain HTTP.
let t: TestApp;
let browser: Browser | undefined;
const useBrowser = browserTestsEnabled('billing pages');

beforeAll(async () => {
  t = await startTestApp();
  if (useBrowser) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

let n = 0;
async function person(opts: { billingCountry?: string } = {}) {
  n += 1;
  const email = `person${n}-${Date.now()}@example.com`;
  const { account, user } = await createAccount(
    t.db,
    { email, password: 'correct horse battery', billingCountry: opts.billingCountry, credits: 1 },
    new Date(),
  );
  const key = await issueApiKey(t.db, { userId: user.id, environment: 'live', permission: 'full' });
  return { email, accountId: account.id, key: key.key };
}

async function signIn(page: Page, email: string, password = 'correct horse battery') {
  await page.goto(`${t.baseUrl}/billing`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const available = async (key: string) => (await t.api('GET', 'credits', { key })).body.available;

describe.runIf(useBrowser)('billing pages in Chromium', () => {
  it('Billing page: a person signs in at purchase_url, adds a billing country, buys a pack with a code and pays on the checkout page', async () => {
    const me = await person();
    const cheap = await makePack(t.db, { credits: 5, price: 500, name: `Five ${n}` });
    const dear = await makePack(t.db, { credits: 50, price: 4000, name: `Fifty ${n}` });
    const code = await makeDiscount(t.db, { percentOff: 25, creditPackId: dear.id });
    const credits = await t.api('GET', 'credits', { key: me.key });
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(credits.body.purchase_url);
    await signIn(page, me.email);
    await expect.poll(() => page.textContent('body')).toContain(`Signed in as ${me.email}`);

    await page.getByRole('button', { name: `Buy ${dear.name}` }).click();
    expect(await page.getByRole('alert').textContent()).toContain('billing country');
    await page.getByLabel(/Billing country/).fill('us');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(await page.textContent('body')).toContain('Billing country: US');

    const body = (await page.textContent('body'))!;
    expect(body.indexOf(cheap.name)).toBeLessThan(body.indexOf(dear.name));
    await page.getByLabel(`Discount code for ${dear.name}`).fill(code.code);
    await page.getByRole('button', { name: `Buy ${dear.name}` }).click();
    await page.waitForURL(/\/checkout\/[0-9a-f-]{36}\?token=/);
    const order = (await page.getByRole('region', { name: 'Order' }).textContent())!;
    expect(order).toContain(dear.name);
    expect(order).toContain(code.code);
    expect(order).toContain('40.00 USD');
    expect(await page.getByTestId('amount').textContent()).toBe('30.00 USD');
    expect(await page.getByTestId('status').textContent()).toBe('pending');

    await page.getByRole('button', { name: 'Pay 30.00 USD' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('completed');
    expect(await page.getByRole('status').first().textContent()).toContain('50 credits were added');
    expect(await available(me.key)).toBe(51);

    await page.goto(`${t.baseUrl}/billing`);
    expect(await page.textContent('body')).toContain('51 credits');
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
    await context.close();
  });

  it('Checkout page: an API client sends the user to checkout_url; Cancel marks the checkout failed', async () => {
    const buyer = await makeBuyer(t.db, { credits: 2 });
    const pack = await makePack(t.db, { credits: 9, price: 900 });
    const started = await t.api('POST', 'checkouts', { key: buyer.key, body: { credit_pack_id: pack.id } });
    const page = await browser!.newPage();
    await page.goto(started.body.checkout_url);
    expect(await page.getByTestId('amount').textContent()).toBe('9.00 USD');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('failed');
    const polled = await t.api('GET', `checkouts/${started.body.id}`, { key: buyer.key });
    expect(polled.body).toMatchObject({ status: 'failed', checkout_url: null });
    expect((await t.api('GET', 'credits', { key: buyer.key })).body.available).toBe(2);
    await page.close();
  });

  it('Billing page: a wrong password is refused with a message, no session', async () => {
    const me = await person({ billingCountry: 'FR' });
    const context = await browser!.newContext();
    const page = await context.newPage();
    await signIn(page, me.email, 'wrong password');
    expect(await page.getByRole('alert').textContent()).toContain('Email or password is incorrect');
    expect(await context.cookies()).toEqual([]);
    await context.close();
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

  it('Billing page: a buy form without the session CSRF token is refused (403), nothing started', async () => {
    const me = await person({ billingCountry: 'US' });
    const signin = await post('/billing/sign-in', { email: me.email, password: 'correct horse battery' });
    expect(signin.status).toBe(303);
    const cookie = signin.headers.get('set-cookie')!.split(';')[0]!;
    expect(signin.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(signin.headers.get('set-cookie')).toMatch(/SameSite=Lax/i);
    const pack = await makePack(t.db);
    const forged = await post('/billing/buy', { credit_pack_id: String(pack.id) }, { cookie });
    expect(forged.status).toBe(403);
    const rows = await t.db
      .selectFrom('checkouts')
      .innerJoin('users', 'users.id', 'checkouts.user_id')
      .select('checkouts.id')
      .where('users.email', '=', me.email)
      .execute();
    expect(rows).toEqual([]);
    const page = await (await fetch(`${t.baseUrl}/billing`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const real = await post('/billing/buy', { credit_pack_id: String(pack.id), csrf }, { cookie });
    expect(real.status).toBe(303);
    expect(real.headers.get('location')).toMatch(/\/checkout\/[0-9a-f-]{36}\?token=/);
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

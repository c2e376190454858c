import type { PaymentProvider } from '@esign/core/testing';
import { makeBuyer, makeDiscount, makePack } from '@esign/testing/billing';
import { makeTemplate } from '@esign/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// The spec's recommended purchase flow, and a payment provider that cannot start a checkout.
let t: TestApp;
let broken: TestApp;
const failing: PaymentProvider = {
  name: 'stripe',
  async start() {
    throw new Error('connect ECONNREFUSED (provider down)');
  },
};

beforeAll(async () => {
  t = await startTestApp();
  broken = await startTestApp({}, { payments: failing });
});
afterAll(async () => {
  await t.close();
  await broken.close();
});

/** The person on the checkout page clicks Pay (a plain form post, as the browser sends it). */
async function clickPay(checkoutUrl: string) {
  const url = new URL(checkoutUrl);
  const res = await fetch(url.origin + url.pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: url.searchParams.get('token')!, action: 'pay' }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
}

describe('Recommended purchase flow after 402 insufficient_credits', () => {
  it('Billing: 402 -> list packs -> start a checkout -> pay on checkout_url -> poll -> retry with the same Idempotency-Key', async () => {
    const buyer = await makeBuyer(t.db, { credits: 1 });
    // The one credit goes to a first template; the second template finds none left.
    const used = await makeTemplate(t, buyer);
    await t.db
      .insertInto('credit_ledger')
      .values({ account_id: buyer.accountId, delta: -1, reason: 'consume', template_id: used.id })
      .execute();
    const template = await makeTemplate(t, buyer);
    const body = { template_id: template.id, signers: [{ email: 'signer@example.com' }] };
    const headers = { 'Idempotency-Key': crypto.randomUUID() };

    const refused = await t.api('POST', 'signature_requests', { key: buyer.key, body, headers });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');

    await makePack(t.db, { credits: 10, price: 900 });
    const packs = await t.api('GET', 'credit_packs', { key: buyer.key });
    const pack = packs.body.data.find((p: any) => !p.unlimited);
    const checkout = await t.api('POST', 'checkouts', {
      key: buyer.key,
      body: { credit_pack_id: pack.id },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(checkout.status).toBe(201);

    let polled = await t.api('GET', `checkouts/${checkout.body.id}`, { key: buyer.key });
    expect(polled.body.status).toBe('pending');
    await clickPay(checkout.body.checkout_url);
    polled = await t.api('GET', `checkouts/${checkout.body.id}`, { key: buyer.key });
    expect(polled.body.status).toBe('completed');

    const retried = await t.api('POST', 'signature_requests', { key: buyer.key, body, headers });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.api('POST', 'signature_requests', { key: buyer.key, body, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(retried.body.id);
    const credits = await t.api('GET', 'credits', { key: buyer.key });
    expect(credits.body).toMatchObject({ available: pack.credits, can_send: true });
  });
});

describe('Payment provider errors', () => {
  it('Billing: a provider that cannot start the checkout is 502 payment_provider_error; nothing stored as paid, the discount use given back', async () => {
    const buyer = await makeBuyer(broken.db, { credits: 2 });
    const pack = await makePack(broken.db);
    const code = await makeDiscount(broken.db, { maxUses: 1 });
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const res = await broken.api('POST', 'checkouts', {
      key: buyer.key,
      body: { credit_pack_id: pack.id, discount_code: code.code },
      headers,
    });
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'payment_provider_error', message: expect.any(String) });
    expect(res.text).not.toContain('ECONNREFUSED');

    const rows = await broken.db
      .selectFrom('checkouts')
      .selectAll()
      .where('user_id', '=', buyer.userId)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['failed']);
    expect(rows[0]!.completed_at).toBeNull();
    const discount = await broken.db
      .selectFrom('discount_codes')
      .select('uses')
      .where('id', '=', code.id)
      .executeTakeFirstOrThrow();
    expect(discount.uses).toBe(0);
    expect((await broken.api('GET', 'credits', { key: buyer.key })).body.available).toBe(2);
    // Failed responses are not stored: the same key can be retried.
    const retry = await broken.api('POST', 'checkouts', {
      key: buyer.key,
      body: { credit_pack_id: pack.id, discount_code: code.code },
      headers,
    });
    expect(retry.status).toBe(502);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });
});

import { answerAsOperator, getCredits } from '@esign/core/operator';
import { checkoutPageUrl, createStripeClient, stripeProvider } from '@esign/core/testing';
import { makeBuyer, makeDiscount, makePack } from '@esign/testing/billing';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { StripeLoopback } from './stripe-loopback.ts';

// PAYMENT_PROVIDER=stripe: the adapter against a loopback server that answers the Checkout Session
// calls of the official library, and Stripe's webhook signed with the library's test header helper.
const SECRET_KEY = 'sk_test_loopback_key';
const WEBHOOK_SECRET = 'whsec_loopback_test_secret';
const stripe = new Stripe(SECRET_KEY);
const loopback = new StripeLoopback();
let t: TestApp;

beforeAll(async () => {
  await loopback.start();
  const client = createStripeClient(SECRET_KEY, { host: '127.0.0.1', port: loopback.port, protocol: 'http' });
  t = await startTestApp(
    { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    { payments: stripeProvider(client, WEBHOOK_SECRET) },
  );
});
afterAll(async () => {
  await t.close();
  await loopback.stop();
});

async function startCheckout(buyer: TestAccount, body: Record<string, unknown>) {
  const res = await t.api('POST', 'checkouts', { key: buyer.key, body });
  expect(res.status, res.text).toBe(201);
  const row = await t.db
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', res.body.id)
    .executeTakeFirstOrThrow();
  return { dto: res.body, sessionId: row.provider_ref!, amountCents: row.amount_cents };
}

function sessionEvent(
  type: string,
  c: { dto: { id: string }; sessionId: string; amountCents: number },
  session: Record<string, unknown> = {},
) {
  return {
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: c.sessionId,
        object: 'checkout.session',
        client_reference_id: c.dto.id,
        metadata: { checkout_id: c.dto.id },
        amount_total: c.amountCents,
        currency: 'usd',
        payment_status: 'paid',
        status: 'complete',
        ...session,
      },
    },
  };
}

async function deliver(event: unknown, opts: { secret?: string; signature?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const signature =
    opts.signature === undefined
      ? stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET })
      : opts.signature;
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (signature !== null) headers['stripe-signature'] = signature;
  const res = await fetch(`${t.baseUrl}/webhooks/stripe`, { method: 'POST', headers, body: payload });
  return { status: res.status, body: await res.json() };
}

const status = async (id: string) =>
  (await t.db.selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const available = async (accountId: number) => (await getCredits(t.db, accountId)).available;

describe('Stripe adapter (loopback server)', () => {
  it('Stripe: POST /checkouts creates a Checkout Session through the stripe library; checkout_url is its hosted URL', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 30, price: 2500, name: 'Thirty' });
    const code = await makeDiscount(t.db, { percentOff: 10 });
    const before = loopback.requests.length;
    const c = await startCheckout(buyer, { credit_pack_id: pack.id, discount_code: code.code });
    const sent = loopback.requests.slice(before);
    expect(sent).toHaveLength(1);
    const req = sent[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkout/sessions');
    expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(req.headers['idempotency-key']).toBe(`esign-checkout-${c.dto.id}`);
    const p = Object.fromEntries(req.params);
    expect(p).toMatchObject({
      mode: 'payment',
      client_reference_id: c.dto.id,
      'metadata[checkout_id]': c.dto.id,
      customer_email: buyer.email,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2250',
      'line_items[0][price_data][product_data][name]': 'Thirty',
      success_url: checkoutPageUrl(t.config, c.dto.id),
      cancel_url: checkoutPageUrl(t.config, c.dto.id),
    });
    expect(c.dto).toMatchObject({
      status: 'pending',
      amount: '22.50',
      checkout_url: `https://checkout.stripe.com/c/pay/${c.sessionId}`,
    });
  });

  it('Stripe: a provider error is 502 payment_provider_error; the checkout is failed, nothing paid', async () => {
    const buyer = await makeBuyer(t.db, { credits: 1 });
    loopback.failNext = {
      status: 400,
      type: 'invalid_request_error',
      message: 'Amount must be at least 50 cents',
    };
    const res = await t.api('POST', 'checkouts', {
      key: buyer.key,
      body: { credit_pack_id: (await makePack(t.db)).id },
    });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('payment_provider_error');
    const rows = await t.db
      .selectFrom('checkouts')
      .select('status')
      .where('user_id', '=', buyer.userId)
      .execute();
    expect(rows).toEqual([{ status: 'failed' }]);
    expect(await available(buyer.accountId)).toBe(1);
  });

  it('Stripe: `esign checkout confirm` does not play Stripe answers (simulated only)', async () => {
    const buyer = await makeBuyer(t.db);
    const c = await startCheckout(buyer, { credit_pack_id: (await makePack(t.db)).id });
    await expect(answerAsOperator(t.db, c.dto.id, 'paid', new Date())).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await status(c.dto.id)).toBe('pending');
  });
});

describe("Stripe webhook (verified with the library's signature check)", () => {
  it('Stripe: checkout.session.completed delivered twice and ten times at once adds the credits once', async () => {
    const buyer = await makeBuyer(t.db, { credits: 2 });
    const c = await startCheckout(buyer, { credit_pack_id: (await makePack(t.db, { credits: 15 })).id });
    const event = sessionEvent('checkout.session.completed', c);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    expect((await deliver(event)).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    for (const r of burst) expect(r.status).toBe(200);
    expect(await status(c.dto.id)).toBe('completed');
    expect(await available(buyer.accountId)).toBe(17);
    const res = await t.api('GET', `checkouts/${c.dto.id}`, { key: buyer.key });
    expect(res.body).toMatchObject({
      status: 'completed',
      checkout_url: null,
      completed_at: expect.any(String),
    });
  });

  it('Stripe: a bad, missing or wrongly keyed signature is 400 and changes nothing', async () => {
    const buyer = await makeBuyer(t.db);
    const c = await startCheckout(buyer, { credit_pack_id: (await makePack(t.db)).id });
    const event = sessionEvent('checkout.session.completed', c);
    expect((await deliver(event, { secret: 'whsec_someone_else' })).status).toBe(400);
    expect((await deliver(event, { signature: null })).status).toBe(400);
    expect((await deliver(event, { signature: 't=1,v1=deadbeef' })).status).toBe(400);
    expect(await status(c.dto.id)).toBe('pending');
    expect(await available(buyer.accountId)).toBe(0);
  });

  it('Stripe: checkout.session.expired marks the checkout failed and gives the discount use back; a late payment event changes nothing', async () => {
    const buyer = await makeBuyer(t.db);
    const code = await makeDiscount(t.db, { maxUses: 1 });
    const c = await startCheckout(buyer, {
      credit_pack_id: (await makePack(t.db)).id,
      discount_code: code.code,
    });
    expect(
      (
        await deliver(
          sessionEvent('checkout.session.expired', c, { status: 'expired', payment_status: 'unpaid' }),
        )
      ).status,
    ).toBe(200);
    expect(await status(c.dto.id)).toBe('failed');
    const uses = await t.db
      .selectFrom('discount_codes')
      .select('uses')
      .where('id', '=', code.id)
      .executeTakeFirstOrThrow();
    expect(uses.uses).toBe(0);
    expect((await deliver(sessionEvent('checkout.session.completed', c))).status).toBe(200);
    expect(await status(c.dto.id)).toBe('failed');
    expect(await available(buyer.accountId)).toBe(0);
    const audit = await t.db
      .selectFrom('audit_events')
      .select('type')
      .where('checkout_id', '=', c.dto.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.type)).toEqual([
      'checkout.created',
      'checkout.failed',
      'checkout.late_payment',
    ]);
  });

  it('Stripe: events out of order: an expiry after the payment leaves the checkout completed', async () => {
    const buyer = await makeBuyer(t.db);
    const c = await startCheckout(buyer, { credit_pack_id: (await makePack(t.db, { credits: 4 })).id });
    await deliver(sessionEvent('checkout.session.completed', c));
    await deliver(sessionEvent('checkout.session.expired', c, { status: 'expired' }));
    expect(await status(c.dto.id)).toBe('completed');
    expect(await available(buyer.accountId)).toBe(4);
  });

  it('Stripe: a delayed payment: completed-but-unpaid waits, async_payment_succeeded completes, async_payment_failed fails', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 6 });
    const ok = await startCheckout(buyer, { credit_pack_id: pack.id });
    await deliver(sessionEvent('checkout.session.completed', ok, { payment_status: 'unpaid' }));
    expect(await status(ok.dto.id)).toBe('pending');
    await deliver(sessionEvent('checkout.session.async_payment_succeeded', ok));
    expect(await status(ok.dto.id)).toBe('completed');
    const bad = await startCheckout(buyer, { credit_pack_id: pack.id });
    await deliver(sessionEvent('checkout.session.async_payment_failed', bad, { payment_status: 'unpaid' }));
    expect(await status(bad.dto.id)).toBe('failed');
    expect(await available(buyer.accountId)).toBe(6);
  });

  it('Stripe: a payment whose session or amount does not match the checkout is refused and recorded', async () => {
    const buyer = await makeBuyer(t.db);
    const c = await startCheckout(buyer, { credit_pack_id: (await makePack(t.db, { price: 1000 })).id });
    await deliver(sessionEvent('checkout.session.completed', c, { amount_total: 1 }));
    await deliver(sessionEvent('checkout.session.completed', { ...c, sessionId: 'cs_test_other' }));
    expect(await status(c.dto.id)).toBe('pending');
    const audit = await t.db
      .selectFrom('audit_events')
      .select('type')
      .where('checkout_id', '=', c.dto.id)
      .where('type', '=', 'checkout.answer_rejected')
      .execute();
    expect(audit).toHaveLength(2);
    expect(await available(buyer.accountId)).toBe(0);
  });

  it('Stripe: events this service does not use and sessions of unknown checkouts are acknowledged (200)', async () => {
    const other = {
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    };
    expect(await deliver(other)).toEqual({ status: 200, body: { received: true } });
    const stranger = sessionEvent('checkout.session.completed', {
      dto: { id: crypto.randomUUID() },
      sessionId: 'cs_test_stranger',
      amountCents: 100,
    });
    expect((await deliver(stranger)).status).toBe(200);
  });
});

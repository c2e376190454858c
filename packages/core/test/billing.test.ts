import { describe, expect, it } from 'vitest';
import { applyDiscount, formatCents, parseAmount, pricePerCredit } from '../src/services/billing/money.ts';
import { omitPurchaseLinks } from '../src/services/billing/offer.ts';
import { readStripeEvent } from '../src/services/billing/stripe.ts';

describe('billing money', () => {
  it('Credit pack: prices are decimal strings with two places', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(1999)).toBe('19.99');
    expect(formatCents(100_000_000)).toBe('1000000.00');
  });

  it('parseAmount takes D, D.D and D.DD; refuses negatives, three places, exponents and more than 1000000.00', () => {
    expect(parseAmount('19', 'price')).toBe(1900);
    expect(parseAmount('19.9', 'price')).toBe(1990);
    expect(parseAmount(' 0.05 ', 'price')).toBe(5);
    for (const bad of ['-1', '1.999', '1e3', '', 'abc', '1000000.01', '1,00']) {
      expect(() => parseAmount(bad, 'price'), bad).toThrow(
        expect.objectContaining({ code: 'invalid_parameter' }),
      );
    }
  });

  it('price_per_credit: two places, up to four when two would hide the figure', () => {
    expect(pricePerCredit(900, 10)).toBe('0.90');
    expect(pricePerCredit(4900, 100)).toBe('0.49');
    expect(pricePerCredit(1900, 300)).toBe('0.0633');
    expect(pricePerCredit(1999, 10)).toBe('1.999');
    expect(pricePerCredit(1999, 1000)).toBe('0.02');
    expect(pricePerCredit(1000, 1)).toBe('10.00');
    expect(pricePerCredit(0, 10)).toBe('0.00');
  });

  it('Discounts: percent (rounded to the cent) or a fixed amount off, never below zero', () => {
    expect(applyDiscount(1999, null)).toBe(1999);
    expect(applyDiscount(1999, { percentOff: 25, amountOffCents: null })).toBe(1499);
    expect(applyDiscount(1000, { percentOff: 100, amountOffCents: null })).toBe(0);
    expect(applyDiscount(500, { percentOff: null, amountOffCents: 150 })).toBe(350);
    expect(applyDiscount(100, { percentOff: null, amountOffCents: 500 })).toBe(0);
  });
});

describe('purchase links', () => {
  it('MCP: results for a client without purchases omit purchase_url and checkout_url at any depth', () => {
    const result = {
      object: 'me',
      credits: { available: 3, purchase_url: 'https://x/billing' },
      data: [{ id: 'c1', checkout_url: 'https://x/checkout/c1', amount: '1.00' }],
    };
    expect(omitPurchaseLinks(result)).toEqual({
      object: 'me',
      credits: { available: 3 },
      data: [{ id: 'c1', amount: '1.00' }],
    });
  });
});

describe('Stripe events', () => {
  const session = (extra: Record<string, unknown> = {}) => ({
    id: 'cs_1',
    object: 'checkout.session',
    client_reference_id: 'chk',
    metadata: { checkout_id: 'chk' },
    amount_total: 900,
    payment_status: 'paid',
    ...extra,
  });
  const event = (type: string, object: unknown) => ({ id: 'evt_1', type, data: { object } }) as never;

  it('Stripe: completed and paid (or async succeeded) confirm; expired and async failed fail; unpaid and other events are ignored', () => {
    expect(readStripeEvent(event('checkout.session.completed', session()))).toMatchObject({
      kind: 'paid',
      checkoutId: 'chk',
      ref: 'cs_1',
      amountCents: 900,
    });
    expect(readStripeEvent(event('checkout.session.async_payment_succeeded', session())).kind).toBe('paid');
    expect(
      readStripeEvent(event('checkout.session.expired', session({ payment_status: 'unpaid' }))).kind,
    ).toBe('failed');
    expect(readStripeEvent(event('checkout.session.async_payment_failed', session())).kind).toBe('failed');
    expect(
      readStripeEvent(event('checkout.session.completed', session({ payment_status: 'unpaid' }))).kind,
    ).toBe('ignored');
    expect(readStripeEvent(event('customer.created', { id: 'cus_1' })).kind).toBe('ignored');
    expect(
      readStripeEvent(
        event('checkout.session.completed', session({ metadata: {}, client_reference_id: null })),
      ).kind,
    ).toBe('ignored');
  });
});

describe('billing configuration', () => {
  it('PAYMENT_PROVIDER=stripe requires STRIPE_WEBHOOK_SECRET (payments are confirmed by its webhook)', async () => {
    const { parseConfig } = await import('../src/config.ts');
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(
      parseConfig({
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }).PAYMENT_PROVIDER,
    ).toBe('stripe');
    expect(parseConfig({}).PAYMENT_PROVIDER).toBe('simulated');
  });
});

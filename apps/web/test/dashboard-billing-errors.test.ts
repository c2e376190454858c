import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { billingErrorMessage } from '../dashboard/src/billing-errors.ts';

const failed = (code: string, message = `server says ${code}`) =>
  new TRPCClientError(message, { result: { error: { message, code: -32600, data: { code } } } } as never);

describe('dashboard Billing page error messages', () => {
  it('POST /checkouts errors (billing_details_required, invalid_discount_code, already_purchased, payment_provider_error, forbidden) read as sentences, not codes', () => {
    const cases: [string, RegExp][] = [
      ['billing_details_required', /^Add your billing country before buying credits\.$/],
      ['invalid_discount_code', /^That discount code cannot be used/],
      ['already_purchased', /already has the lifetime deal/],
      ['payment_provider_error', /Nothing was charged/],
      ['forbidden', /^Only admins of your account can buy credits\.$/],
    ];
    for (const [code, words] of cases) {
      const message = billingErrorMessage(failed(code));
      expect(message).toMatch(words);
      expect(message).not.toContain(code);
    }
  });

  it('other failures fall back to the dashboard’s general wording', () => {
    expect(billingErrorMessage(failed('internal_error'))).toBe(
      'Something went wrong on our side. Please try again in a moment.',
    );
    expect(billingErrorMessage(failed('rate_limited', 'Too many requests; wait a minute'))).toBe(
      'Too many requests; wait a minute',
    );
  });
});

// What every payment provider implements (`PAYMENT_PROVIDER`), apart from the providers themselves,
// so a provider's module and the list of providers (providers.ts) both import it downward.

type ProviderName = 'simulated' | 'stripe';

interface StartCheckoutInput {
  checkoutId: string;
  /** Shown on the payment page: the pack's name, and what it gives. */
  productName: string;
  productDescription: string;
  /** What is charged, in US cents (the discounted price when a code applied). */
  amountCents: number;
  customerEmail: string;
  /** Our page for this checkout: the simulated payment page itself, or where Stripe sends the buyer back. */
  pageUrl: string;
}

interface StartedCheckout {
  /** The provider's own id for the payment (Stripe's Checkout Session id); null for `simulated`. */
  ref: string | null;
  /** Where the buyer pays: the spec's `checkout_url`. */
  url: string;
}

/** What a provider said about a payment, once its message was verified. */
export type PaymentNotice =
  | {
      kind: 'paid' | 'failed';
      checkoutId: string;
      ref: string;
      /** Stripe: the amount the session charged, checked against the checkout. */
      amountCents: number | null;
      eventId: string;
      eventType: string;
    }
  | { kind: 'ignored'; eventId: string; eventType: string };

/**
 * The small interface every payment provider implements (`PAYMENT_PROVIDER`). Starting a checkout
 * is the only call core makes; the provider's answer comes back later: `esign checkout confirm|fail`
 * or the hosted page for `simulated`, a verified webhook for `stripe`.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  start(input: StartCheckoutInput): Promise<StartedCheckout>;
  /**
   * Stripe: verifies a webhook delivery with the library's own signature check and reads it.
   * Throws `PaymentSignatureError` when the signature does not match.
   */
  readWebhook?(rawBody: Buffer | string, signature: string | undefined): PaymentNotice;
  /** Whether readWebhook can verify anything (a webhook secret is configured). */
  readonly webhookConfigured?: boolean;
}

export class PaymentSignatureError extends Error {
  override readonly name = 'PaymentSignatureError';
}

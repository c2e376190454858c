import Stripe from 'stripe';
import { type PaymentNotice, type PaymentProvider, PaymentSignatureError } from './payment-provider.ts';

/** Where the client sends its API calls; tests point it at a loopback server (never at Stripe). */
export type StripeEndpoint = Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'>;

/** The official client for `STRIPE_SECRET_KEY`: two retries (with Stripe idempotency keys), 20 s per call. */
export function createStripeClient(secretKey: string, endpoint: StripeEndpoint = {}): Stripe {
  return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000, telemetry: false, ...endpoint });
}

type Session = Stripe.Checkout.Session;

function notice(kind: 'paid' | 'failed', event: Stripe.Event, session: Session): PaymentNotice {
  const checkoutId = session.metadata?.checkout_id ?? session.client_reference_id;
  if (!checkoutId) return { kind: 'ignored', eventId: event.id, eventType: event.type };
  return {
    kind,
    checkoutId,
    ref: session.id,
    amountCents: session.amount_total,
    eventId: event.id,
    eventType: event.type,
  };
}

/**
 * Reads a verified event. A session's payment is confirmed by `checkout.session.completed` when it
 * is paid already, or later by `checkout.session.async_payment_succeeded` (bank debits); it fails
 * by `checkout.session.async_payment_failed` or `checkout.session.expired` (the buyer never paid).
 * Anything else is acknowledged and ignored.
 */
export function readStripeEvent(event: Stripe.Event): PaymentNotice {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.payment_status === 'unpaid')
        return { kind: 'ignored', eventId: event.id, eventType: event.type };
      return notice('paid', event, session);
    }
    case 'checkout.session.async_payment_succeeded':
      return notice('paid', event, event.data.object);
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return notice('failed', event, event.data.object);
    default:
      return { kind: 'ignored', eventId: event.id, eventType: event.type };
  }
}

/**
 * `PAYMENT_PROVIDER=stripe`: Stripe Checkout Sessions. `checkout_url` is the session's hosted page;
 * the payment is confirmed by Stripe's webhook, verified with `STRIPE_WEBHOOK_SECRET` by the
 * library's own signature check.
 */
export function stripeProvider(client: Stripe, webhookSecret: string | undefined): PaymentProvider {
  return {
    name: 'stripe',
    webhookConfigured: !!webhookSecret,
    async start(input) {
      const session = await client.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: input.checkoutId,
          metadata: { checkout_id: input.checkoutId },
          payment_intent_data: { metadata: { checkout_id: input.checkoutId } },
          customer_email: input.customerEmail,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: input.amountCents,
                product_data: { name: input.productName, description: input.productDescription },
              },
            },
          ],
          success_url: input.pageUrl,
          cancel_url: input.pageUrl,
        },
        // One session per checkout, even when the library retries the call.
        { idempotencyKey: `esign-checkout-${input.checkoutId}` },
      );
      if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a url`);
      return { ref: session.id, url: session.url };
    },
    readWebhook(rawBody, signature) {
      if (!webhookSecret) throw new PaymentSignatureError('STRIPE_WEBHOOK_SECRET is not set');
      let event: Stripe.Event;
      try {
        event = client.webhooks.constructEvent(rawBody, signature ?? '', webhookSecret);
      } catch (err) {
        throw new PaymentSignatureError((err as Error).message);
      }
      return readStripeEvent(event);
    },
  };
}

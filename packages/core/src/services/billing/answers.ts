import type { Db } from '@esign/db';
import { CoreError, notFound } from '../../errors.ts';
import type { ServiceContext } from '../service-context.ts';
import { findCheckoutById } from './checkouts.ts';
import { checkoutPageTokenValid } from './hosted.ts';
import { type PaymentProvider, PaymentSignatureError } from './providers.ts';
import { type SettleResult, settleCheckout } from './settle-checkout.ts';

/**
 * `esign checkout confirm|fail --id`: the operator plays the `simulated` provider's answer. Asking
 * again for what already happened returns the checkout unchanged; the opposite answer for a
 * checkout that already ended is refused (a failed checkout stays failed: start a new one).
 * Its positional signature is the one the black-box billing tests call (apps/api/test).
 */
export async function answerAsOperator(db: Db, id: string, outcome: 'paid' | 'failed', now: Date) {
  const row = await findCheckoutById(db, id);
  if (!row) throw notFound('Checkout', id);
  if (row.provider !== 'simulated') {
    throw new CoreError(
      'invalid_request',
      `Checkout ${id} is paid through ${row.provider}; its payment is confirmed by the provider's webhook, not by this command`,
    );
  }
  const { checkout } = await settleCheckout(
    db,
    id,
    outcome,
    { actorType: 'operator', actorId: 'esign' },
    now,
    {
      reason: 'operator',
    },
  );
  const wanted = outcome === 'paid' ? 'completed' : 'failed';
  if (checkout.status !== wanted) {
    throw new CoreError('invalid_request', `Checkout ${id} is already ${checkout.status}`);
  }
  return checkout;
}

/** The checkout behind a checkout page address; a wrong token reads as an unknown checkout. */
export async function checkoutForPage(
  ctx: Pick<ServiceContext, 'db' | 'config'>,
  page: { id: string; token: unknown },
) {
  const { id } = page;
  const row = checkoutPageTokenValid(ctx.config, id, page.token)
    ? await findCheckoutById(ctx.db, id)
    : undefined;
  if (!row) throw notFound('Checkout', id);
  return row;
}

/** What the checkout page's answer needs: a service context and who pressed the button. */
export interface CheckoutPageContext extends Pick<ServiceContext, 'db' | 'config' | 'now'> {
  ip: string | null;
  userAgent: string | null;
}

/** The Pay and Cancel buttons of the `simulated` payment page. */
export async function answerOnCheckoutPage(
  ctx: CheckoutPageContext,
  input: { id: string; token: unknown; action: 'pay' | 'cancel' },
): Promise<SettleResult> {
  const now = ctx.now();
  const row = await checkoutForPage(ctx, input);
  if (row.provider !== 'simulated') {
    throw new CoreError('invalid_request', `Checkout ${input.id} is paid on the ${row.provider} page`);
  }
  return settleCheckout(
    ctx.db,
    input.id,
    input.action === 'pay' ? 'paid' : 'failed',
    { actorType: 'payment_provider', actorId: 'simulated', ip: ctx.ip, userAgent: ctx.userAgent },
    now,
    { reason: 'canceled_by_buyer' },
  );
}

export type WebhookOutcome =
  | { kind: 'not_configured' }
  | { kind: 'bad_signature'; message: string }
  | { kind: 'unknown_checkout'; eventId: string }
  | { kind: 'accepted'; eventId: string; eventType: string; changed: boolean };

/**
 * A payment provider's webhook delivery (Stripe). The signature is checked by the provider's own
 * library before anything is read. Deliveries may repeat, arrive late or out of order: the
 * checkout's state machine makes every repeat a no-op, and answers for checkouts that already
 * ended change nothing. Events this service does not use are acknowledged.
 */
export async function receivePaymentWebhook(
  ctx: Pick<ServiceContext, 'db' | 'logger' | 'now'>,
  provider: PaymentProvider,
  delivery: { rawBody: Buffer | string; signature: string | undefined },
): Promise<WebhookOutcome> {
  const { db, logger } = ctx;
  const now = ctx.now();
  if (!provider.readWebhook || !provider.webhookConfigured) return { kind: 'not_configured' };
  let notice: ReturnType<NonNullable<PaymentProvider['readWebhook']>>;
  try {
    notice = provider.readWebhook(delivery.rawBody, delivery.signature);
  } catch (err) {
    if (err instanceof PaymentSignatureError) return { kind: 'bad_signature', message: err.message };
    throw err;
  }
  if (notice.kind === 'ignored') {
    return { kind: 'accepted', eventId: notice.eventId, eventType: notice.eventType, changed: false };
  }
  const row = await findCheckoutById(db, notice.checkoutId);
  if (!row || row.provider !== provider.name) {
    logger.warn(
      { eventId: notice.eventId, checkoutId: notice.checkoutId },
      'payment webhook for an unknown checkout',
    );
    return { kind: 'unknown_checkout', eventId: notice.eventId };
  }
  const result = await settleCheckout(
    db,
    row.id,
    notice.kind,
    { actorType: 'payment_provider', actorId: provider.name },
    now,
    {
      reason: notice.eventType,
      ref: notice.ref,
      amountCents: notice.amountCents,
      eventId: notice.eventId,
    },
  );
  return { kind: 'accepted', eventId: notice.eventId, eventType: notice.eventType, changed: result.changed };
}

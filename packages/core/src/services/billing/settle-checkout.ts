import type { CheckoutRow, Db, Tx } from '@esign/db';
import {
  insertPurchaseLedgerEntry,
  lockCheckout,
  markCheckoutCompleted,
  markCheckoutFailed,
  setLifetimePlan,
} from '@esign/db/queries/billing';
import { notFound } from '../../errors.ts';
import { auditCheckout, type CheckoutChangeBy, UUID } from './checkouts.ts';
import { releaseDiscountUse } from './discounts.ts';
import { formatCents } from './money.ts';
import type { PackSnapshot } from './packs.ts';

/** The credits (or the lifetime plan) a completed checkout gives, at most once per checkout. */
async function addPurchase(tx: Tx, checkout: CheckoutRow, now: Date): Promise<number | 'unlimited' | 0> {
  // The test side of an account does not use credits: its checkouts are simulated and add nothing.
  if (checkout.environment !== 'live') return 0;
  const pack = checkout.pack_snapshot as PackSnapshot;
  if (pack.unlimited) await setLifetimePlan(tx, checkout.account_id, now);
  // One ledger row per checkout (unique index): the mark that this purchase was added.
  await insertPurchaseLedgerEntry(tx, {
    accountId: checkout.account_id,
    checkoutId: checkout.id,
    delta: pack.unlimited ? 0 : pack.credits!,
    note: pack.unlimited ? `${pack.name}: lifetime deal` : pack.name,
    now,
  });
  return pack.unlimited ? 'unlimited' : pack.credits!;
}

export interface SettleResult {
  checkout: CheckoutRow;
  /** False when the checkout had already left `pending` (a repeated, late or conflicting answer). */
  changed: boolean;
}

/** What the provider's answer says besides paid or failed. */
export interface SettleDetail {
  reason?: string;
  ref?: string;
  amountCents?: number | null;
  eventId?: string;
}

/** One answer of the payment provider (or the operator) about a checkout. */
interface CheckoutAnswer {
  outcome: 'paid' | 'failed';
  by: CheckoutChangeBy;
  now: Date;
  detail: SettleDetail;
}

/**
 * An answer naming another provider reference, or a payment of another amount, is refused: it is
 * audited and changes nothing. Returns whether it was refused.
 */
async function refusedMismatch(tx: Tx, row: CheckoutRow, answer: CheckoutAnswer): Promise<boolean> {
  const { outcome, detail } = answer;
  const refMismatch =
    detail.ref !== undefined && row.provider_ref !== null && row.provider_ref !== detail.ref;
  const amountMismatch =
    outcome === 'paid' && detail.amountCents != null && detail.amountCents !== row.amount_cents;
  if (!refMismatch && !amountMismatch) return false;
  await auditCheckout(tx, row, {
    type: 'checkout.answer_rejected',
    by: answer.by,
    data: {
      outcome,
      event_id: detail.eventId ?? null,
      reason: refMismatch ? 'provider reference mismatch' : 'amount mismatch',
    },
    now: answer.now,
  });
  return true;
}

/**
 * Closes a pending checkout: `paid` completes it and adds its credits, `failed` marks it failed and
 * gives its discount use back; either way audited.
 */
async function closeCheckout(tx: Tx, id: string, answer: CheckoutAnswer): Promise<CheckoutRow> {
  const { by, now, detail } = answer;
  const paid = answer.outcome === 'paid';
  const updated = paid ? await markCheckoutCompleted(tx, id, now) : await markCheckoutFailed(tx, id, now);
  const event_id = detail.eventId ?? null;
  if (paid) {
    const added = await addPurchase(tx, updated, now);
    const data = { credits_added: added, amount: formatCents(updated.amount_cents), event_id };
    await auditCheckout(tx, updated, { type: 'checkout.completed', by, data, now });
  } else {
    if (updated.discount_code_id !== null) await releaseDiscountUse(tx, updated.discount_code_id);
    const data = { reason: detail.reason ?? 'payment_failed', event_id };
    await auditCheckout(tx, updated, { type: 'checkout.failed', by, data, now });
  }
  return updated;
}

/**
 * The payment provider's answer. `paid` completes a pending checkout and adds its credits; `failed`
 * (payment failed, canceled, expired) marks it failed and gives its discount use back. The row is
 * locked, so however many confirmations arrive, at the same time or later, only the first changes
 * anything; an answer for a checkout that already left `pending` changes nothing.
 *
 * Its positional signature is the one the black-box billing tests call (apps/api/test).
 */
export async function settleCheckout(
  db: Db,
  id: string,
  outcome: 'paid' | 'failed',
  by: CheckoutChangeBy,
  now: Date,
  detail: SettleDetail = {},
): Promise<SettleResult> {
  const answer: CheckoutAnswer = { outcome, by, now, detail };
  return db.transaction().execute(async (tx) => {
    const row = UUID.test(id) ? await lockCheckout(tx, id) : undefined;
    if (!row) throw notFound('Checkout', id);
    if (await refusedMismatch(tx, row, answer)) return { checkout: row, changed: false };
    if (row.status !== 'pending') {
      // A payment confirmed after its checkout failed is money the operator must look at.
      if (outcome === 'paid' && row.status === 'failed') {
        const data = { event_id: detail.eventId ?? null };
        await auditCheckout(tx, row, { type: 'checkout.late_payment', by, data, now });
      }
      return { checkout: row, changed: false };
    }
    return { checkout: await closeCheckout(tx, id, answer), changed: true };
  });
}

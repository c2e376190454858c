import type { CheckoutRow, Db, Tx } from '@esign/db';
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
  if (pack.unlimited) {
    await tx
      .updateTable('accounts')
      .set({ plan: 'lifetime', updated_at: now })
      .where('id', '=', checkout.account_id)
      .execute();
  }
  // One ledger row per checkout (unique index): the mark that this purchase was added.
  await tx
    .insertInto('credit_ledger')
    .values({
      account_id: checkout.account_id,
      delta: pack.unlimited ? 0 : pack.credits!,
      reason: 'purchase',
      checkout_id: checkout.id,
      note: pack.unlimited ? `${pack.name}: lifetime deal` : pack.name,
      created_at: now,
    })
    .execute();
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

/**
 * An answer naming another provider reference, or a payment of another amount, is refused: it is
 * audited and changes nothing. Returns whether it was refused.
 */
async function refusedMismatch(
  tx: Tx,
  row: CheckoutRow,
  outcome: 'paid' | 'failed',
  by: CheckoutChangeBy,
  now: Date,
  detail: SettleDetail,
): Promise<boolean> {
  const refMismatch =
    detail.ref !== undefined && row.provider_ref !== null && row.provider_ref !== detail.ref;
  const amountMismatch =
    outcome === 'paid' && detail.amountCents != null && detail.amountCents !== row.amount_cents;
  if (!refMismatch && !amountMismatch) return false;
  await auditCheckout(
    tx,
    row,
    'checkout.answer_rejected',
    by,
    {
      outcome,
      event_id: detail.eventId ?? null,
      reason: refMismatch ? 'provider reference mismatch' : 'amount mismatch',
    },
    now,
  );
  return true;
}

/**
 * Closes a pending checkout: `paid` completes it and adds its credits, `failed` marks it failed and
 * gives its discount use back; either way audited.
 */
async function closeCheckout(
  tx: Tx,
  id: string,
  outcome: 'paid' | 'failed',
  by: CheckoutChangeBy,
  now: Date,
  detail: SettleDetail,
): Promise<CheckoutRow> {
  const paid = outcome === 'paid';
  const updated = await tx
    .updateTable('checkouts')
    .set(
      paid
        ? { status: 'completed', completed_at: now, updated_at: now }
        : { status: 'failed', failed_at: now, updated_at: now },
    )
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const event_id = detail.eventId ?? null;
  if (paid) {
    const added = await addPurchase(tx, updated, now);
    const data = { credits_added: added, amount: formatCents(updated.amount_cents), event_id };
    await auditCheckout(tx, updated, 'checkout.completed', by, data, now);
  } else {
    if (updated.discount_code_id !== null) await releaseDiscountUse(tx, updated.discount_code_id);
    const data = { reason: detail.reason ?? 'payment_failed', event_id };
    await auditCheckout(tx, updated, 'checkout.failed', by, data, now);
  }
  return updated;
}

/**
 * The payment provider's answer. `paid` completes a pending checkout and adds its credits; `failed`
 * (payment failed, canceled, expired) marks it failed and gives its discount use back. The row is
 * locked, so however many confirmations arrive, at the same time or later, only the first changes
 * anything; an answer for a checkout that already left `pending` changes nothing.
 */
export async function settleCheckout(
  db: Db,
  id: string,
  outcome: 'paid' | 'failed',
  by: CheckoutChangeBy,
  now: Date,
  detail: SettleDetail = {},
): Promise<SettleResult> {
  return db.transaction().execute(async (tx) => {
    const row = UUID.test(id)
      ? await tx.selectFrom('checkouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
      : undefined;
    if (!row) throw notFound('Checkout', id);
    if (await refusedMismatch(tx, row, outcome, by, now, detail)) return { checkout: row, changed: false };
    if (row.status !== 'pending') {
      // A payment confirmed after its checkout failed is money the operator must look at.
      if (outcome === 'paid' && row.status === 'failed') {
        await auditCheckout(tx, row, 'checkout.late_payment', by, { event_id: detail.eventId ?? null }, now);
      }
      return { checkout: row, changed: false };
    }
    return { checkout: await closeCheckout(tx, id, outcome, by, now, detail), changed: true };
  });
}

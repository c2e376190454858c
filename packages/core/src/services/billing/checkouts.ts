import { type CheckoutRow, type Db, type Executor, json, type Tx } from '@esign/db';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Actor, Source } from '../../context.ts';
import { CoreError, notFound } from '../../errors.ts';
import { discountOf, releaseDiscountUse, takeDiscountUse } from './discounts.ts';
import { checkoutPageUrl } from './hosted.ts';
import { applyDiscount, CURRENCY, formatCents } from './money.ts';
import {
  type CreditPackDto,
  type PackSnapshot,
  requirePurchasablePack,
  snapshotOf,
  toCreditPackDto,
} from './packs.ts';
import { type PaymentProvider, providerFor } from './providers.ts';

/** The spec's Checkout object. */
export interface CheckoutDto {
  object: 'checkout';
  id: string;
  status: 'pending' | 'completed' | 'failed';
  credit_pack: CreditPackDto;
  amount: string;
  currency: typeof CURRENCY;
  discount_code: string | null;
  checkout_url: string | null;
  completed_at: string | null;
  created_at: string;
}

/** `credit_pack` is the offer shown: the pack as sold, at the discounted price when a code applied. */
export function toCheckoutDto(row: CheckoutRow): CheckoutDto {
  return {
    object: 'checkout',
    id: row.id,
    status: row.status,
    credit_pack: toCreditPackDto(row.pack_snapshot as PackSnapshot, row.amount_cents),
    amount: formatCents(row.amount_cents),
    currency: CURRENCY,
    discount_code: row.discount_code,
    checkout_url: row.status === 'pending' ? row.checkout_url : null,
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** Who caused a checkout's change, for its audit entry. */
export interface CheckoutChangeBy {
  actorType: string;
  actorId: string | null;
  apiKeyId?: number | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** Every change of a checkout is recorded in the audit trail, in the change's transaction. */
export async function auditCheckout(
  tx: Executor,
  checkout: Pick<CheckoutRow, 'id' | 'account_id' | 'environment'>,
  type: string,
  by: CheckoutChangeBy,
  data: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await tx
    .insertInto('audit_events')
    .values({
      account_id: checkout.account_id,
      environment: checkout.environment,
      checkout_id: checkout.id,
      type,
      actor_type: by.actorType,
      actor_id: by.actorId,
      api_key_id: by.apiKeyId ?? null,
      ip: by.ip ?? null,
      user_agent: by.userAgent ?? null,
      data: json(data),
      created_at: now,
    })
    .execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /checkouts/{id}: only the user who started the checkout can read it (anyone else: 404). */
export async function requireCheckout(db: Executor, actor: Actor, id: string): Promise<CheckoutRow> {
  const row = UUID.test(id)
    ? await db
        .selectFrom('checkouts')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', actor.accountId)
        .where('environment', '=', actor.environment)
        .where('user_id', '=', actor.userId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Checkout', id);
  return row;
}

/** The user's latest checkouts on this side of the account (the billing page lists them). */
export async function listRecentCheckouts(db: Executor, actor: Actor, limit = 5): Promise<CheckoutRow[]> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('account_id', '=', actor.accountId)
    .where('environment', '=', actor.environment)
    .where('user_id', '=', actor.userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** A checkout by id alone: for the payment provider's answer and the checkout page (never for users). */
export async function findCheckoutById(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface StartCheckoutOptions {
  config: Config;
  deps: { payments?: PaymentProvider };
  source: Source;
  logger: Logger;
  ip?: string | null;
  userAgent?: string | null;
  now: Date;
}

const byActor = (actor: Actor, o: StartCheckoutOptions): CheckoutChangeBy => ({
  actorType: actor.kind,
  actorId: String(actor.userId),
  apiKeyId: actor.apiKeyId,
  ip: o.ip,
  userAgent: o.userAgent,
});

async function requireBuyer(db: Executor, actor: Actor) {
  // README, "Dashboard": billing is an admin's action.
  if (actor.userRole !== 'admin') {
    throw new CoreError(
      'forbidden',
      `Your role (${actor.userRole}) cannot buy credits; ask an admin of the account`,
    );
  }
  const user = await db
    .selectFrom('users')
    .select(['email', 'billing_country'])
    .where('id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  if (!user.billing_country) {
    throw new CoreError(
      'billing_details_required',
      'Add a billing country to your profile before buying credits (dashboard, or `esign user update --billing-country CC`)',
    );
  }
  return user;
}

/**
 * POST /checkouts. The checkout and its discount use are stored first (one transaction, so a code's
 * last use goes to exactly one checkout), then the provider starts the payment. A provider that
 * cannot start it leaves the checkout `failed` (its discount use given back) and nothing paid:
 * `502 payment_provider_error`.
 */
export async function startCheckout(
  db: Db,
  actor: Actor,
  input: { credit_pack_id: number; discount_code?: string | null },
  o: StartCheckoutOptions,
): Promise<CheckoutRow> {
  const user = await requireBuyer(db, actor);
  const provider = await providerFor(o.deps, o.config, actor.environment);
  const id = crypto.randomUUID();
  const code = input.discount_code?.trim() || null;
  const created = await db.transaction().execute(async (tx) => {
    const pack = await requirePurchasablePack(tx, actor.accountId, input.credit_pack_id);
    const discount = code ? await takeDiscountUse(tx, { code, packId: pack.id, now: o.now }) : null;
    const row = await tx
      .insertInto('checkouts')
      .values({
        id,
        account_id: actor.accountId,
        environment: actor.environment,
        user_id: actor.userId,
        credit_pack_id: pack.id,
        pack_snapshot: json(snapshotOf(pack)),
        amount_cents: applyDiscount(pack.price_cents, discount ? discountOf(discount) : null),
        discount_code_id: discount?.id ?? null,
        discount_code: discount?.code ?? null,
        status: 'pending',
        provider: provider.name,
        source: o.source,
        created_at: o.now,
        updated_at: o.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await auditCheckout(
      tx,
      row,
      'checkout.created',
      byActor(actor, o),
      {
        credit_pack_id: pack.id,
        amount: formatCents(row.amount_cents),
        discount_code: row.discount_code,
        provider: provider.name,
        source: o.source,
      },
      o.now,
    );
    return row;
  });

  const pack = created.pack_snapshot as PackSnapshot;
  let started: { ref: string | null; url: string };
  try {
    started = await provider.start({
      checkoutId: id,
      productName: pack.name,
      productDescription: pack.unlimited
        ? 'Lifetime deal: unlimited signed documents'
        : `${pack.credits} credits: one credit per signed document`,
      amountCents: created.amount_cents,
      customerEmail: user.email,
      pageUrl: checkoutPageUrl(o.config, id),
    });
  } catch (err) {
    o.logger.error(
      { err, checkoutId: id, provider: provider.name },
      'payment provider could not start a checkout',
    );
    await settleCheckout(db, id, 'failed', { actorType: 'payment_provider', actorId: provider.name }, o.now, {
      reason: 'provider_error',
    });
    throw new CoreError(
      'payment_provider_error',
      'The payment provider could not start the checkout; nothing was charged. Retry later.',
    );
  }
  return db
    .updateTable('checkouts')
    .set({ provider_ref: started.ref, checkout_url: started.url, updated_at: o.now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

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
  detail: { reason?: string; ref?: string; amountCents?: number | null; eventId?: string } = {},
): Promise<SettleResult> {
  return db.transaction().execute(async (tx) => {
    const row = UUID.test(id)
      ? await tx.selectFrom('checkouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
      : undefined;
    if (!row) throw notFound('Checkout', id);
    const refMismatch =
      detail.ref !== undefined && row.provider_ref !== null && row.provider_ref !== detail.ref;
    const amountMismatch =
      outcome === 'paid' && detail.amountCents != null && detail.amountCents !== row.amount_cents;
    if (refMismatch || amountMismatch) {
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
      return { checkout: row, changed: false };
    }
    if (row.status !== 'pending') {
      // A payment confirmed after its checkout failed is money the operator must look at.
      if (outcome === 'paid' && row.status === 'failed') {
        await auditCheckout(tx, row, 'checkout.late_payment', by, { event_id: detail.eventId ?? null }, now);
      }
      return { checkout: row, changed: false };
    }
    if (outcome === 'paid') {
      const updated = await tx
        .updateTable('checkouts')
        .set({ status: 'completed', completed_at: now, updated_at: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const added = await addPurchase(tx, updated, now);
      await auditCheckout(
        tx,
        updated,
        'checkout.completed',
        by,
        {
          credits_added: added,
          amount: formatCents(updated.amount_cents),
          event_id: detail.eventId ?? null,
        },
        now,
      );
      return { checkout: updated, changed: true };
    }
    const updated = await tx
      .updateTable('checkouts')
      .set({ status: 'failed', failed_at: now, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (updated.discount_code_id !== null) await releaseDiscountUse(tx, updated.discount_code_id);
    await auditCheckout(
      tx,
      updated,
      'checkout.failed',
      by,
      {
        reason: detail.reason ?? 'payment_failed',
        event_id: detail.eventId ?? null,
      },
      now,
    );
    return { checkout: updated, changed: true };
  });
}

import { type CheckoutRow, type Executor, json, type Tx } from '@esign/db';
import {
  findBuyerDetails,
  insertCheckout as insertCheckoutRow,
  setCheckoutPayment,
} from '@esign/db/queries/billing';
import type { Actor, Source } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { commitIdempotentOutcome } from '../idempotency.ts';
import type { ServiceContext } from '../service-context.ts';
import { auditCheckout, type CheckoutChangeBy } from './checkouts.ts';
import { discountOf, takeDiscountUse } from './discounts.ts';
import { checkoutPageUrl } from './hosted.ts';
import { applyDiscount, formatCents } from './money.ts';
import { type PackSnapshot, requirePurchasablePack, snapshotOf } from './packs.ts';
import { type PaymentProvider, providerFor } from './providers.ts';
import { settleCheckout } from './settle-checkout.ts';

/** What starting a checkout needs: a service context plus where the request came from. */
export interface CheckoutContext extends ServiceContext {
  source: Source;
  ip?: string | null;
  userAgent?: string | null;
}

/** One checkout being started: by whom, in which context, at one fixed time. */
interface Purchase {
  ctx: CheckoutContext;
  actor: Actor;
  now: Date;
}

const byActor = ({ ctx, actor }: Purchase): CheckoutChangeBy => ({
  actorType: actor.kind,
  actorId: String(actor.userId),
  apiKeyId: actor.apiKeyId,
  ip: ctx.ip,
  userAgent: ctx.userAgent,
});

async function requireBuyer(db: Executor, actor: Actor) {
  // README, "Dashboard": billing is an admin's action.
  if (actor.userRole !== 'admin') {
    throw new CoreError(
      'forbidden',
      `Your role (${actor.userRole}) cannot buy credits; ask an admin of the account`,
    );
  }
  const user = await findBuyerDetails(db, actor.userId);
  if (!user.billing_country) {
    throw new CoreError(
      'billing_details_required',
      'Add a billing country to your profile before buying credits (dashboard, or `esign user update --billing-country CC`)',
    );
  }
  return user;
}

/** The pending checkout and its discount use, audited; in one transaction so a code's last use goes to one checkout. */
async function insertCheckout(
  tx: Tx,
  p: Purchase,
  input: { id: string; packId: number; code: string | null; provider: string },
): Promise<CheckoutRow> {
  const { actor, now } = p;
  const { source } = p.ctx;
  const pack = await requirePurchasablePack(tx, actor.accountId, input.packId);
  const discount = input.code ? await takeDiscountUse(tx, { code: input.code, packId: pack.id, now }) : null;
  const row = await insertCheckoutRow(tx, {
    id: input.id,
    account_id: actor.accountId,
    environment: actor.environment,
    user_id: actor.userId,
    credit_pack_id: pack.id,
    pack_snapshot: json(snapshotOf(pack)),
    amount_cents: applyDiscount(pack.price_cents, discount ? discountOf(discount) : null),
    discount_code_id: discount?.id ?? null,
    discount_code: discount?.code ?? null,
    status: 'pending',
    provider: input.provider,
    source,
    created_at: now,
    updated_at: now,
  });
  await auditCheckout(tx, row, {
    type: 'checkout.created',
    by: byActor(p),
    data: {
      credit_pack_id: pack.id,
      amount: formatCents(row.amount_cents),
      discount_code: row.discount_code,
      provider: input.provider,
      source,
    },
    now,
  });
  return row;
}

/**
 * Asks the provider to start the payment. When it cannot, the checkout is settled `failed` (its
 * discount use given back), nothing is charged, and the caller gets `502 payment_provider_error`.
 */
async function startPayment(
  p: Purchase,
  payment: { provider: PaymentProvider; created: CheckoutRow; customerEmail: string },
): Promise<{ ref: string | null; url: string }> {
  const { provider, created, customerEmail } = payment;
  const { ctx } = p;
  const id = created.id;
  const pack = created.pack_snapshot as PackSnapshot;
  try {
    return await provider.start({
      checkoutId: id,
      productName: pack.name,
      productDescription: pack.unlimited
        ? 'Lifetime deal: unlimited signed documents'
        : `${pack.credits} credits: one credit per signed document`,
      amountCents: created.amount_cents,
      customerEmail,
      pageUrl: checkoutPageUrl(ctx.config, id),
    });
  } catch (err) {
    ctx.logger.error(
      { err, checkoutId: id, provider: provider.name },
      'payment provider could not start a checkout',
    );
    const by = { actorType: 'payment_provider', actorId: provider.name };
    await settleCheckout(ctx.db, id, 'failed', by, p.now, { reason: 'provider_error' });
    throw new CoreError(
      'payment_provider_error',
      'The payment provider could not start the checkout; nothing was charged. Retry later.',
    );
  }
}

/**
 * POST /checkouts. The checkout and its discount use are stored first (one transaction, so a code's
 * last use goes to exactly one checkout), then the provider starts the payment. A provider that
 * cannot start it leaves the checkout `failed` (its discount use given back) and nothing paid:
 * `502 payment_provider_error`.
 */
export async function startCheckout(
  ctx: CheckoutContext,
  actor: Actor,
  input: { credit_pack_id: number; discount_code?: string | null },
): Promise<CheckoutRow> {
  const { db } = ctx;
  const p: Purchase = { ctx, actor, now: ctx.now() };
  const user = await requireBuyer(db, actor);
  const provider = await providerFor(ctx.deps, ctx.config, actor.environment);
  const id = crypto.randomUUID();
  const code = input.discount_code?.trim() || null;
  const created = await db
    .transaction()
    .execute((tx) =>
      insertCheckout(tx, p, { id, packId: input.credit_pack_id, code, provider: provider.name }),
    );
  const started = await startPayment(p, { provider, created, customerEmail: user.email });
  return db.transaction().execute(async (tx) => {
    const payable = await setCheckoutPayment(tx, id, { ref: started.ref, url: started.url, now: p.now });
    // The Idempotency-Key's outcome commits with the payment link (issue 41): a retry reads this
    // checkout and never starts another. A crash before this leaves the first checkout pending
    // without a link (nothing can be paid on it) and the retry starts a payable one.
    await commitIdempotentOutcome(tx, ctx.idempotency, { resource: { type: 'checkout', id } });
    return payable;
  });
}

import { type CheckoutRow, type Db, type Executor, json, type Tx } from '@esign/db';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Actor, Source } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { auditCheckout, type CheckoutChangeBy } from './checkouts.ts';
import { discountOf, takeDiscountUse } from './discounts.ts';
import { checkoutPageUrl } from './hosted.ts';
import { applyDiscount, formatCents } from './money.ts';
import { type PackSnapshot, requirePurchasablePack, snapshotOf } from './packs.ts';
import { type PaymentProvider, providerFor } from './providers.ts';
import { settleCheckout } from './settle-checkout.ts';

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

/** The pending checkout and its discount use, audited; in one transaction so a code's last use goes to one checkout. */
async function insertCheckout(
  tx: Tx,
  actor: Actor,
  input: { id: string; packId: number; code: string | null; provider: string },
  o: StartCheckoutOptions,
): Promise<CheckoutRow> {
  const pack = await requirePurchasablePack(tx, actor.accountId, input.packId);
  const discount = input.code
    ? await takeDiscountUse(tx, { code: input.code, packId: pack.id, now: o.now })
    : null;
  const row = await tx
    .insertInto('checkouts')
    .values({
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
      provider: input.provider,
      source: o.source,
    },
    o.now,
  );
  return row;
}

/**
 * Asks the provider to start the payment. When it cannot, the checkout is settled `failed` (its
 * discount use given back), nothing is charged, and the caller gets `502 payment_provider_error`.
 */
async function startPayment(
  db: Db,
  provider: PaymentProvider,
  created: CheckoutRow,
  customerEmail: string,
  o: StartCheckoutOptions,
): Promise<{ ref: string | null; url: string }> {
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
  const created = await db
    .transaction()
    .execute((tx) =>
      insertCheckout(tx, actor, { id, packId: input.credit_pack_id, code, provider: provider.name }, o),
    );
  const started = await startPayment(db, provider, created, user.email, o);
  return db
    .updateTable('checkouts')
    .set({ provider_ref: started.ref, checkout_url: started.url, updated_at: o.now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

import { type Insertable, sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { CheckoutRow, CreditPackRow, Database, DiscountCodeRow } from '../schema.ts';
import type { Scope } from '../scope.ts';

// Billing: credit packs, discount codes, checkouts, and what a purchase changes elsewhere (the
// account's plan, the credit ledger's purchase row, the per-client purchase setting). The rules
// (who may buy, which code applies, what a checkout's answer changes) live in
// packages/core/src/services/billing.

// ---- Credit packs ------------------------------------------------------------------------------

export type NewCreditPackRow = Insertable<Database['credit_packs']>;

export async function insertCreditPack(db: Executor, values: NewCreditPackRow): Promise<CreditPackRow> {
  return db.insertInto('credit_packs').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Whether a pack with this id exists (active or not). */
export async function creditPackExists(db: Executor, id: number): Promise<boolean> {
  const row = await db.selectFrom('credit_packs').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The active packs, cheapest first; without the lifetime deal when `withLifetime` is false. */
export async function listActiveCreditPacks(
  db: Executor,
  opts: { withLifetime: boolean },
): Promise<CreditPackRow[]> {
  let query = db
    .selectFrom('credit_packs')
    .selectAll()
    .where('active', '=', true)
    .orderBy('price_cents', 'asc')
    .orderBy('id', 'asc');
  if (!opts.withLifetime) query = query.where('unlimited', '=', false);
  return query.execute();
}

export async function findActiveCreditPack(db: Executor, id: number): Promise<CreditPackRow | undefined> {
  return db
    .selectFrom('credit_packs')
    .selectAll()
    .where('id', '=', id)
    .where('active', '=', true)
    .executeTakeFirst();
}

/** The account's plan (`lifetime` once it bought the lifetime deal). */
export async function findAccountPlan(db: Executor, accountId: number): Promise<string> {
  const account = await db
    .selectFrom('accounts')
    .select('plan')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return account.plan;
}

// ---- Discount codes ----------------------------------------------------------------------------

export type NewDiscountCodeRow = Insertable<Database['discount_codes']>;

/** Codes are unique whatever their case: the code spelled in any case. */
export async function findDiscountCodeAnyCase(
  db: Executor,
  code: string,
): Promise<DiscountCodeRow | undefined> {
  return db
    .selectFrom('discount_codes')
    .selectAll()
    .where(sql<string>`lower(code)`, '=', code.toLowerCase())
    .executeTakeFirst();
}

/** Whether a code spelled like this in any case exists (reads only its id). */
export async function discountCodeTaken(db: Executor, code: string): Promise<boolean> {
  const row = await db
    .selectFrom('discount_codes')
    .select('id')
    .where(sql<string>`lower(code)`, '=', code.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertDiscountCode(db: Executor, values: NewDiscountCodeRow): Promise<DiscountCodeRow> {
  return db.insertInto('discount_codes').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Counts one use of an active code that is neither used up nor expired at `now`, in one
 * conditional UPDATE (concurrent callers queue on the row; the one that finds it used up gets
 * undefined). Returns the updated row, or undefined when no use was left.
 */
export async function takeDiscountCodeUse(
  tx: Tx,
  id: number,
  now: Date,
): Promise<DiscountCodeRow | undefined> {
  return tx
    .updateTable('discount_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', id)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** Gives one use back (never below zero). */
export async function releaseDiscountCodeUse(tx: Tx, id: number): Promise<void> {
  await tx
    .updateTable('discount_codes')
    .set((eb) => ({ uses: eb('uses', '-', 1) }))
    .where('id', '=', id)
    .where('uses', '>', 0)
    .execute();
}

// ---- Checkouts ---------------------------------------------------------------------------------

export type NewCheckoutRow = Insertable<Database['checkouts']>;

export async function insertCheckout(tx: Tx, values: NewCheckoutRow): Promise<CheckoutRow> {
  return tx.insertInto('checkouts').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A checkout by id alone (the payment provider's answer, the checkout page; never for users). */
export async function findCheckout(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The checkout locked (`FOR UPDATE`) until the transaction ends, or undefined. */
export async function lockCheckout(tx: Tx, id: string): Promise<CheckoutRow | undefined> {
  return tx.selectFrom('checkouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** One checkout of one user on one account side. */
export async function findUserCheckout(
  db: Executor,
  scope: Scope,
  opts: { userId: number; id: string },
): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('id', '=', opts.id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('user_id', '=', opts.userId)
    .executeTakeFirst();
}

/** A user's latest checkouts on one account side, newest first. */
export async function listUserCheckouts(
  db: Executor,
  scope: Scope,
  opts: { userId: number; limit: number },
): Promise<CheckoutRow[]> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('user_id', '=', opts.userId)
    .orderBy('created_at', 'desc')
    .limit(opts.limit)
    .execute();
}

/** The provider's reference and payment page of a started checkout. */
export async function setCheckoutPayment(
  db: Executor,
  id: string,
  payment: { ref: string | null; url: string; now: Date },
): Promise<CheckoutRow> {
  return db
    .updateTable('checkouts')
    .set({ provider_ref: payment.ref, checkout_url: payment.url, updated_at: payment.now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function markCheckoutCompleted(tx: Tx, id: string, now: Date): Promise<CheckoutRow> {
  return tx
    .updateTable('checkouts')
    .set({ status: 'completed', completed_at: now, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function markCheckoutFailed(tx: Tx, id: string, now: Date): Promise<CheckoutRow> {
  return tx
    .updateTable('checkouts')
    .set({ status: 'failed', failed_at: now, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One audit entry of a checkout's change. */
export interface CheckoutAuditEntry {
  checkout: Pick<CheckoutRow, 'id' | 'account_id' | 'environment'>;
  type: string;
  actorType: string;
  actorId: string | null;
  apiKeyId: number | null;
  ip: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
  now: Date;
}

export async function insertCheckoutAuditEvent(db: Executor, entry: CheckoutAuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      account_id: entry.checkout.account_id,
      environment: entry.checkout.environment,
      checkout_id: entry.checkout.id,
      type: entry.type,
      actor_type: entry.actorType,
      actor_id: entry.actorId,
      api_key_id: entry.apiKeyId,
      ip: entry.ip,
      user_agent: entry.userAgent,
      data: json(entry.data),
      created_at: entry.now,
    })
    .execute();
}

// ---- What a purchase changes -------------------------------------------------------------------

/** The account's plan becomes the lifetime deal. */
export async function setLifetimePlan(tx: Tx, accountId: number, now: Date): Promise<void> {
  await tx
    .updateTable('accounts')
    .set({ plan: 'lifetime', updated_at: now })
    .where('id', '=', accountId)
    .execute();
}

/** The ledger row of a completed checkout (unique per checkout: the mark that it was added). */
export async function insertPurchaseLedgerEntry(
  tx: Tx,
  entry: { accountId: number; checkoutId: string; delta: number; note: string; now: Date },
): Promise<void> {
  await tx
    .insertInto('credit_ledger')
    .values({
      account_id: entry.accountId,
      delta: entry.delta,
      reason: 'purchase',
      checkout_id: entry.checkoutId,
      note: entry.note,
      created_at: entry.now,
    })
    .execute();
}

/** The buyer's email and billing country. */
export async function findBuyerDetails(
  db: Executor,
  userId: number,
): Promise<{ email: string; billing_country: string | null }> {
  return db
    .selectFrom('users')
    .select(['email', 'billing_country'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

// ---- Purchases offered per client (`esign purchases hide|offer`) -------------------------------

/** Whether an API key's purchases are hidden; undefined when the key does not exist. */
export async function findApiKeyPurchasesHidden(
  db: Executor,
  apiKeyId: number,
): Promise<boolean | undefined> {
  const key = await db
    .selectFrom('api_keys')
    .select('purchases_hidden')
    .where('id', '=', apiKeyId)
    .executeTakeFirst();
  return key?.purchases_hidden;
}

/** Whether an OAuth client's purchases are hidden; undefined when the client does not exist. */
export async function findOAuthClientPurchasesHidden(
  db: Executor,
  clientId: string,
): Promise<boolean | undefined> {
  const client = await db
    .selectFrom('oauth_clients')
    .select('purchases_hidden')
    .where('id', '=', clientId)
    .executeTakeFirst();
  return client?.purchases_hidden;
}

export async function setApiKeyPurchasesHidden(
  db: Executor,
  apiKeyId: number,
  hidden: boolean,
): Promise<{ id: number; purchases_hidden: boolean } | undefined> {
  return db
    .updateTable('api_keys')
    .set({ purchases_hidden: hidden })
    .where('id', '=', apiKeyId)
    .returning(['id', 'purchases_hidden'])
    .executeTakeFirst();
}

export async function setOAuthClientPurchasesHidden(
  db: Executor,
  clientId: string,
  hidden: boolean,
): Promise<{ id: string; purchases_hidden: boolean } | undefined> {
  return db
    .updateTable('oauth_clients')
    .set({ purchases_hidden: hidden })
    .where('id', '=', clientId)
    .returning(['id', 'purchases_hidden'])
    .executeTakeFirst();
}

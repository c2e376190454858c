import type { CheckoutRow, Executor } from '@esign/db';
import {
  findCheckout,
  findUserCheckout,
  insertCheckoutAuditEvent,
  listUserCheckouts,
} from '@esign/db/queries/billing';
import { type Actor, scopeOf } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { CURRENCY, formatCents } from './money.ts';
import { type CreditPackDto, type PackSnapshot, toCreditPackDto } from './packs.ts';

// A checkout's DTO, audit entries and reads. Starting one: start-checkout.ts; the payment
// provider's answer: settle-checkout.ts.

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

/** What an audit entry of a checkout's change says. */
export interface CheckoutChange {
  type: string;
  by: CheckoutChangeBy;
  data: Record<string, unknown>;
  now: Date;
}

/** Every change of a checkout is recorded in the audit trail, in the change's transaction. */
export async function auditCheckout(
  tx: Executor,
  checkout: Pick<CheckoutRow, 'id' | 'account_id' | 'environment'>,
  change: CheckoutChange,
): Promise<void> {
  const { by } = change;
  await insertCheckoutAuditEvent(tx, {
    checkout,
    type: change.type,
    actorType: by.actorType,
    actorId: by.actorId,
    apiKeyId: by.apiKeyId ?? null,
    ip: by.ip ?? null,
    userAgent: by.userAgent ?? null,
    data: change.data,
    now: change.now,
  });
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /checkouts/{id}: only the user who started the checkout can read it (anyone else: 404). */
export async function requireCheckout(db: Executor, actor: Actor, id: string): Promise<CheckoutRow> {
  const row = UUID.test(id)
    ? await findUserCheckout(db, scopeOf(actor), { userId: actor.userId, id })
    : undefined;
  if (!row) throw notFound('Checkout', id);
  return row;
}

/** The user's latest checkouts on this side of the account (the billing page lists them). */
export async function listRecentCheckouts(db: Executor, actor: Actor, limit = 5): Promise<CheckoutRow[]> {
  return listUserCheckouts(db, scopeOf(actor), { userId: actor.userId, limit });
}

/** A checkout by id alone: for the payment provider's answer and the checkout page (never for users). */
export async function findCheckoutById(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  if (!UUID.test(id)) return undefined;
  return findCheckout(db, id);
}

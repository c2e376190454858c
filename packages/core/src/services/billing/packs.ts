import type { CreditPackRow, Executor } from '@esign/db';
import {
  findAccountPlan,
  findActiveCreditPack,
  insertCreditPack,
  listActiveCreditPacks,
} from '@esign/db/queries/billing';
import { CoreError, notFound } from '../../errors.ts';
import { CURRENCY, formatCents, MAX_PRICE_CENTS, pricePerCredit } from './money.ts';

/** The spec's Credit pack object. */
export interface CreditPackDto {
  object: 'credit_pack';
  id: number;
  name: string;
  description: string | null;
  credits: number | null;
  unlimited: boolean;
  price: string;
  currency: typeof CURRENCY;
  price_per_credit: string | null;
}

/** What a checkout keeps of the pack it sold (the offer shown, whatever happens to the pack later). */
export interface PackSnapshot {
  id: number;
  name: string;
  description: string | null;
  credits: number | null;
  unlimited: boolean;
  /** The list price; the checkout's `amount_cents` is what is charged. */
  price_cents: number;
}

export const snapshotOf = (row: CreditPackRow): PackSnapshot => ({
  id: row.id,
  name: row.name,
  description: row.description,
  credits: row.credits,
  unlimited: row.unlimited,
  price_cents: row.price_cents,
});

/** One mapper for packs and checkout offers: `priceCents` is the discounted price when a code applied. */
export function toCreditPackDto(pack: PackSnapshot, priceCents = pack.price_cents): CreditPackDto {
  return {
    object: 'credit_pack',
    id: pack.id,
    name: pack.name,
    description: pack.description,
    credits: pack.unlimited ? null : pack.credits,
    unlimited: pack.unlimited,
    price: formatCents(priceCents),
    currency: CURRENCY,
    price_per_credit: pack.unlimited || !pack.credits ? null : pricePerCredit(priceCents, pack.credits),
  };
}

export interface NewCreditPack {
  name: string;
  description?: string | null;
  /** Credits in the pack; omit for the lifetime deal. */
  credits?: number | null;
  lifetime?: boolean;
  priceCents: number;
}

/** `esign pack create`: a pack of credits, or the lifetime deal (unlimited, no credit count). */
export async function createCreditPack(
  db: Executor,
  input: NewCreditPack,
  now: Date,
): Promise<CreditPackRow> {
  const name = input.name.trim();
  if (!name || name.length > 200)
    throw new CoreError('invalid_parameter', 'name must be 1 to 200 characters');
  const lifetime = input.lifetime === true;
  if (lifetime && input.credits != null) {
    throw new CoreError('invalid_parameter', 'Give either credits or lifetime, not both');
  }
  if (!lifetime && (input.credits == null || !Number.isInteger(input.credits) || input.credits < 1)) {
    throw new CoreError('invalid_parameter', 'credits must be a positive integer (or choose lifetime)');
  }
  if (!lifetime && input.credits! > 1_000_000_000) {
    throw new CoreError('invalid_parameter', 'credits must be at most 1000000000');
  }
  if (!Number.isInteger(input.priceCents) || input.priceCents < 0 || input.priceCents > MAX_PRICE_CENTS) {
    throw new CoreError('invalid_parameter', 'price must be between 0.00 and 1000000.00');
  }
  return insertCreditPack(db, {
    name,
    description: input.description?.trim() || null,
    credits: lifetime ? null : input.credits!,
    unlimited: lifetime,
    price_cents: input.priceCents,
    created_at: now,
  });
}

async function hasLifetime(db: Executor, accountId: number): Promise<boolean> {
  return (await findAccountPlan(db, accountId)) === 'lifetime';
}

/**
 * GET /credit_packs: every active pack on one page, cheapest first; the lifetime deal is left out
 * for an account that already has it.
 */
export async function listCreditPacks(db: Executor, accountId: number): Promise<CreditPackRow[]> {
  return listActiveCreditPacks(db, { withLifetime: !(await hasLifetime(db, accountId)) });
}

/** The pack a checkout buys: active, and not the lifetime deal for an account that has it. */
export async function requirePurchasablePack(
  db: Executor,
  accountId: number,
  packId: number,
): Promise<CreditPackRow> {
  const pack = await findActiveCreditPack(db, packId);
  if (!pack) throw notFound('Credit pack', packId);
  if (pack.unlimited && (await hasLifetime(db, accountId))) {
    throw new CoreError(
      'already_purchased',
      'This account already has the lifetime deal: sending is unlimited',
    );
  }
  return pack;
}

import type { DiscountCodeRow, Executor, Tx } from '@esign/db';
import {
  creditPackExists,
  discountCodeTaken,
  findDiscountCodeAnyCase,
  insertDiscountCode,
  releaseDiscountCodeUse,
  takeDiscountCodeUse,
} from '@esign/db/queries/billing';
import { CoreError } from '../../errors.ts';
import { type Discount, formatCents, MAX_PRICE_CENTS } from './money.ts';

/** `esign discount create` prints `{ "discount": DiscountDto }`. */
export interface DiscountDto {
  object: 'discount';
  id: number;
  code: string;
  percent_off: number | null;
  amount_off: string | null;
  currency: 'USD';
  credit_pack_id: number | null;
  max_uses: number | null;
  uses: number;
  expires_at: string | null;
  created_at: string;
}

export const toDiscountDto = (row: DiscountCodeRow): DiscountDto => ({
  object: 'discount',
  id: row.id,
  code: row.code,
  percent_off: row.percent_off,
  amount_off: row.amount_off_cents === null ? null : formatCents(row.amount_off_cents),
  currency: 'USD',
  credit_pack_id: row.credit_pack_id,
  max_uses: row.max_uses,
  uses: row.uses,
  expires_at: row.expires_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

export const discountOf = (row: Pick<DiscountCodeRow, 'percent_off' | 'amount_off_cents'>): Discount =>
  row.percent_off !== null
    ? { percentOff: row.percent_off, amountOffCents: null }
    : { percentOff: null, amountOffCents: row.amount_off_cents! };

const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface NewDiscountCode {
  code: string;
  percentOff?: number;
  amountOffCents?: number;
  creditPackId?: number | null;
  maxUses?: number | null;
  expiresAt?: Date | null;
}

/** A discount code: a percentage or a fixed amount off, optionally for one pack, limited uses, expiry. */
export async function createDiscountCode(
  db: Executor,
  input: NewDiscountCode,
  now: Date,
): Promise<DiscountCodeRow> {
  const code = input.code.trim();
  if (!CODE.test(code)) {
    throw new CoreError('invalid_parameter', 'code must be 1 to 64 letters, digits, "-" or "_"');
  }
  const hasPercent = input.percentOff !== undefined;
  if (hasPercent === (input.amountOffCents !== undefined)) {
    throw new CoreError('invalid_parameter', 'Give exactly one of percent or amount');
  }
  if (
    hasPercent &&
    (!Number.isInteger(input.percentOff) || input.percentOff! < 1 || input.percentOff! > 100)
  ) {
    throw new CoreError('invalid_parameter', 'percent must be an integer from 1 to 100');
  }
  if (!hasPercent && (input.amountOffCents! < 1 || input.amountOffCents! > MAX_PRICE_CENTS)) {
    throw new CoreError('invalid_parameter', 'amount must be between 0.01 and 1000000.00');
  }
  if (input.maxUses != null && (!Number.isInteger(input.maxUses) || input.maxUses < 1)) {
    throw new CoreError('invalid_parameter', 'max-uses must be a positive integer');
  }
  if (input.expiresAt && input.expiresAt <= now) {
    throw new CoreError('invalid_parameter', 'expires-at must be in the future');
  }
  if (input.creditPackId != null && !(await creditPackExists(db, input.creditPackId))) {
    throw new CoreError('not_found', `Credit pack ${input.creditPackId} was not found`);
  }
  if (await discountCodeTaken(db, code)) {
    throw new CoreError('invalid_parameter', `A discount code ${code} already exists`);
  }
  return insertDiscountCode(db, {
    code,
    percent_off: hasPercent ? input.percentOff! : null,
    amount_off_cents: hasPercent ? null : input.amountOffCents!,
    credit_pack_id: input.creditPackId ?? null,
    max_uses: input.maxUses ?? null,
    expires_at: input.expiresAt ?? null,
    created_at: now,
  });
}

const invalid = (code: string, why: string) =>
  new CoreError('invalid_discount_code', `The discount code ${JSON.stringify(code)} ${why}`);

/**
 * Counts one use of a code for a new checkout, in the checkout's transaction. The use is taken by
 * one conditional UPDATE, so when many checkouts race for the last use exactly one gets it (the
 * others wait for the row, then see it used up). Unknown, expired, used-up codes and codes for
 * another pack are `invalid_discount_code`.
 */
export async function takeDiscountUse(
  tx: Tx,
  input: { code: string; packId: number; now: Date },
): Promise<DiscountCodeRow> {
  const code = input.code.trim();
  const row = await findDiscountCodeAnyCase(tx, code);
  if (!row || !row.active) throw invalid(code, 'does not exist');
  if (row.expires_at && row.expires_at <= input.now) throw invalid(code, 'has expired');
  if (row.credit_pack_id !== null && row.credit_pack_id !== input.packId) {
    throw invalid(code, `is not valid for credit pack ${input.packId}`);
  }
  const taken = await takeDiscountCodeUse(tx, row.id, input.now);
  if (!taken) throw invalid(code, 'has been used up');
  return taken;
}

/** A checkout that failed gives its use back (called once, on the pending -> failed change). */
export async function releaseDiscountUse(tx: Tx, discountId: number): Promise<void> {
  await releaseDiscountCodeUse(tx, discountId);
}

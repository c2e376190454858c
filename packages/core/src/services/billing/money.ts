import { CoreError } from '../../errors.ts';

/** Every amount of the service is in US dollars (spec: `currency` is always `USD`). */
export const CURRENCY = 'USD';

/** Largest price an operator can set: $1,000,000.00 (keeps cents well inside an int4 column). */
export const MAX_PRICE_CENTS = 100_000_000;

const DECIMAL = /^\d{1,7}(\.\d{1,2})?$/;

/** "19", "19.9", "19.90" -> 1990. Anything else (negative, three decimals, "1e3") is refused. */
export function parseAmount(value: string, name: string): number {
  const v = value.trim();
  if (!DECIMAL.test(v)) {
    throw new CoreError(
      'invalid_parameter',
      `${name} must be a decimal amount such as 19.00, got "${value}"`,
    );
  }
  const [whole, frac = ''] = v.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (cents > MAX_PRICE_CENTS) throw new CoreError('invalid_parameter', `${name} must be at most 1000000.00`);
  return cents;
}

/** 1990 -> "19.90": the spec's decimal string with two places. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Price of one credit as a decimal string: two places, more (up to four) only when two would hide
 * the real figure ($19.00 for 300 credits is "0.0633", not "0.06").
 */
export function pricePerCredit(priceCents: number, credits: number): string {
  // In ten-thousandths of a dollar, rounded half up.
  const units = Math.floor((priceCents * 100 * 2 + credits) / (2 * credits));
  const text = `${Math.floor(units / 10_000)}.${String(units % 10_000).padStart(4, '0')}`;
  return text.replace(/(\.\d\d\d?)0+$/, '$1').replace(/(\.\d\d)0$/, '$1');
}

export type Discount =
  | { percentOff: number; amountOffCents: null }
  | { percentOff: null; amountOffCents: number };

/** The discounted price: a percentage (rounded to the cent) or a fixed amount off, never below zero. */
export function applyDiscount(priceCents: number, discount: Discount | null): number {
  if (!discount) return priceCents;
  const off =
    discount.percentOff !== null
      ? Math.round((priceCents * discount.percentOff) / 100)
      : discount.amountOffCents;
  return Math.max(0, priceCents - off);
}

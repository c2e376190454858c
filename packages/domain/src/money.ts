// Money as people read it (issue 42): amounts come from the API as decimal strings in a currency
// (`"49.00"`, `"USD"`); pages show them in the reader's number format, with the currency's symbol.

/** Intl's currency format: the currency's own minor digits (2 for USD), grouping, symbol. */
const formatter = (currency: string, locale: string | undefined) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency });

/** An amount (`"1234.5"`) in the reader's format (`$1,234.50`, `1.234,50 $`). */
export function formatMoney(amount: string | number, currency: string, locale?: string): string {
  return formatter(currency, locale).format(Number(amount));
}

/**
 * A unit price (`"0.392"` per credit) rounded to the currency's minor unit (`$0.39`), the way a
 * price list shows it. A price above zero but below one minor unit (a cent) would round to nothing
 * or to a cent it is not: it comes back as that one unit with `below: true`, for the caller's words
 * ("less than $0.01").
 */
export function formatUnitPrice(
  amount: string | number,
  currency: string,
  locale?: string,
): { price: string; below: boolean } {
  const f = formatter(currency, locale);
  const value = Number(amount);
  const minor = 10 ** -(f.resolvedOptions().maximumFractionDigits ?? 2);
  if (value > 0 && value < minor) return { price: f.format(minor), below: true };
  return { price: f.format(value), below: false };
}

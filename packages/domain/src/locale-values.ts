import { isValidDate } from './values.ts';

// Number and date field values as a reader of a language writes them (issue 42.6): a German
// signer types `1.234,5` and `31.12.2026`, the service stores 1234.5 and `2026-12-31` (the API's
// one canonical form), and the signing page, its review step and the sealed PDF show them again
// as the signer writes them. One parser and formatter for the page and the server, from Intl: the
// separators, digits and the order of day, month and year are the locale's own.

/** Direction marks Intl puts around numbers and dates in right-to-left languages (`‎-1,234`). */
const BIDI_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The spaces a reader types or Intl writes between groups of digits (fr: U+202F, pl: U+00A0). */
const SPACES = /[\s\u00a0\u202f]/g;

interface NumberSymbols {
  group: string;
  decimal: string;
  /** the locale's digits 0 to 9, when they are not ASCII */
  digits: string[];
}

const numberSymbolsCache = new Map<string, NumberSymbols>();

function numberSymbols(locale: string): NumberSymbols {
  let symbols = numberSymbolsCache.get(locale);
  if (!symbols) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
    const plain = new Intl.NumberFormat(locale, { useGrouping: false });
    symbols = {
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      digits: Array.from({ length: 10 }, (_, d) => plain.format(d)),
    };
    numberSymbolsCache.set(locale, symbols);
  }
  return symbols;
}

/** Text without direction marks, its spaces plain, its digits ASCII and its minus `-`. */
function normalise(raw: string, digits: readonly string[]): string {
  let s = raw.replace(BIDI_MARKS, '').replace(SPACES, ' ').trim();
  digits.forEach((digit, d) => {
    if (digit !== String(d)) s = s.split(digit).join(String(d));
  });
  return s.replace(/^[\u2212\u2012\u2013]/, '-');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A number as a reader of `locale` writes it (`1.234,5` in German, `1 234,5` in French, `1,234.5`
 * in English), or null when it is not one. Groups of digits are optional but must be whole
 * (three digits each); only the locale's decimal separator separates the decimals. So a
 * separator the locale does not read that way is refused, not guessed: `1.5` from a German
 * signer (a group of one digit?), `3,5` from an English one, `1234.5` from a French one.
 */
export function parseLocaleNumber(raw: string, locale: string): number | null {
  const { group, decimal, digits } = numberSymbols(locale);
  const s = normalise(raw, digits);
  const g = group.replace(SPACES, ' ').trim() === '' ? ' ' : group;
  const pattern = new RegExp(
    `^(-?)(\\d{1,3}(?:${escapeRegExp(g)}\\d{3})+|\\d+)(?:${escapeRegExp(decimal)}(\\d+))?$`,
  );
  const m = pattern.exec(s);
  if (!m) return null;
  const n = Number(`${m[1]}${m[2]!.split(g).join('')}${m[3] ? `.${m[3]}` : ''}`);
  return Number.isFinite(n) ? n : null;
}

/** A number as a reader of `locale` writes it, every decimal kept (1234.5 → `1.234,5` in German). */
export function formatLocaleNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 20 }).format(value);
}

interface DateShape {
  /** day, month and year in the locale's order */
  order: ('day' | 'month' | 'year')[];
  digits: string[];
}

const dateShapeCache = new Map<string, DateShape>();

function dateFormat(locale: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'UTC',
  });
}

function dateShape(locale: string): DateShape {
  let shape = dateShapeCache.get(locale);
  if (!shape) {
    const order = dateFormat(locale)
      .formatToParts(new Date(Date.UTC(2026, 11, 31)))
      .map((p) => p.type)
      .filter((t): t is 'day' | 'month' | 'year' => t === 'day' || t === 'month' || t === 'year');
    shape = { order, digits: numberSymbols(locale).digits };
    dateShapeCache.set(locale, shape);
  }
  return shape;
}

const SEPARATOR = String.raw`(?:\s*[./-]\s*|\s+)`;
const DATE_PATTERN = new RegExp(String.raw`^(\d{1,4})${SEPARATOR}(\d{1,4})${SEPARATOR}(\d{1,4})\.?$`);

/**
 * A date as a reader of `locale` writes it (`31.12.2026` in German, `12/31/2026` in English,
 * `31-12-2026` in Dutch), as `YYYY-MM-DD`; or null when it is not a day of the calendar. The
 * canonical `2026-12-31` is read in every locale (a four-digit year first cannot be mistaken).
 * Day, month and year come in the locale's order, separated by `.`, `/`, `-` or a space; a year
 * of two digits is refused (which century?).
 */
export function parseLocaleDate(raw: string, locale: string): string | null {
  const { order, digits } = dateShape(locale);
  const s = normalise(raw, digits);
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return isValidDate(s) ? s : null;
  const m = DATE_PATTERN.exec(s);
  if (!m || order.length !== 3) return null;
  const parts = Object.fromEntries(order.map((name, i) => [name, m[i + 1]!])) as Record<
    'day' | 'month' | 'year',
    string
  >;
  if (parts.year.length !== 4 || parts.month.length > 2 || parts.day.length > 2) return null;
  const iso = `${parts.year}-${parts.month.padStart(2, '0')}-${parts.day.padStart(2, '0')}`;
  return isValidDate(iso) ? iso : null;
}

/** A `YYYY-MM-DD` date as a reader of `locale` writes it (`2026-12-31` → `31.12.2026` in German). */
export function formatLocaleDate(value: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  const date = new Date(0);
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dateFormat(locale).format(date);
}

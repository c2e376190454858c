import { describe, expect, it } from 'vitest';
import {
  formatLocaleDate,
  formatLocaleNumber,
  parseLocaleDate,
  parseLocaleNumber,
} from '../src/locale-values.ts';

// Issue 42 item 6: "Dates and numbers in values follow the signer's locale on the page, in review
// and in the sealed PDF (`1.234,5` accepted from a German signer), stored canonically."

/** The nine languages of @esign/i18n (LOCALES); @esign/domain depends on nothing. */
const NINE = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ar'] as const;

const NUMBERS = [0, 7, -3, 1234.5, 1234567.891, -0.001, 0.30000000000000004, 42_000_000, 1e21];
const DATES = ['2026-12-31', '2026-01-05', '2024-02-29', '1900-07-04', '9999-12-31'];

describe('issue 42.6: numbers and dates in the signer’s locale, stored canonically', () => {
  for (const locale of NINE) {
    it(`${locale}: every number formatted in the locale parses back to the same number`, () => {
      for (const n of NUMBERS) {
        const shown = formatLocaleNumber(n, locale);
        expect(parseLocaleNumber(shown, locale), `${locale} ${n} shown as ${JSON.stringify(shown)}`).toBe(n);
      }
    });

    it(`${locale}: every date formatted in the locale parses back to the same YYYY-MM-DD`, () => {
      for (const d of DATES) {
        const shown = formatLocaleDate(d, locale);
        expect(shown).not.toBe(d);
        expect(parseLocaleDate(shown, locale), `${locale} ${d} shown as ${JSON.stringify(shown)}`).toBe(d);
        expect(parseLocaleDate(d, locale), 'the canonical form is read in every locale').toBe(d);
      }
    });
  }

  it('a German signer’s 1.234,5 is 1234.5; a French signer’s 1 234,5 (any space) too; 1,234.5 in English', () => {
    expect(parseLocaleNumber('1.234,5', 'de')).toBe(1234.5);
    expect(parseLocaleNumber('1234,5', 'de')).toBe(1234.5);
    expect(parseLocaleNumber('-1.234', 'de')).toBe(-1234);
    expect(parseLocaleNumber('1 234,5', 'fr')).toBe(1234.5);
    expect(parseLocaleNumber('1\u202f234,5', 'fr')).toBe(1234.5);
    expect(parseLocaleNumber('1\u00a0234,5', 'pl')).toBe(1234.5);
    expect(parseLocaleNumber('1,234.5', 'en')).toBe(1234.5);
    expect(parseLocaleNumber(' 3.5 ', 'en')).toBe(3.5);
    expect(parseLocaleNumber('\u200e-1,234.5', 'ar')).toBe(-1234.5);
    expect(formatLocaleNumber(1234.5, 'de')).toBe('1.234,5');
  });

  it('ambiguous numbers are refused, not guessed: a separator the locale does not read that way', () => {
    expect(parseLocaleNumber('1.5', 'de'), 'a group of one digit, or a decimal point?').toBeNull();
    expect(parseLocaleNumber('1234.5', 'de')).toBeNull();
    expect(parseLocaleNumber('3,5', 'en'), 'a group of one digit, or a decimal comma?').toBeNull();
    expect(parseLocaleNumber('1234.5', 'fr')).toBeNull();
    expect(parseLocaleNumber('1.23.456', 'de')).toBeNull();
  });

  it('what is not a number is refused', () => {
    for (const raw of ['', 'abc', '1e3', '12a', '--1', '1,2,3', 'Infinity', 'NaN', '0x10', '1,5,']) {
      expect(parseLocaleNumber(raw, 'de'), raw).toBeNull();
      expect(parseLocaleNumber(raw, 'en'), raw).toBeNull();
    }
  });

  it('a German 31.12.2026, an English 12/31/2026 and a Dutch 31-12-2026 are 2026-12-31; the order is the locale’s', () => {
    expect(parseLocaleDate('31.12.2026', 'de')).toBe('2026-12-31');
    expect(parseLocaleDate('1.2.2026', 'de')).toBe('2026-02-01');
    expect(parseLocaleDate('12/31/2026', 'en')).toBe('2026-12-31');
    expect(parseLocaleDate('03/04/2026', 'en')).toBe('2026-03-04');
    expect(parseLocaleDate('03/04/2026', 'fr')).toBe('2026-04-03');
    expect(parseLocaleDate('31-12-2026', 'nl')).toBe('2026-12-31');
    expect(parseLocaleDate('31\u200f/12\u200f/2026', 'ar')).toBe('2026-12-31');
    expect(formatLocaleDate('2026-12-31', 'de')).toBe('31.12.2026');
  });

  it('dates that are ambiguous or not days of the calendar are refused', () => {
    expect(parseLocaleDate('31/12/26', 'fr'), 'a two-digit year: which century?').toBeNull();
    expect(parseLocaleDate('12/31/2026', 'de'), 'month 31').toBeNull();
    expect(parseLocaleDate('30.02.2026', 'de')).toBeNull();
    expect(parseLocaleDate('2026-02-30', 'de')).toBeNull();
    for (const raw of ['', 'tomorrow', '31122026', '31.12', '2026/12/31/1', '31..12.2026']) {
      expect(parseLocaleDate(raw, 'de'), raw).toBeNull();
    }
  });
});

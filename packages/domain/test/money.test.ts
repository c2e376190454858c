import { describe, expect, it } from 'vitest';
import { formatMoney, formatUnitPrice } from '../src/money.ts';

// Issue 42 item 8: the checkout showed "0.392 USD each". Money is written the reader's way, and a
// unit price to the cent, or "less than" a cent when it is smaller.

describe('issue 42: money as people read it', () => {
  it('an amount has the currency symbol, grouping and two decimals in the reader’s format', () => {
    expect(formatMoney('49', 'USD', 'en')).toBe('$49.00');
    expect(formatMoney('1234.5', 'USD', 'en')).toBe('$1,234.50');
    expect(formatMoney('1234.5', 'USD', 'de').replace(/\s/g, ' ')).toBe('1.234,50 $');
    expect(formatMoney('1234.5', 'EUR', 'fr').replace(/\s/g, ' ')).toBe('1 234,50 €');
  });

  it('a unit price is rounded to the cent (0.392 → $0.39), never shown with three decimals', () => {
    expect(formatUnitPrice('0.392', 'USD', 'en')).toEqual({ price: '$0.39', below: false });
    expect(formatUnitPrice('0.395', 'USD', 'en').price).toBe('$0.40');
    expect(formatUnitPrice('0.392', 'USD', 'de').price.replace(/\s/g, ' ')).toBe('0,39 $');
    expect(formatUnitPrice('2', 'USD', 'en')).toEqual({ price: '$2.00', below: false });
  });

  it('a unit price above zero but below a cent says so: less than $0.01, never $0.00', () => {
    expect(formatUnitPrice('0.004', 'USD', 'en')).toEqual({ price: '$0.01', below: true });
    expect(formatUnitPrice('0.0099', 'USD', 'en')).toEqual({ price: '$0.01', below: true });
    expect(formatUnitPrice('0.01', 'USD', 'en')).toEqual({ price: '$0.01', below: false });
    expect(formatUnitPrice('0', 'USD', 'en')).toEqual({ price: '$0.00', below: false });
  });
});

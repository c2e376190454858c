import { describe, expect, it } from 'vitest';
import { gsm7Name, isGsm7 } from '../src/services/sms/segments.ts';

// Issue 44 item 2: SMS texts carry the brand's display name, within GSM-7 where possible (one
// character outside it makes the whole SMS UCS-2: 70 characters a segment instead of 160).

describe('issue 44.2: a brand name in an SMS stays GSM-7 where possible', () => {
  it.each([
    ['Studio Nord', 'Studio Nord'],
    ['Müller & Söhne', 'Müller & Söhne'],
    ['Zoë’s Café', "Zoe's Café"],
    ['Łódź “Best” – Agency', 'Lodz "Best" - Agency'],
  ])('%s → %s (GSM-7)', (name, sent) => {
    expect(gsm7Name(name)).toBe(sent);
    expect(isGsm7(gsm7Name(name))).toBe(true);
  });

  it('a name no plain form can carry (Arabic, Greek lower case, an emoji) stays as written', () => {
    for (const name of ['شركة النور', 'αβγ Studio', 'Sun ☀ Studio']) expect(gsm7Name(name)).toBe(name);
  });
});

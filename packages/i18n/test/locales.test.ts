import { describe, expect, it } from 'vitest';
import {
  canonicalTag,
  direction,
  formatDateTime,
  isLanguageTag,
  matchLocale,
  negotiate,
  resolveLocale,
} from '../src/index.ts';

describe('issue 32 (languages): which language a signer reads', () => {
  it('issue 32: BCP 47 tags are checked (de, pt-BR, zh-Hant-TW valid; "de_DE", "en--US", "x" not)', () => {
    for (const tag of ['de', 'pt-BR', 'zh-Hant-TW', 'ar', 'es-419'])
      expect(isLanguageTag(tag), tag).toBe(true);
    for (const tag of ['toolonglanguage', 'de_DE', 'x', '', 'en--US', 'de DE', `${'a'.repeat(40)}`])
      expect(isLanguageTag(tag), tag).toBe(false);
    expect(canonicalTag('PT-br')).toBe('pt-BR');
  });

  it('issue 32: unsupported but valid tags fall back by language (pt-BR → pt, de-AT → de), else null', () => {
    expect(matchLocale('pt-BR')).toBe('pt');
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('ar-EG')).toBe('ar');
    expect(matchLocale('zh-CN')).toBeNull();
    expect(matchLocale('not a tag')).toBeNull();
  });

  it('issue 32: fallback order signer > request > account > Accept-Language > English', () => {
    const accepted = 'fr-CH,fr;q=0.9,en;q=0.5';
    expect(resolveLocale({ chosen: ['de', 'it', 'es'], accepted })).toBe('de');
    expect(resolveLocale({ chosen: [null, 'it', 'es'], accepted })).toBe('it');
    expect(resolveLocale({ chosen: [null, null, 'es'], accepted })).toBe('es');
    expect(resolveLocale({ chosen: [null, null, null], accepted })).toBe('fr');
    expect(resolveLocale({ chosen: [null, undefined, null] })).toBe('en');
    // A signer asked for in a language we lack reads English, not the request's language.
    expect(resolveLocale({ chosen: ['zh-CN', 'de'], accepted })).toBe('en');
  });

  it('issue 32: Accept-Language is read by q-value, navigator.languages in order', () => {
    expect(negotiate('en;q=0.2, nl;q=0.8, zh')).toBe('nl');
    expect(negotiate(['zh-TW', 'pl-PL', 'en'])).toBe('pl');
    expect(negotiate('zh, ja;q=0.5')).toBeNull();
    expect(negotiate('de;q=0')).toBeNull();
  });

  it('issue 32: Arabic is right to left; dates are written for the reader', () => {
    expect(direction('ar')).toBe('rtl');
    expect(direction('de')).toBe('ltr');
    const at = new Date('2026-11-28T14:05:00Z');
    expect(formatDateTime('de', at)).toContain('28. November 2026');
    expect(formatDateTime('fr', at)).toContain('28 novembre 2026');
  });
});

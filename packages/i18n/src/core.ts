import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { type FormatXMLElementFn, IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import type { Catalogue, MessageKey } from './catalogues/en.ts';

// What the server and the browser share without any catalogue: the languages, BCP 47 matching,
// message formatting and dates. The signing page imports this and loads only its language's
// catalogue (apps/web/src/signing/client/i18n.ts); the server imports index.ts, which has all nine.

export type { Catalogue, MessageFormatElement, MessageKey };

/** The languages a signer can read: their page, emails, consent sentence and audit trail labels. */
export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * The pseudo-language (the tag Android and Chromium use): English accented between ⟦ and ⟧
 * (pseudo.ts). Not in LOCALES: no signer is offered it or can be given it; tests and translators
 * switch it on to see every word that is not from the catalogue.
 */
export const PSEUDO_LOCALE = 'en-XA';
export type PseudoLocale = typeof PSEUDO_LOCALE;

/** Each language's own name, for the language switcher. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  ar: 'العربية',
};

const RTL = new Set<Locale>(['ar']);

/** `rtl` for languages written right to left (the page's `dir`). */
export function direction(locale: Locale): 'ltr' | 'rtl' {
  return RTL.has(locale) ? 'rtl' : 'ltr';
}

/** Longest BCP 47 tag accepted (RFC 5646 recommends supporting at least 35 characters). */
export const MAX_TAG_LENGTH = 35;

/** True for a well-formed BCP 47 language tag (`de`, `pt-BR`, `zh-Hant-TW`), whether or not we speak it. */
export function isLanguageTag(tag: string): boolean {
  if (!tag || tag.length > MAX_TAG_LENGTH || !/^[A-Za-z0-9-]+$/.test(tag)) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** The canonical spelling of a well-formed tag (`PT-br` → `pt-BR`). */
export function canonicalTag(tag: string): string {
  return Intl.getCanonicalLocales(tag)[0] ?? tag;
}

const isLocale = (x: string): x is Locale => (LOCALES as readonly string[]).includes(x);

/**
 * The supported language for a tag, by its language subtag (`pt-BR` → `pt`, `de-AT` → `de`), or
 * null when the tag is malformed or names a language we do not have.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag || !isLanguageTag(tag)) return null;
  const language = new Intl.Locale(tag).language.toLowerCase();
  return isLocale(language) ? language : null;
}

/**
 * The language a signer reads: the first tag given (signer, then request, then account), matched by
 * language and else English: a signer asked for in a language we lack reads English, not the
 * request's language. With no tag at all, the browser's preferences (`Accept-Language` or
 * `navigator.languages`) when there are any, then English.
 */
export function resolveLocale(opts: {
  chosen: (string | null | undefined)[];
  accepted?: readonly string[] | string | null;
}): Locale {
  const first = opts.chosen.find((t): t is string => typeof t === 'string' && t !== '');
  if (first !== undefined) return matchLocale(first) ?? DEFAULT_LOCALE;
  return negotiate(opts.accepted) ?? DEFAULT_LOCALE;
}

/**
 * The first supported language of a browser's preferences: an `Accept-Language` header
 * (`de-CH,de;q=0.9,en;q=0.8`, by q-value) or `navigator.languages` (in order).
 */
export function negotiate(accepted: readonly string[] | string | null | undefined): Locale | null {
  if (!accepted) return null;
  const tags =
    typeof accepted === 'string'
      ? accepted
          .split(',')
          .map((part, i) => {
            const [tag = '', ...params] = part.trim().split(';');
            const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
            const weight = q ? Number(q.slice(2)) : 1;
            return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, i };
          })
          .filter((x) => x.weight > 0)
          .sort((a, b) => b.weight - a.weight || a.i - b.i)
          .map((x) => x.tag)
      : accepted;
  for (const tag of tags) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return null;
}

export type MessageValues = Record<string, PrimitiveType>;

const formats = new Map<string, IntlMessageFormat>();

/** A catalogue as ICU source or parsed ahead (precompile.ts), as intl-messageformat takes either. */
export type CompiledCatalogue = Record<MessageKey, string | MessageFormatElement[]>;

/** The message `key` of `catalogue` (in `locale`), its ICU arguments filled in. */
export function formatMessage(
  catalogue: CompiledCatalogue,
  locale: Locale | PseudoLocale,
  key: MessageKey,
  values?: MessageValues,
): string {
  const id = `${locale}\u0000${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new IntlMessageFormat(catalogue[key], locale);
    formats.set(id, format);
  }
  return String(format.format(values));
}

/** Values for a message with markup (`<link>here</link>`): plain values, elements, and tag functions. */
export type RichValues<T> = Record<string, PrimitiveType | T | FormatXMLElementFn<T>>;

/**
 * `t` and `rich` for any catalogue of ICU messages in one language (the dashboard's, which is not
 * the signers'): each message is compiled on first use and kept.
 */
export function translator<K extends string>(
  catalogue: Readonly<Record<K, string | MessageFormatElement[]>>,
  locale: string,
): {
  t: (key: K, values?: MessageValues) => string;
  rich: <T>(key: K, values: RichValues<T>) => string | T | (string | T)[];
} {
  const compiled = new Map<K, IntlMessageFormat>();
  const formatOf = (key: K) => {
    let format = compiled.get(key);
    if (!format) {
      format = new IntlMessageFormat(catalogue[key], locale);
      compiled.set(key, format);
    }
    return format;
  };
  return {
    t: (key, values) => String(formatOf(key).format(values)),
    rich: (key, values) => formatOf(key).format(values),
  };
}

/** A `t` bound to one language. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

/**
 * A date and time as a reader of `locale` writes it (`28. November 2026 um 14:05 UTC`), in UTC or
 * the given IANA zone.
 */
export function formatDateTime(locale: Locale, date: Date, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(date);
}

/**
 * A date without the time, as a reader of `locale` writes it: `long` in emails (`28. November
 * 2026`), `medium` where every character counts, as in an SMS (`28.11.2026`).
 */
export function formatDate(locale: Locale, date: Date, style: 'long' | 'medium' = 'long'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }).format(date);
}

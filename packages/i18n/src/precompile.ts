import { type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser';
import type { Catalogue, Locale, MessageKey } from './core.ts';

/**
 * A catalogue with every message parsed ahead (ICU AST), for a bundle that formats without the
 * parser (the signing page: `@formatjs/icu-messageformat-parser/no-parser`, FormatJS's
 * "pre-compiled messages"); parsed as intl-messageformat would parse it at run time.
 */
export function precompile(catalogue: Catalogue, locale: Locale): Record<MessageKey, MessageFormatElement[]> {
  return Object.fromEntries(
    Object.entries(catalogue).map(([key, message]) => [
      key,
      parse(message, { locale: new Intl.Locale(locale) }),
    ]),
  ) as Record<MessageKey, MessageFormatElement[]>;
}

/** The ICU parser itself, for checks of catalogues outside this package (the dashboard's). */
export { parse as parseMessage } from '@formatjs/icu-messageformat-parser';

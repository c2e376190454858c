import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
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

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'aeiouyAEIOUYcnCNsSzZ'].map((c, i) => [c, [...'áéíóúýÁÉÍÓÚÝçñÇÑšŠžŽ'][i] ?? c]),
);

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    switch (element.type) {
      case TYPE.literal:
        return { ...element, value: element.value.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c) };
      case TYPE.plural:
      case TYPE.select:
        return {
          ...element,
          options: Object.fromEntries(
            Object.entries(element.options).map(([name, option]) => [
              name,
              { ...option, value: pseudoElements(option.value) },
            ]),
          ),
        };
      case TYPE.tag:
        return { ...element, children: pseudoElements(element.children) };
      default:
        return element;
    }
  });
}

/**
 * The pseudo-language `en-XA` of a message (the tag Android and Chromium use): its words with
 * accents, between ⟦ and ⟧, its arguments, plurals and markup kept. A page shown in it makes
 * every word that is not from the catalogue stand out, and every message that is cut short.
 */
export function pseudoLocalize(message: string): MessageFormatElement[] {
  const literal = (value: string): MessageFormatElement => ({ type: TYPE.literal, value });
  return [literal('⟦'), ...pseudoElements(parse(message)), literal('⟧')];
}

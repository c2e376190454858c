import { ar } from './catalogues/ar.ts';
import { de } from './catalogues/de.ts';
import { type Catalogue, en, type MessageKey } from './catalogues/en.ts';
import { es } from './catalogues/es.ts';
import { fr } from './catalogues/fr.ts';
import { it } from './catalogues/it.ts';
import { nl } from './catalogues/nl.ts';
import { pl } from './catalogues/pl.ts';
import { pt } from './catalogues/pt.ts';
import {
  type CompiledCatalogue,
  formatMessage,
  type Locale,
  type MessageValues,
  PSEUDO_LOCALE,
  type Translate,
} from './core.ts';
import { pseudoCatalogue } from './pseudo.ts';

export * from './core.ts';

/** Every language's catalogue (the server's emails, SMS, audit trail and pages). */
export const CATALOGUES: Record<Locale, Catalogue> = { en, de, fr, es, it, pt, nl, pl, ar };

let pseudo: CompiledCatalogue | null = null;

/**
 * Issue 42.6: every message the server words for signers (emails, SMS, the CC and public-link
 * pages, the signing page's first HTML, the audit trail) in the pseudo-language `en-XA` instead of
 * the reader's language, while `on`; for the tests that look for English not from the catalogue
 * (packages/core/test/pseudo-messages.int.test.ts, apps/web/test/signer-pseudo.int.test.ts).
 * Off unless a test turns it on; no signer is ever given `en-XA`.
 */
export function usePseudoLocale(on: boolean): void {
  pseudo = on ? pseudoCatalogue() : null;
}

/** The message `key` in `locale`, its ICU arguments filled in. */
export function t(locale: Locale, key: MessageKey, values?: MessageValues): string {
  if (pseudo) return formatMessage(pseudo, PSEUDO_LOCALE, key, values);
  return formatMessage(CATALOGUES[locale], locale, key, values);
}

export function translator(locale: Locale): Translate {
  return (key, values) => t(locale, key, values);
}

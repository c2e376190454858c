import { ar } from './catalogues/ar.ts';
import { de } from './catalogues/de.ts';
import { type Catalogue, en, type MessageKey } from './catalogues/en.ts';
import { es } from './catalogues/es.ts';
import { fr } from './catalogues/fr.ts';
import { it } from './catalogues/it.ts';
import { nl } from './catalogues/nl.ts';
import { pl } from './catalogues/pl.ts';
import { pt } from './catalogues/pt.ts';
import { formatMessage, type Locale, type MessageValues, type Translate } from './core.ts';

export * from './core.ts';

/** Every language's catalogue (the server's emails, SMS, audit trail and pages). */
export const CATALOGUES: Record<Locale, Catalogue> = { en, de, fr, es, it, pt, nl, pl, ar };

/** The message `key` in `locale`, its ICU arguments filled in. */
export function t(locale: Locale, key: MessageKey, values?: MessageValues): string {
  return formatMessage(CATALOGUES[locale], locale, key, values);
}

export function translator(locale: Locale): Translate {
  return (key, values) => t(locale, key, values);
}

import type { Executor } from '@esign/db';
import { findAccountLocale } from '@esign/db/queries/accounts';
import { type Locale, negotiate, resolveLocale } from '@esign/i18n';

/** Where a reader's language came from (the fallback order of docs/sending.md, "Languages"). */
type LocaleSource = 'signer' | 'request' | 'account' | 'browser' | 'default';

export interface ReaderLocale {
  locale: Locale;
  source: LocaleSource;
}

/**
 * The language a signer reads: their own `locale`, else the request's, else the account's default,
 * else (on a page) the browser's Accept-Language, else English. A tag we have no translation for
 * reads its language when we have it (`pt-BR` → Portuguese), else English: the first tag set
 * decides, a later one is not consulted.
 */
export async function readerLocale(
  db: Executor,
  opts: {
    signer?: { locale: string | null } | null;
    request: { locale: string | null; account_id: number };
    acceptLanguage?: string | null;
    /** The account's default when the caller read it with its own statement (undefined: read here). */
    account?: string | null;
  },
): Promise<ReaderLocale> {
  const own = opts.signer?.locale ?? null;
  if (own) return { locale: resolveLocale({ chosen: [own] }), source: 'signer' };
  if (opts.request.locale)
    return { locale: resolveLocale({ chosen: [opts.request.locale] }), source: 'request' };
  const account =
    opts.account !== undefined ? opts.account : await findAccountLocale(db, opts.request.account_id);
  if (account) return { locale: resolveLocale({ chosen: [account] }), source: 'account' };
  const browser = negotiate(opts.acceptLanguage);
  if (browser) return { locale: browser, source: 'browser' };
  return { locale: 'en', source: 'default' };
}

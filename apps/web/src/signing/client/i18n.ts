import { en } from '@esign/i18n/catalogues/en';
import {
  type Catalogue,
  type CompiledCatalogue,
  direction,
  formatMessage,
  LANGUAGE_NAMES,
  LOCALES,
  type Locale,
  type MessageKey,
  type MessageValues,
  matchLocale,
  negotiate,
  PSEUDO_LOCALE,
} from '@esign/i18n/core';
import { background, h } from './dom.ts';

/**
 * The signing page's language: what signing.open names (the signer's, the request's or the
 * account's language, else the browser's Accept-Language), unless the signer switched on the page
 * (kept for this link in this browser's localStorage, and stored as the signer's language with
 * signing.setLocale). `<html lang>` and `dir` follow it.
 *
 * The bundle carries English only (the fallback); every other catalogue is its own file, imported
 * when the page needs it (issue 32: the page loads one language, not nine). A language is applied
 * once its catalogue is here, so the page never shows English words in its place. The build parses
 * the messages ahead (scripts/build-signing.ts), so the page carries no ICU parser.
 */
/**
 * Where this browser keeps the language chosen on this page: one entry per link, so that the
 * choice of one signer never becomes another's when a second link is opened in the same browser.
 * The key holds a 32-bit FNV-1a hash of the path, not the path: the link is a bearer secret.
 */
function storeKey(): string {
  const path = globalThis.location?.pathname ?? '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return `esign.locale.${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** One import per language, so the bundler writes each catalogue as its own chunk. */
const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<Catalogue>> = {
  de: () => import('@esign/i18n/catalogues/de').then((m) => m.de),
  fr: () => import('@esign/i18n/catalogues/fr').then((m) => m.fr),
  es: () => import('@esign/i18n/catalogues/es').then((m) => m.es),
  it: () => import('@esign/i18n/catalogues/it').then((m) => m.it),
  pt: () => import('@esign/i18n/catalogues/pt').then((m) => m.pt),
  nl: () => import('@esign/i18n/catalogues/nl').then((m) => m.nl),
  pl: () => import('@esign/i18n/catalogues/pl').then((m) => m.pl),
  ar: () => import('@esign/i18n/catalogues/ar').then((m) => m.ar),
};

const catalogues: Partial<Record<Locale, CompiledCatalogue>> = { en };
const loading = new Map<Locale, Promise<CompiledCatalogue>>();

/** The catalogue of `locale`, fetched once; English when it cannot be loaded (offline, a stale page). */
async function catalogueOf(locale: Locale): Promise<Locale> {
  if (catalogues[locale]) return locale;
  if (locale === 'en') return 'en';
  let pending = loading.get(locale);
  if (!pending) {
    pending = LOADERS[locale]();
    loading.set(locale, pending);
  }
  try {
    catalogues[locale] = await pending;
    return locale;
  } catch {
    loading.delete(locale);
    return 'en';
  }
}

function stored(): Locale | null {
  try {
    return matchLocale(globalThis.localStorage?.getItem(storeKey()));
  } catch {
    return null;
  }
}

let current: Locale = 'en';

/**
 * Issue 42.6: `localStorage['esign.signing.locale'] = 'en-XA'` shows every message in the
 * pseudo-language (@esign/i18n/pseudo: accented between ⟦ and ⟧), whatever the signer's language,
 * so a word on the page that is not from the catalogue stands out (tests, translators; like the
 * dashboard's `esign.dashboard.locale`). Never offered in the language switcher.
 */
const pseudoAsked = (() => {
  try {
    return globalThis.localStorage?.getItem('esign.signing.locale') === PSEUDO_LOCALE;
  } catch {
    return false;
  }
})();
let pseudo: CompiledCatalogue | null = null;

/** The message `key` in the page's language (English for a key its catalogue lacks). */
export function tr(key: MessageKey, values?: MessageValues): string {
  if (pseudo) return formatMessage(pseudo, PSEUDO_LOCALE, key, values);
  const catalogue = catalogues[current] ?? en;
  return formatMessage(catalogue, catalogues[current] ? current : 'en', key, values);
}

export function pageLocale(): Locale {
  return current;
}

/** Shows the page in `locale` once its catalogue is loaded (English if it cannot be). */
async function applyLocale(locale: Locale): Promise<void> {
  current = await catalogueOf(locale);
  if (pseudoAsked && !pseudo) pseudo = (await import('@esign/i18n/pseudo')).pseudoCatalogue();
  if (typeof document === 'undefined') return;
  document.documentElement.lang = pseudo ? PSEUDO_LOCALE : current;
  document.documentElement.dir = direction(current);
}

/**
 * Started as the script runs, beside signing.open: the language this browser chose before, else
 * the server's guess from Accept-Language (the shell's `<html lang>`), else navigator.languages.
 */
const first =
  stored() ??
  matchLocale(globalThis.document?.documentElement.lang) ??
  negotiate(globalThis.navigator?.languages);
const ready = applyLocale(first ?? 'en');

/** Waits for the first language (for pages shown before signing.open answered). */
export function localeReady(): Promise<void> {
  return ready;
}

/**
 * The page's language once signing.open answered: the signer's own switch on this browser wins,
 * and is stored as the signer's language when it differs from what the server has (the code gate
 * first: until the code is entered, the switch stays in this browser).
 */
export async function adoptOpenLocale(open: {
  locale: Locale;
  preview?: boolean;
  code_required?: boolean;
}): Promise<void> {
  await ready;
  const chosen = stored();
  await applyLocale(chosen ?? open.locale);
  if (chosen && chosen !== open.locale && !open.preview && !open.code_required) rememberOnServer(chosen);
}

let remember: (locale: Locale) => void = () => {};

/** What keeps a chosen language beyond this browser (main.ts: signing.setLocale). */
export function onLocaleChosen(fn: (locale: Locale) => void): void {
  remember = fn;
}

const rememberOnServer = (locale: Locale) => remember(locale);

/**
 * The language switcher: a labelled select of every language in its own name. Choosing one keeps
 * it for this browser and the signer, loads its catalogue, then calls `onChange` (the page is
 * shown again in it).
 */
export function languageSwitcher(onChange: () => void): HTMLElement {
  const select = h(
    'select',
    { id: 'lang', class: 'lang-select', 'aria-label': tr('lang.label') },
    LOCALES.map((l) => h('option', { value: l, lang: l, selected: l === current }, LANGUAGE_NAMES[l])),
  );
  select.addEventListener('change', () => {
    const chosen = matchLocale(select.value);
    if (!chosen) return;
    try {
      window.localStorage.setItem(storeKey(), chosen);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
    rememberOnServer(chosen);
    background(applyLocale(chosen).then(onChange));
  });
  return h('div', { class: 'lang-switch' }, select);
}

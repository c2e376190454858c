import {
  direction,
  LANGUAGE_NAMES,
  LOCALES,
  type Locale,
  type MessageKey,
  type MessageValues,
  matchLocale,
  negotiate,
  t,
} from '@esign/i18n';
import { h } from './dom.ts';

/**
 * The signing page's language: what signing.open names (the signer's, the request's or the
 * account's language, else the browser's Accept-Language), unless the signer switched on the page
 * (kept for this browser in localStorage). `<html lang>` and `dir` follow it.
 */
const STORE_KEY = 'esign.locale';

function stored(): Locale | null {
  try {
    return matchLocale(globalThis.localStorage?.getItem(STORE_KEY));
  } catch {
    return null;
  }
}

let current: Locale = stored() ?? negotiate(globalThis.navigator?.languages) ?? 'en';

/** The message `key` in the page's language. */
export function tr(key: MessageKey, values?: MessageValues): string {
  return t(current, key, values);
}

export function pageLocale(): Locale {
  return current;
}

function applyLocale(locale: Locale): void {
  current = locale;
  if (typeof document === 'undefined') return;
  document.documentElement.lang = locale;
  document.documentElement.dir = direction(locale);
}

/** The page's language once signing.open answered: the signer's own switch wins. */
export function adoptOpenLocale(open: { locale: Locale }): void {
  applyLocale(stored() ?? open.locale);
}

/**
 * The language switcher: a labelled select of every language in its own name. Choosing one keeps
 * it for this browser and calls `onChange` (the page is shown again in it).
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
      window.localStorage.setItem(STORE_KEY, chosen);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
    applyLocale(chosen);
    onChange();
  });
  return h('div', { class: 'lang-switch' }, select);
}

applyLocale(current);

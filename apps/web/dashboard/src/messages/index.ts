import { type MessageFormatElement, translator } from '@esign/i18n/core';
import { pseudoLocalize } from '@esign/i18n/precompile';
import { createElement, Fragment, type ReactNode } from 'react';
import { account } from './account.ts';
import { brands } from './brands.ts';
import { common } from './common.ts';
import { requests } from './requests.ts';
import { settings } from './settings.ts';
import { signIn } from './sign-in.ts';
import { templates } from './templates.ts';

/**
 * The dashboard's words, ready to translate (issue 32: the dashboard stays English for now): one
 * catalogue of ICU messages, kept in a file per part of the dashboard and looked up by key. No page
 * writes English inline; apps/web/test/dashboard-words.test.ts reads every source file and fails on
 * a word that is not from here. A second language is a catalogue with these keys, checked like
 * packages/i18n's.
 *
 * - `msg(key)`: a message without arguments.
 * - `t(key, values)`: with ICU arguments, plurals and selects (`{count, plural, one {# field} other
 *   {# fields}}`).
 * - `tx(key, values)`: with markup whose tags become elements (`Read <link>the guide</link>`).
 *
 * The pseudo-language `en-XA` (set `localStorage['esign.dashboard.locale'] = 'en-XA'`) shows every
 * message accented between ⟦ and ⟧, so a word that is not from the catalogue stands out on screen;
 * apps/web/test/dashboard-pseudo.int.test.ts looks at the pages in it.
 */
const parts = { common, templates, requests, account, settings, signIn, brands };

export const messages = Object.assign({}, ...Object.values(parts)) as typeof common &
  typeof templates &
  typeof requests &
  typeof account &
  typeof settings &
  typeof signIn &
  typeof brands;

/** Each part's keys, to check that no key is defined twice. */
export const messageParts: Record<string, Record<string, string>> = parts;

export type DashboardMessageKey = keyof typeof messages;

/** `en`, or the pseudo-language `en-XA` when this browser asked for it. */
export const dashboardLocale: 'en' | 'en-XA' =
  typeof localStorage !== 'undefined' && localStorage.getItem('esign.dashboard.locale') === 'en-XA'
    ? 'en-XA'
    : 'en';

const catalogue: Record<DashboardMessageKey, string | MessageFormatElement[]> =
  dashboardLocale === 'en-XA'
    ? (Object.fromEntries(
        Object.entries(messages).map(([key, message]) => [key, pseudoLocalize(message)]),
      ) as Record<DashboardMessageKey, MessageFormatElement[]>)
    : messages;

const translate = translator<DashboardMessageKey>(catalogue, 'en');

/** The dashboard's message `key`, which takes no arguments. */
export function msg(key: DashboardMessageKey): string {
  return translate.t(key);
}

/** The dashboard's message `key` with its ICU arguments filled in. */
export const t: (
  key: DashboardMessageKey,
  values?: Record<string, string | number | boolean | Date | null | undefined>,
) => string = translate.t;

/** The dashboard's message `key` with elements for its arguments and tags (`<link>…</link>`). */
export function tx(
  key: DashboardMessageKey,
  values: Record<string, string | number | ReactNode | ((chunks: ReactNode[]) => ReactNode)>,
): ReactNode {
  const result = translate.rich<ReactNode>(key, values as Parameters<typeof translate.rich<ReactNode>>[1]);
  return createElement(Fragment, null, ...(Array.isArray(result) ? result : [result]));
}

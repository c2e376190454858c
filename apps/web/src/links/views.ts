import { direction, type Locale, t } from '@esign/i18n';
import { layout } from '../billing/views.ts';
import { brandStrip, type PageBrand } from '../http/brand-strip.ts';

// Server-rendered HTML of a template's public signing link (/l/{token}): plain forms posting back
// to this origin, no script, readable on a phone and with a screen reader; in the visitor's
// language (Accept-Language, @esign/i18n `link.*`).

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const alert = (error: string | null) =>
  error ? `<p class="error" role="alert" id="form-error">${esc(error)}</p>` : '';
const described = (error: string | null) => (error ? ' aria-describedby="form-error"' : '');

/** The shared page layout with `<html lang dir>` of the visitor's language. */
export function localePage(locale: Locale, title: string, body: string): string {
  return layout(title, body).replace(
    '<html lang="en">',
    `<html lang="${locale}" dir="${direction(locale)}">`,
  );
}

export interface LinkFormModel {
  locale: Locale;
  title: string;
  error: string | null;
  name?: string;
  email?: string;
  /** Issue 44: the template's brand (else the account's default) above the page. */
  brand?: PageBrand | null;
}

/** Step 1: who is signing. */
export function detailsPage(m: LinkFormModel): string {
  const tr = (key: Parameters<typeof t>[1], values?: Parameters<typeof t>[2]) =>
    esc(t(m.locale, key, values));
  return localePage(
    m.locale,
    t(m.locale, 'link.page_title', { title: m.title }),
    `${brandStrip(m.brand)}<h1>${esc(m.title)}</h1>
<p>${tr('link.intro')}</p>
${alert(m.error)}
<form method="post" class="card" novalidate>
<label for="name">${tr('link.name')}</label>
<input id="name" name="name" autocomplete="name" required maxlength="200" value="${esc(m.name)}"${described(m.error)}>
<label for="email">${tr('link.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required maxlength="254" value="${esc(m.email)}"${described(m.error)}>
<p><button type="submit">${tr('link.send')}</button></p>
</form>`,
  );
}

/** Step 2: the emailed code. */
export function codePage(m: LinkFormModel & { visit: string; action: string }): string {
  const tr = (key: Parameters<typeof t>[1]) => esc(t(m.locale, key));
  const sent = esc(t(m.locale, 'link.code_sent', { email: '\u0000' })).replace(
    '\u0000',
    `<strong>${esc(m.email)}</strong>`,
  );
  return localePage(
    m.locale,
    t(m.locale, 'link.code_page_title', { title: m.title }),
    `${brandStrip(m.brand)}<h1>${esc(m.title)}</h1>
<p role="status">${sent}</p>
${alert(m.error)}
<form method="post" action="${esc(m.action)}" class="card" novalidate>
<input type="hidden" name="visit" value="${esc(m.visit)}">
<input type="hidden" name="name" value="${esc(m.name)}">
<input type="hidden" name="email" value="${esc(m.email)}">
<label for="code">${tr('link.code_label')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="12" required${described(m.error)}>
<p><button type="submit">${tr('link.confirm')}</button></p>
</form>`,
  );
}

/** A link that cannot be used: turned off, full, or unknown. */
export function closedPage(locale: Locale, title: string, message: string, brand?: PageBrand | null): string {
  return localePage(
    locale,
    title,
    `${brandStrip(brand)}<h1>${esc(title)}</h1><p class="card" role="status">${esc(message)}</p>`,
  );
}

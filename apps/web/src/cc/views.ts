import type { CcView } from '@esign/core/schemas/recipients';
import { formatDateTime, type Locale, t } from '@esign/i18n';
import { brandStrip } from '../http/brand-strip.ts';
import { localePage } from '../links/views.ts';

// Server-rendered HTML of a CC recipient's read-only link (/cc/{token}, issue 34.1): the documents
// and who has signed so far. No script, no form: nothing on it can sign or change anything. In the
// request's language, as the CC emails (issue 42.6, @esign/i18n `cc.*`).

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A signer's status as the page says it (`ready` and `sent` are both "Invited"). */
const signerWord = (status: CcView['signers'][number]['status']) =>
  `cc.signer.${status === 'ready' ? 'sent' : status}` as const;

/** The read-only page of one request, as a CC recipient sees it. */
export function ccPage(v: CcView): string {
  const locale = v.locale;
  const tr = (key: Parameters<typeof t>[1], values?: Parameters<typeof t>[2]) => esc(t(locale, key, values));
  const date = (iso: string | null) => (iso ? formatDateTime(locale, new Date(iso)) : '');
  const signers = v.signers
    .map(
      (s) =>
        `<tr><td>${esc(s.name ?? s.role ?? t(locale, 'cc.a_signer'))}${s.name && s.role ? ` <span class="muted">(${esc(s.role)})</span>` : ''}</td><td>${tr(signerWord(s.status))}</td><td>${esc(date(s.signed_at))}</td></tr>`,
    )
    .join('');
  const files = [
    ...v.documents.map((d) => ({ label: d.name, url: d.url })),
    ...(v.audit_trail_url ? [{ label: t(locale, 'cc.audit_trail'), url: v.audit_trail_url }] : []),
  ]
    .map((f) => `<li><a href="${esc(f.url)}">${esc(f.label)}</a> (PDF)</li>`)
    .join('');
  const which = v.status === 'completed' && v.audit_trail_url ? 'cc.signed_documents' : 'cc.documents';
  return localePage(
    locale,
    t(locale, 'cc.page_title', { title: v.title }),
    `${brandStrip(v.brand)}<h1>${esc(v.title)}</h1>
<p class="muted">${v.sender ? tr('cc.lead_by', { sender: v.sender }) : tr('cc.lead')}</p>
<p class="card" role="status"><strong>${tr(`cc.status.${v.status}`)}</strong>${v.completed_at ? ` · ${esc(date(v.completed_at))}` : ''}</p>
<h2>${tr('cc.signers')}</h2>
<table><thead><tr><th>${tr('cc.col_signer')}</th><th>${tr('cc.col_status')}</th><th>${tr('cc.col_signed')}</th></tr></thead><tbody>${signers}</tbody></table>
<h2>${tr(which)}</h2>
<ul>${files}</ul>
<p class="muted">${tr('cc.footer', { date: date(v.created_at) })}</p>`,
  );
}

/** An unknown or withdrawn CC link, in the browser's language. */
export function ccNotFound(locale: Locale): string {
  return localePage(
    locale,
    t(locale, 'cc.not_found.title'),
    `<h1>${esc(t(locale, 'cc.not_found.title'))}</h1><p class="card" role="status">${esc(t(locale, 'cc.not_found.body'))}</p>`,
  );
}

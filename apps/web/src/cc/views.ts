import type { CcView } from '@esign/core/schemas/recipients';
import { layout } from '../billing/views.ts';

// Server-rendered HTML of a CC recipient's read-only link (/cc/{token}, issue 34.1): the documents
// and who has signed so far. No script, no form: nothing on it can sign or change anything.

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STATUS_WORDS: Record<string, string> = {
  sent: 'Waiting for signatures',
  in_progress: 'Being signed',
  completed: 'Completed: everyone has signed',
  declined: 'Declined by a signer',
  canceled: 'Canceled by the sender',
  expired: 'Expired',
};

const SIGNER_WORDS: Record<string, string> = {
  waiting: 'Not yet their turn',
  ready: 'Invited',
  sent: 'Invited',
  viewed: 'Opened the document',
  signed: 'Signed',
  declined: 'Declined',
};

const date = (iso: string | null) => (iso ? new Date(iso).toUTCString().replace(' GMT', ' UTC') : '');

/** The read-only page of one request, as a CC recipient sees it. */
export function ccPage(v: CcView): string {
  const signers = v.signers
    .map(
      (s) =>
        `<tr><td>${esc(s.name ?? s.role ?? 'Signer')}${s.name && s.role ? ` <span class="muted">(${esc(s.role)})</span>` : ''}</td><td>${esc(SIGNER_WORDS[s.status] ?? s.status)}</td><td>${esc(date(s.signed_at))}</td></tr>`,
    )
    .join('');
  const files = [
    ...v.documents.map((d) => ({ label: d.name, url: d.url })),
    ...(v.audit_trail_url ? [{ label: 'Audit trail', url: v.audit_trail_url }] : []),
  ]
    .map((f) => `<li><a href="${esc(f.url)}">${esc(f.label)}</a> (PDF)</li>`)
    .join('');
  const which = v.status === 'completed' && v.audit_trail_url ? 'Signed documents' : 'Documents';
  return layout(
    `${v.title} (copy)`,
    `<h1>${esc(v.title)}</h1>
<p class="muted">You were copied on this request${v.sender ? ` by ${esc(v.sender)}` : ''}. This page is read-only: it cannot be used to sign.</p>
<p class="card" role="status"><strong>${esc(STATUS_WORDS[v.status] ?? v.status)}</strong>${v.completed_at ? ` · ${esc(date(v.completed_at))}` : ''}</p>
<h2>Signers</h2>
<table><thead><tr><th>Signer</th><th>Status</th><th>Signed</th></tr></thead><tbody>${signers}</tbody></table>
<h2>${which}</h2>
<ul>${files}</ul>
<p class="muted">Sent ${esc(date(v.created_at))}. Links to the files work for a limited time; reload this page for fresh ones.</p>`,
  );
}

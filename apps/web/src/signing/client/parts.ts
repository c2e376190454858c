import { signing } from './api.ts';
import { h } from './dom.ts';
import { notifyHost } from './embed.ts';
import { CLOSED, toApiError } from './errors.ts';
import { pageLocale, tr } from './i18n.ts';
import { modal } from './modal.ts';
import { isHosted, signerInput } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { declinedView, type StatusView, viewForError } from './status.ts';
import { safeRedirect } from './values.ts';

// Issue 47 (docs/roles.md): the page of an approver (Approve, or Reject with a reason) and of a
// viewer (I have read the documents). Neither fills a field; the documents show every value
// entered so far. Hosted in person, the participant types their name to confirm it is them.

/** In a hosted session: the name input the participant confirms themselves with; else null. */
export function confirmName(page: SigningPage): { field: HTMLElement[]; input: HTMLInputElement } | null {
  if (!isHosted()) return null;
  const name = page.open.signer.name ?? page.open.signer.email ?? '';
  const input = h('input', { id: 'confirm-name', type: 'text', autocomplete: 'off', maxLength: 200 });
  return { field: [h('label', { for: 'confirm-name' }, tr('hosted.confirm_label', { name })), input], input };
}

const doneView = (kind: 'approved' | 'acknowledged'): StatusView => ({
  kind: 'done',
  title: tr(`part.${kind}.title`),
  body: tr(`part.${kind}.body`),
});

/** After a hosted step the device goes back to its host (the redirect the server names). */
function close(page: SigningPage, view: StatusView, redirect: string | null): void {
  page.done = true;
  const host = page.open.hosted_by;
  page.flow.close(host ? { ...view, body: tr('hosted.returning', { host: host.name ?? host.email }) } : view);
  if (redirect) window.location.assign(redirect);
}

/** Approve or I have read: a dialog (the name, when hosted), then signing.approve / acknowledge. */
async function finishPart(page: SigningPage, kind: 'approver' | 'viewer'): Promise<void> {
  if (page.done) return;
  const confirm = confirmName(page);
  let outcome: { view: StatusView; redirect: string | null } | null = null;
  const label = kind === 'approver' ? tr('part.approve') : tr('part.acknowledge');
  const dialog = modal({
    title: label,
    description: tr(`part.${kind}.intro`),
    content: confirm?.field ?? [],
    submitLabel: label,
    initialFocus: () => confirm?.input,
    async submit() {
      const input = { ...signerInput(), locale: pageLocale(), confirmed_name: confirm?.input.value };
      try {
        const call = kind === 'approver' ? signing.approve : signing.acknowledge;
        const res = await call.mutate(input);
        // Their part is done: an approval or a reading confirmation is the embed's `signed`.
        notifyHost('signed', { signature_request_id: page.open.request.id });
        outcome = {
          view: doneView(kind === 'approver' ? 'approved' : 'acknowledged'),
          redirect: safeRedirect(res.redirect_url),
        };
        return null;
      } catch (e) {
        const err = toApiError(e);
        if (!CLOSED.has(err.code)) return { error: err.message, input: confirm?.input ?? null };
        outcome = { view: viewForError(err.code, err.message, err.messageKey), redirect: null };
        return null;
      }
    },
  });
  await dialog.result;
  if (outcome)
    close(page, (outcome as { view: StatusView }).view, (outcome as { redirect: string | null }).redirect);
}

/** Reject: a dialog asks for the reason; signing.reject declines the request with it. */
async function reject(page: SigningPage): Promise<void> {
  if (page.done) return;
  let outcome: StatusView | null = null;
  const reason = h('textarea', { id: 'reject-reason', rows: 4, maxLength: 2000 });
  const dialog = modal({
    title: tr('part.reject.title'),
    content: [h('label', { for: 'reject-reason' }, tr('part.reject.label')), reason],
    submitLabel: tr('part.reject'),
    danger: true,
    initialFocus: () => reason,
    async submit() {
      const text = reason.value.trim();
      if (!text) return { error: tr('part.reject.missing'), input: reason };
      try {
        await signing.reject.mutate({ ...signerInput(), reason: text });
        notifyHost('declined', { signature_request_id: page.open.request.id });
        outcome = { ...declinedView(), title: tr('part.rejected.title') };
        return null;
      } catch (e) {
        const err = toApiError(e);
        if (!CLOSED.has(err.code)) return { error: err.message, input: reason };
        outcome = viewForError(err.code, err.message, err.messageKey);
        return null;
      }
    },
  });
  await dialog.result;
  if (outcome) close(page, outcome, null);
}

/** The bar's buttons of an approver or a viewer. */
export function partButtons(page: SigningPage): HTMLButtonElement[] {
  const button = (label: string, cls: string, run: (p: SigningPage) => Promise<void>) => {
    const b = h('button', { type: 'button', class: `btn ${cls}` }, label);
    b.addEventListener('click', () => {
      run(page).catch(() => undefined);
    });
    return b;
  };
  if (page.open.signer.kind === 'approver') {
    return [
      button(tr('part.reject'), 'ghost', reject),
      button(tr('part.approve'), 'primary', (p) => finishPart(p, 'approver')),
    ];
  }
  return [button(tr('part.acknowledge'), 'primary', (p) => finishPart(p, 'viewer'))];
}

import { signing } from './api.ts';
import { h } from './dom.ts';
import { notifyHost } from './embed.ts';
import { CLOSED, toApiError } from './errors.ts';
import { tr } from './i18n.ts';
import { modal } from './modal.ts';
import { signerInput } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { declinedView, type StatusView, viewForError } from './status.ts';

/** Decline: a dialog asks for the reason, signing.decline records it, the page says it is done. */
export async function decline(page: SigningPage): Promise<void> {
  if (page.done) return;
  let outcome: StatusView | null = null;
  const reason = h('textarea', {
    id: 'decline-reason',
    rows: 4,
    maxLength: 2000,
    'aria-describedby': 'decline-hint',
  });
  const dialog = modal({
    title: tr('decline.title'),
    description: tr('decline.description'),
    content: [
      h('label', { for: 'decline-reason' }, tr('decline.label')),
      h('p', { id: 'decline-hint', class: 'hint' }, tr('decline.hint')),
      reason,
    ],
    submitLabel: tr('decline.submit'),
    danger: true,
    initialFocus: () => reason,
    async submit() {
      const text = reason.value.trim();
      if (!text) return { error: tr('decline.missing'), input: reason };
      try {
        await signing.decline.mutate({ ...signerInput(), reason: text });
        outcome = declinedView();
        notifyHost('declined', { signature_request_id: page.open.request.id });
        return null;
      } catch (e) {
        const err = toApiError(e);
        if (!CLOSED.has(err.code))
          return { error: tr('decline.failed', { reason: err.message }), input: reason };
        outcome = viewForError(err.code, err.message, err.messageKey);
        return null;
      }
    },
  });
  await dialog.result;
  if (!outcome) return page.ui.decline.focus();
  page.done = true;
  page.flow.close(outcome);
}

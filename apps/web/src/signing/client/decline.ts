import { signing } from './api.ts';
import { h } from './dom.ts';
import { notifyHost } from './embed.ts';
import { CLOSED, toApiError } from './errors.ts';
import { modal } from './modal.ts';
import { signerInput } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { DECLINED, type StatusView, viewForError } from './status.ts';

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
    title: 'Decline to sign',
    description:
      'The sender will be told that you declined, with your reason. You cannot sign this document afterwards.',
    content: [
      h('label', { for: 'decline-reason' }, 'Reason for declining (required)'),
      h('p', { id: 'decline-hint', class: 'hint' }, 'For example: the details in the document are wrong.'),
      reason,
    ],
    submitLabel: 'Decline',
    danger: true,
    initialFocus: () => reason,
    async submit() {
      const text = reason.value.trim();
      if (!text) return { error: 'Enter a reason for declining.', input: reason };
      try {
        await signing.decline.mutate({ ...signerInput(), reason: text });
        outcome = DECLINED;
        notifyHost('declined', { signature_request_id: page.open.request.id });
        return null;
      } catch (e) {
        const err = toApiError(e);
        if (!CLOSED.has(err.code)) return { error: `Could not decline: ${err.message}`, input: reason };
        outcome = viewForError(err.code, err.message);
        return null;
      }
    },
  });
  await dialog.result;
  if (!outcome) return page.ui.decline.focus();
  page.done = true;
  page.flow.close(outcome);
}

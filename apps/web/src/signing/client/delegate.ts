import { signing } from './api.ts';
import { h } from './dom.ts';
import { CLOSED, toApiError } from './errors.ts';
import { modal } from './modal.ts';
import { signerInput } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { type StatusView, viewForError } from './status.ts';

// Issue 34.3, "hand my turn to someone else": a button in the signing bar when the sender allowed
// it (open.allow_delegation), a dialog asking who signs instead (name, email or phone) and why,
// then signing.delegate; this link stops working and the page says so.

/** The English strings of this component, grouped for the translation catalogue. */
const DELEGATE_TEXT = {
  button: 'Someone else signs',
  title: 'Hand this to someone else',
  description:
    'Name the person who should sign instead of you. They get their own link and start from an empty form; what you entered is discarded. The sender is told, with your reason. Your link stops working.',
  name: 'Their full name (required)',
  email: 'Their email address',
  phone: 'Or their phone number',
  contactHint: 'An email address or a phone number in international format, for example +49 30 1234567.',
  reason: 'Why should they sign instead of you? (required)',
  reasonHint: 'For example: I no longer work in this role; my colleague handles this contract.',
  submit: 'Hand it over',
  needName: 'Enter the name of the person who signs instead.',
  needContact: 'Enter their email address or their phone number.',
  badEmail: 'Enter a valid email address, like name@example.com.',
  needReason: 'Enter a reason.',
  failed: 'Could not hand it over:',
  doneTitle: 'Handed to someone else',
  doneBody: (name: string) =>
    `${name} will sign instead of you and the sender has been told. This link no longer works; you can close this page.`,
} as const;

/** The bar's button; null when the sender did not allow handing on (or in the editor's preview). */
export function delegateButton(page: SigningPage): HTMLButtonElement | null {
  if (!page.open.allow_delegation || page.open.preview) return null;
  const button = h('button', { type: 'button', class: 'btn ghost' }, DELEGATE_TEXT.button);
  button.addEventListener('click', () => {
    delegate(page).then(
      (done) => (done ? undefined : button.focus()),
      () => button.focus(),
    );
  });
  return button;
}

function field(id: string, label: string, input: HTMLInputElement | HTMLTextAreaElement, hint?: string) {
  if (hint) input.setAttribute('aria-describedby', `${id}-hint`);
  return h(
    'div',
    { class: 'delegate-field' },
    h('label', { for: id }, label),
    hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
    input,
  );
}

function inputs() {
  return {
    name: h('input', { id: 'delegate-name', type: 'text', maxLength: 200, autocomplete: 'off' }),
    email: h('input', { id: 'delegate-email', type: 'email', maxLength: 254, autocomplete: 'off' }),
    phone: h('input', { id: 'delegate-phone', type: 'tel', maxLength: 30, autocomplete: 'off' }),
    reason: h('textarea', { id: 'delegate-reason', rows: 3, maxLength: 2000 }),
  };
}

/** Opens the dialog; resolves true when the turn was handed on (the page then shows the outcome). */
async function delegate(page: SigningPage): Promise<boolean> {
  if (page.done) return false;
  const i = inputs();
  let outcome: StatusView | null = null;
  const dialog = modal({
    title: DELEGATE_TEXT.title,
    description: DELEGATE_TEXT.description,
    content: [
      field('delegate-name', DELEGATE_TEXT.name, i.name),
      field('delegate-email', DELEGATE_TEXT.email, i.email),
      field('delegate-phone', DELEGATE_TEXT.phone, i.phone, DELEGATE_TEXT.contactHint),
      field('delegate-reason', DELEGATE_TEXT.reason, i.reason, DELEGATE_TEXT.reasonHint),
    ],
    submitLabel: DELEGATE_TEXT.submit,
    initialFocus: () => i.name,
    async submit() {
      const name = i.name.value.trim();
      const email = i.email.value.trim();
      const phone = i.phone.value.trim();
      const reason = i.reason.value.trim();
      if (!name) return { error: DELEGATE_TEXT.needName, input: i.name };
      if (!email && !phone) return { error: DELEGATE_TEXT.needContact, input: i.email };
      if (email && !i.email.checkValidity()) return { error: DELEGATE_TEXT.badEmail, input: i.email };
      if (!reason) return { error: DELEGATE_TEXT.needReason, input: i.reason };
      try {
        await signing.delegate.mutate({
          ...signerInput(),
          name,
          reason,
          ...(email ? { email } : {}),
          ...(phone ? { phone } : {}),
        });
        outcome = { kind: 'done', title: DELEGATE_TEXT.doneTitle, body: DELEGATE_TEXT.doneBody(name) };
        return null;
      } catch (e) {
        const err = toApiError(e);
        if (!CLOSED.has(err.code)) return { error: `${DELEGATE_TEXT.failed} ${err.message}`, input: null };
        outcome = viewForError(err.code, err.message);
        return null;
      }
    },
  });
  await dialog.result;
  if (!outcome) return false;
  page.done = true;
  page.flow.close(outcome);
  return true;
}

import { LANGUAGE_NAMES, LOCALES } from '@esign/i18n/core';
import { signing } from './api.ts';
import { h } from './dom.ts';
import { type ApiError, CLOSED, toApiError } from './errors.ts';
import { pageLocale, tr } from './i18n.ts';
import { modal } from './modal.ts';
import { signerInput } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { type StatusView, viewForError } from './status.ts';

// Issue 34.3, "hand my turn to someone else": a button in the signing bar when the sender allowed
// it (open.allow_delegation), a dialog asking who signs instead (name, email or phone) and why,
// and in which language they read, then signing.delegate; this link stops working and the page says so. Every word is in the page's
// language (@esign/i18n `delegate.*`).

/** The bar's button; null when the sender did not allow handing on (or in the editor's preview). */
export function delegateButton(page: SigningPage): HTMLButtonElement | null {
  if (!page.open.allow_delegation || page.open.preview) return null;
  const button = h('button', { type: 'button', class: 'btn ghost' }, tr('delegate.button'));
  button.addEventListener('click', () => {
    delegate(page).then(
      (done) => (done ? undefined : button.focus()),
      () => button.focus(),
    );
  });
  return button;
}

/** The characters a phone number may have (signing.delegate's input schema): refused here, at the input. */
const PHONE_PATTERN = /^\+?[0-9 ()./-]{5,30}$/;

function field(
  id: string,
  label: string,
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  hint?: string,
) {
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
    // The new person's language (issue 32): the page's own to begin with.
    locale: h(
      'select',
      { id: 'delegate-locale' },
      LOCALES.map((l) => h('option', { value: l, lang: l, selected: l === pageLocale() }, LANGUAGE_NAMES[l])),
    ),
  };
}

/**
 * The server's refusal at the input it is about (issue 42.6), marked invalid: a missing contact at
 * the email, the signer's own address or number, or a number that is not one, at that input.
 */
function refusal(
  err: ApiError,
  i: ReturnType<typeof inputs>,
  given: { email: string; phone: string },
): { error: string; input: HTMLElement | null } {
  const ownContact = given.email ? i.email : i.phone;
  const input =
    err.messageKey === 'error.delegation_contact'
      ? i.email
      : err.messageKey === 'error.delegation_self'
        ? ownContact
        : err.messageKey === 'error.delegation_phone'
          ? i.phone
          : null;
  return { error: input ? err.message : tr('delegate.failed', { reason: err.message }), input };
}

/** Opens the dialog; resolves true when the turn was handed on (the page then shows the outcome). */
async function delegate(page: SigningPage): Promise<boolean> {
  if (page.done) return false;
  const i = inputs();
  let outcome: StatusView | null = null;
  const dialog = modal({
    title: tr('delegate.title'),
    description: tr('delegate.description'),
    content: [
      field('delegate-name', tr('delegate.name'), i.name),
      field('delegate-email', tr('delegate.email'), i.email),
      field('delegate-phone', tr('delegate.phone'), i.phone, tr('delegate.contact_hint')),
      field('delegate-locale', tr('delegate.language'), i.locale),
      field('delegate-reason', tr('delegate.reason'), i.reason, tr('delegate.reason_hint')),
    ],
    submitLabel: tr('delegate.submit'),
    initialFocus: () => i.name,
    async submit() {
      const name = i.name.value.trim();
      const email = i.email.value.trim();
      const phone = i.phone.value.trim();
      const reason = i.reason.value.trim();
      if (!name) return { error: tr('delegate.need_name'), input: i.name };
      if (!email && !phone) return { error: tr('delegate.need_contact'), input: i.email };
      if (email && !i.email.checkValidity()) return { error: tr('link.bad_email'), input: i.email };
      if (phone && !PHONE_PATTERN.test(phone)) return { error: tr('error.delegation_phone'), input: i.phone };
      if (!reason) return { error: tr('delegate.need_reason'), input: i.reason };
      try {
        await signing.delegate.mutate({
          ...signerInput(),
          name,
          reason,
          locale: i.locale.value,
          ...(email ? { email } : {}),
          ...(phone ? { phone } : {}),
        });
        outcome = {
          kind: 'done',
          title: tr('delegate.done_title'),
          body: tr('delegate.done_body', { name }),
        };
        return null;
      } catch (e) {
        const err = toApiError(e);
        if (!CLOSED.has(err.code)) return refusal(err, i, { email, phone });
        outcome = viewForError(err.code, err.message, err.messageKey);
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

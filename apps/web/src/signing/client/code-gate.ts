import { signing } from './api.ts';
import { h } from './dom.ts';
import { CLOSED, toApiError } from './errors.ts';
import type { Flow } from './screen.ts';
import { showScreen } from './screen.ts';
import { keepSession, signerInput } from './session.ts';
import { codeErrorMessage, viewForError } from './status.ts';
import type { OpenResult } from './types.ts';

/**
 * The email code gate (require_email_otp): the signer asks for a one-time code, then enters it;
 * signing.verifyCode sets the session cookie that opens the document.
 */
export function showCodeGate(open: OpenResult, flow: Flow): void {
  // A signer reached by SMS gets the code by SMS (issue 32).
  const words = open.signer.code_channel === 'sms' ? SMS_WORDS : EMAIL_WORDS;
  document.title = words.title;
  const heading = h('h1', { tabindex: -1 }, words.title);
  const status = h('p', { class: 'note', role: 'status' });
  const code = codeForm(flow, words);
  const send = sendCodeButton(flow, { status, words }, () => {
    code.form.hidden = false;
    // Entering the code is the main action now; asking again goes below it.
    code.form.after(send.row);
    code.input.focus();
  });
  const what = open.request.title ? `“${open.request.title}”` : 'this document';
  showScreen([
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h(
        'div',
        { class: 'card' },
        heading,
        h('p', null, words.lead(what, open.signer.email)),
        send.row,
        send.error,
        status,
        code.form,
      ),
    ),
  ]);
  heading.focus();
}

const EMAIL_WORDS = {
  title: 'Confirm your email address',
  lead: (what: string, email: string | null) =>
    `To open ${what}, enter a one-time code that we email to ${email ?? 'you'}.`,
  button: 'Email me a code',
  label: 'Code from the email',
  hint: 'Check your inbox, and the spam folder if it is not there.',
  short: 'Enter the code from the email.',
};
const SMS_WORDS: typeof EMAIL_WORDS = {
  title: 'Confirm your phone number',
  lead: (what: string) => `To open ${what}, enter a one-time code that we text to your phone.`,
  button: 'Text me a code',
  label: 'Code from the text message',
  hint: 'It can take a minute to arrive.',
  short: 'Enter the code from the text message.',
};

/** "Email me a code": signing.requestCode, then says where the code went and until when. */
function sendCodeButton(
  flow: Flow,
  o: { status: HTMLElement; words: typeof EMAIL_WORDS },
  onSent: () => void,
) {
  const { status } = o;
  const button = h('button', { type: 'button', class: 'btn primary' }, o.words.button);
  const row = h('div', { class: 'row' }, button);
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  button.addEventListener('click', async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      const res = await signing.requestCode.mutate(signerInput());
      const until = new Date(res.expires_at);
      const time = until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      status.textContent = `We sent a code to ${res.to}.${
        Number.isNaN(until.getTime()) ? '' : ` It expires at ${time}.`
      }`;
      button.textContent = 'Send a new code';
      button.className = 'btn';
      onSent();
    } catch (e) {
      const err = toApiError(e);
      if (CLOSED.has(err.code)) return flow.close(viewForError(err.code, err.message));
      error.textContent = codeErrorMessage('request', err.code, err.message, err.retryAfterSeconds);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  return { row, error };
}

/** The code input and Verify: signing.verifyCode, then the document opens (the session is an HTTP-only cookie). */
function codeForm(flow: Flow, words: typeof EMAIL_WORDS) {
  const input = h('input', {
    id: 'code',
    type: 'text',
    inputMode: 'numeric',
    autocomplete: 'one-time-code',
    maxLength: 12,
    spellcheck: false,
    'aria-describedby': 'code-hint',
  });
  const codeError = h('p', { id: 'code-error', class: 'form-error', hidden: true });
  const verify = h('button', { type: 'submit', class: 'btn primary' }, 'Verify');
  const setError = (msg: string | null) => {
    codeError.textContent = msg ?? '';
    codeError.hidden = !msg;
    if (msg) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    input.setAttribute('aria-describedby', msg ? 'code-hint code-error' : 'code-hint');
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const code = input.value.replace(/\s+/g, '');
    if (code.length < 4) {
      setError(words.short);
      input.focus();
      return;
    }
    verify.disabled = true;
    try {
      // The answer sets the session cookie and returns the session; the page opens again with it.
      const res = await signing.verifyCode.mutate({ ...signerInput(), code });
      keepSession(res.session);
      flow.restart();
    } catch (err) {
      const { code: c, message, retryAfterSeconds } = toApiError(err);
      if (CLOSED.has(c)) return flow.close(viewForError(c, message));
      setError(codeErrorMessage('verify', c, message, retryAfterSeconds));
      input.focus();
    } finally {
      verify.disabled = false;
    }
  };
  const form = h(
    'form',
    { class: 'code-form', hidden: true, novalidate: true, onsubmit: submit },
    h('label', { for: 'code' }, words.label),
    h('p', { id: 'code-hint', class: 'hint' }, words.hint),
    input,
    codeError,
    h('div', { class: 'row' }, verify),
  );
  return { form, input };
}

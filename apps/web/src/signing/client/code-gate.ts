import type { MessageKey } from '@esign/i18n/core';
import { signing } from './api.ts';
import { h } from './dom.ts';
import { CLOSED, toApiError } from './errors.ts';
import { languageSwitcher, pageLocale, tr } from './i18n.ts';
import type { Flow } from './screen.ts';
import { showScreen } from './screen.ts';
import { keepSession, signerInput } from './session.ts';
import { codeErrorMessage, viewForError } from './status.ts';
import type { OpenResult } from './types.ts';

/**
 * The code gate (require_email_otp): the signer asks for a one-time code, then enters it;
 * signing.verifyCode sets the session cookie that opens the document.
 */
export function showCodeGate(open: OpenResult, flow: Flow): void {
  // A signer reached by SMS gets the code by SMS (issue 32): the same page in SMS words.
  const say = wordsFor(open.signer.code_channel === 'sms' ? 'sms' : 'email');
  document.title = say('code.title');
  const heading = h('h1', { tabindex: -1 }, say('code.title'));
  const status = h('p', { class: 'note', role: 'status' });
  const code = codeForm(flow, say);
  const send = sendCodeButton(flow, { status, say }, () => {
    code.form.hidden = false;
    // Entering the code is the main action now; asking again goes below it.
    code.form.after(send.row);
    code.input.focus();
  });
  showScreen([
    h(
      'main',
      { id: 'main', class: 'status-page' },
      h(
        'div',
        { class: 'card' },
        h('div', { class: 'card-top' }, heading, languageSwitcher(flow.restart)),
        h(
          'p',
          null,
          open.request.title
            ? say('code.intro_titled', {
                title: open.request.title,
                email: open.signer.email ?? tr('code.you'),
              })
            : say('code.intro', { email: open.signer.email ?? tr('code.you') }),
        ),
        send.row,
        send.error,
        status,
        code.form,
      ),
    ),
  ]);
  heading.focus();
}

/** The keys whose words differ when the code comes by SMS (their `_sms` twins in the catalogues). */
type ChannelKey =
  | 'code.title'
  | 'code.intro_titled'
  | 'code.intro'
  | 'code.send'
  | 'code.label'
  | 'code.hint'
  | 'code.too_short';
type Say = (key: ChannelKey, values?: Parameters<typeof tr>[1]) => string;

function wordsFor(channel: 'email' | 'sms'): Say {
  return (key, values) => tr((channel === 'sms' ? `${key}_sms` : key) as MessageKey, values);
}

/** "Email me a code" (or "Text me a code"): signing.requestCode, then says where the code went and until when. */
function sendCodeButton(flow: Flow, o: { status: HTMLElement; say: Say }, onSent: () => void) {
  const { status } = o;
  const button = h('button', { type: 'button', class: 'btn primary' }, o.say('code.send'));
  const row = h('div', { class: 'row' }, button);
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  button.addEventListener('click', async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      const res = await signing.requestCode.mutate(signerInput());
      const until = new Date(res.expires_at);
      const time = until.toLocaleTimeString(pageLocale(), { hour: '2-digit', minute: '2-digit' });
      // `to`: the email address, or the phone masked (+49 ••• 67).
      status.textContent = Number.isNaN(until.getTime())
        ? tr('code.sent', { email: res.to })
        : tr('code.sent_until', { email: res.to, time });
      button.textContent = tr('code.send_again');
      button.className = 'btn';
      onSent();
    } catch (e) {
      const err = toApiError(e);
      if (CLOSED.has(err.code)) return flow.close(viewForError(err.code, err.message, err.messageKey));
      error.textContent = codeErrorMessage('request', err.code, err.message, err.retryAfterSeconds);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  return { row, error };
}

/** The code input and Verify: signing.verifyCode, then the document opens (the session is an HTTP-only cookie). */
function codeForm(flow: Flow, say: Say) {
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
  const verify = h('button', { type: 'submit', class: 'btn primary' }, tr('code.verify'));
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
      setError(say('code.too_short'));
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
      const { code: c, message, retryAfterSeconds, messageKey } = toApiError(err);
      if (CLOSED.has(c)) return flow.close(viewForError(c, message, messageKey));
      setError(codeErrorMessage('verify', c, message, retryAfterSeconds));
      input.focus();
    } finally {
      verify.disabled = false;
    }
  };
  const form = h(
    'form',
    { class: 'code-form', hidden: true, novalidate: true, onsubmit: submit },
    h('label', { for: 'code' }, say('code.label')),
    h('p', { id: 'code-hint', class: 'hint' }, say('code.hint')),
    input,
    codeError,
    h('div', { class: 'row' }, verify),
  );
  return { form, input };
}

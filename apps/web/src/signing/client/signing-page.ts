import { decline } from './decline.ts';
import { delegateButton } from './delegate.ts';
import { renderDocument } from './document-view.ts';
import { announce, background, h } from './dom.ts';
import { goNext } from './field-actions.ts';
import { paintField, updateProgress } from './field-display.ts';
import { finish } from './finish.ts';
import { introText } from './intro-text.ts';
import type { Flow } from './screen.ts';
import { showScreen } from './screen.ts';
import { createSigningPage, leaveSigningPage, type SigningPage } from './signing-state.ts';
import type { OpenResult } from './types.ts';

/** The signing screen: the bar with progress and actions, the sender's message, the documents. */
export function showSigningPage(open: OpenResult, flow: Flow): SigningPage {
  const page = createSigningPage(open, flow);
  const { ui } = page;
  ui.next.addEventListener('click', (e) => background(goNext(page, e.detail === 0 ? 'keyboard' : 'pointer')));
  ui.finish.addEventListener('click', () => background(finish(page)));
  ui.decline.addEventListener('click', () => background(decline(page)));

  const title = open.request.title || 'Document';
  document.title = `Sign: ${title}`;
  const main = h(
    'main',
    { id: 'main', class: 'docs', 'aria-labelledby': 'doc-title' },
    senderMessage(open),
    h('p', { class: 'intro' }, introText(page), othersNote(open)),
    ui.summary,
    open.documents.map((d) => renderDocument(page, d)),
  );
  showScreen([signingBar(page, title), main], () => leaveSigningPage(page));
  main.addEventListener('focusin', (e) => {
    const id = (e.target as HTMLElement).dataset?.field;
    if (id) page.lastFieldId = id;
  });
  for (const f of page.fields) paintField(page, f);
  updateProgress(page);
  const fillable = page.fields.filter((f) => !f.prefilled);
  const required = fillable.filter((f) => f.required).length;
  announce(
    `${title}. ${fillable.length} field${fillable.length === 1 ? '' : 's'} to fill in, ${required} required.`,
  );
  return page;
}

function signingBar(page: SigningPage, title: string): HTMLElement {
  const { open, ui } = page;
  const who = open.signer.name || open.signer.email;
  return h(
    'header',
    { class: 'bar' },
    h(
      'div',
      { class: 'bar-text' },
      h('h1', { id: 'doc-title' }, title),
      h(
        'p',
        { class: 'who' },
        who ? `Signing as ${who}${open.signer.role ? ` (${open.signer.role})` : ''}` : null,
        open.preview ? `Preview as ${open.signer.role}: nothing you enter is saved ` : null,
        open.preview ? h('span', { class: 'badge' }, 'Preview') : null,
        open.request.test_mode ? h('span', { class: 'badge' }, 'Test') : null,
      ),
    ),
    h(
      'div',
      { class: 'bar-actions' },
      h('p', { class: 'bar-status' }, ui.progress, ui.saveStatus),
      open.preview ? null : ui.decline,
      delegateButton(page),
      ui.fit,
      ui.next,
      ui.finish,
    ),
  );
}

function senderMessage(open: OpenResult): HTMLElement | null {
  const message = open.request.message;
  if (!message?.body) return null;
  return h(
    'section',
    { class: 'message', 'aria-label': 'Message from the sender' },
    message.subject ? h('h2', null, message.subject) : null,
    h('p', null, message.body),
  );
}

function othersNote(open: OpenResult): string {
  if (!open.filled_by_others.length) return '';
  const names = [...new Set(open.filled_by_others.map((f) => f.signer_name ?? f.role))];
  return ` What ${names.join(' and ')} already signed is shown on the document as it will appear in the signed copy.`;
}

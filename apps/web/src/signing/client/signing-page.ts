import { decline } from './decline.ts';
import { delegateButton } from './delegate.ts';
import { renderDocument } from './document-view.ts';
import { announce, background, h } from './dom.ts';
import { goNext } from './field-actions.ts';
import { paintField, updateProgress } from './field-display.ts';
import { finish } from './finish.ts';
import { applyForm } from './form.ts';
import { languageSwitcher, pageLocale, tr } from './i18n.ts';
import { introText } from './intro-text.ts';
import { partButtons } from './parts.ts';
import { saveNow } from './saving.ts';
import type { Flow } from './screen.ts';
import { showScreen } from './screen.ts';
import { createSigningPage, leaveSigningPage, type SigningPage } from './signing-state.ts';
import type { OpenResult } from './types.ts';

/** The signing screen: the bar with progress and actions, the sender's message, the documents. */
export function showSigningPage(open: OpenResult, flow: Flow): SigningPage {
  const page = createSigningPage(open, flow);
  applyForm(page);
  const { ui } = page;
  ui.next.addEventListener('click', (e) => background(goNext(page, e.detail === 0 ? 'keyboard' : 'pointer')));
  ui.finish.addEventListener('click', () => background(finish(page)));
  ui.decline.addEventListener('click', () => background(decline(page)));

  const title = open.request.title || tr('sign.document');
  document.title = tr('sign.doc_title', { title });
  const main = h(
    'main',
    { id: 'main', class: 'docs', 'aria-labelledby': 'doc-title' },
    senderMessage(open),
    hostedBanner(open),
    h(
      'p',
      { class: 'intro' },
      open.signer.kind === 'signer' ? introText(page) : tr(`part.${open.signer.kind}.intro`),
      othersNote(open),
    ),
    ui.summary,
    open.documents.map((d) => renderDocument(page, d)),
  );
  showScreen([signingBar(page, title), main], () => leaveSigningPage(page));
  main.addEventListener('focusin', (e) => {
    const id = (e.target as HTMLElement).dataset?.field;
    if (id) page.lastFieldId = id;
  });
  applyForm(page);
  for (const f of page.fields) paintField(page, f);
  updateProgress(page);
  const fillable = page.fields.filter((f) => !f.prefilled);
  const required = fillable.filter((f) => f.required).length;
  announce(tr('sign.announce', { title, fields: fillable.length, required }));
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
        who
          ? open.signer.role
            ? tr('sign.signing_as_role', { who, role: open.signer.role })
            : tr('sign.signing_as', { who })
          : null,
        open.preview ? `${tr('sign.preview_as', { role: open.signer.role ?? '' })} ` : null,
        open.preview ? h('span', { class: 'badge' }, tr('sign.badge_preview')) : null,
        open.request.test_mode ? h('span', { class: 'badge' }, tr('sign.badge_test')) : null,
      ),
    ),
    languageSwitcher(() => background(switchLanguage(page))),
    open.signer.kind === 'signer'
      ? h(
          'div',
          { class: 'bar-actions' },
          h('p', { class: 'bar-status' }, ui.progress, ui.saveStatus),
          open.preview ? null : ui.decline,
          delegateButton(page),
          ui.fit,
          ui.next,
          ui.finish,
        )
      : h('div', { class: 'bar-actions' }, ui.fit, partButtons(page)),
  );
}

/** Issue 47: hosted in person, the page says by whom. */
function hostedBanner(open: OpenResult): HTMLElement | null {
  if (!open.hosted_by) return null;
  const host = open.hosted_by.name ?? open.hosted_by.email;
  return h('p', { class: 'message hosted-banner', role: 'note' }, tr('hosted.banner', { host }));
}

function senderMessage(open: OpenResult): HTMLElement | null {
  const message = open.request.message;
  if (!message?.body) return null;
  return h(
    'section',
    { class: 'message', 'aria-label': tr('sign.sender_message') },
    message.subject ? h('h2', null, message.subject) : null,
    h('p', null, message.body),
  );
}

function othersNote(open: OpenResult): string {
  if (!open.filled_by_others.length) return '';
  const names = [...new Set(open.filled_by_others.map((f) => f.signer_name ?? f.role))];
  const list = new Intl.ListFormat(pageLocale(), { type: 'conjunction' }).format(names);
  return ` ${tr('sign.others_note', { names: list })}`;
}

/** The signer chose another language: what they entered is saved, then the page opens again in it. */
async function switchLanguage(page: SigningPage): Promise<void> {
  window.clearTimeout(page.saveTimer);
  if (page.dirty.size) await saveNow(page);
  while (page.saving) await page.saving.catch(() => {});
  page.flow.restart();
}

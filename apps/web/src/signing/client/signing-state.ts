import { h } from './dom.ts';
import { tr } from './i18n.ts';
import type { Flow } from './screen.ts';
import type { DocumentInfo, FieldValue, OpenResult, PageInfo, SigningField } from './types.ts';
import { fromStored, orderFields } from './values.ts';
import { fitButton } from './zoom.ts';

/** The controls of the signing bar and the error summary above the document. */
export interface SigningUi {
  progress: HTMLElement;
  saveStatus: HTMLElement;
  next: HTMLButtonElement;
  finish: HTMLButtonElement;
  decline: HTMLButtonElement;
  /** back to the fitted page width after a readable zoom (phones) */
  fit: HTMLButtonElement;
  summary: HTMLElement;
}

/** One signing screen: the opened link, the values the signer has entered, what is unsaved. */
export interface SigningPage {
  open: OpenResult;
  /** the signer's fields in reading order */
  fields: SigningField[];
  values: Map<string, FieldValue>;
  /** fields changed since the last save */
  dirty: Set<string>;
  /** required fields marked empty by the last Finish */
  invalid: Set<string>;
  /** issue 46: what the form's validation says of a field (by id), shown in its tip */
  formMessages: Map<string, string>;
  /** the elements drawn for each field's areas; the first is its tab stop */
  overlays: Map<string, HTMLElement[]>;
  pages: Map<string, PageInfo>;
  lastFieldId: string | null;
  saveTimer: number | undefined;
  saving: Promise<unknown> | null;
  /** signed, declined or left: late answers and timers do nothing */
  done: boolean;
  ui: SigningUi;
  flow: Flow;
}

export const pageKey = (doc: number, page: number) => `${doc}:${page}`;

/** Every page of a document, from signing.open's runs of equal page sizes. */
export function documentPages(doc: DocumentInfo): PageInfo[] {
  const pages: PageInfo[] = [];
  for (const [count, width, height] of doc.page_sizes)
    for (let i = 0; i < count; i++) pages.push({ number: pages.length + 1, width, height });
  return pages;
}

export function createSigningPage(open: OpenResult, flow: Flow): SigningPage {
  const fields = orderFields(open.fields);
  const pages = new Map<string, PageInfo>();
  for (const d of open.documents) for (const p of documentPages(d)) pages.set(pageKey(d.index, p.number), p);
  return {
    open,
    fields,
    values: new Map(fields.map((f) => [f.id, fromStored(f, f.value)])),
    dirty: new Set(),
    invalid: new Set(),
    formMessages: new Map(),
    overlays: new Map(fields.map((f) => [f.id, []])),
    pages,
    lastFieldId: null,
    saveTimer: undefined,
    saving: null,
    done: false,
    ui: {
      progress: h('span', { class: 'progress' }),
      saveStatus: h('span', { class: 'save-status' }),
      next: h('button', { type: 'button', class: 'btn' }, tr('sign.next')),
      finish: h('button', { type: 'button', class: 'btn primary' }, tr('sign.finish')),
      decline: h('button', { type: 'button', class: 'btn ghost' }, tr('sign.decline')),
      fit: fitButton(() => document.getElementById('main')),
      summary: h('div', { class: 'error-summary', tabindex: -1, hidden: true }),
    },
    flow,
  };
}

/** Stops the screen: no more autosave, answers arriving later are ignored. */
export function leaveSigningPage(page: SigningPage): void {
  window.clearTimeout(page.saveTimer);
  page.done = true;
}

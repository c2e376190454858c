import { type Child, h, nextId } from './dom.ts';
import { tr } from './i18n.ts';

export interface SubmitError {
  error: string;
  /** the input the message belongs to: it gets aria-invalid and aria-describedby */
  input?: HTMLElement | null;
}

export interface ModalOptions {
  title: string;
  description?: string;
  content: Child[];
  submitLabel: string;
  danger?: boolean;
  /** words shown right next to the submit button (the consent sentence beside Sign) */
  footNote?: string;
  /** buttons shown on the left of the footer (for example Clear) */
  extra?: HTMLButtonElement[];
  initialFocus?: () => HTMLElement | null | undefined;
  onOpen?: (dialog: HTMLDialogElement) => void;
  /** Saves; returns an error to show (the dialog stays open) or null to close. */
  submit(): Promise<SubmitError | null> | SubmitError | null;
}

export interface Modal {
  /** resolves true when submitted, false when cancelled (Cancel, close button or Escape) */
  result: Promise<boolean>;
  close(submitted: boolean): void;
}

/**
 * The dialog's error line and the input it marks invalid (aria-invalid, aria-describedby). The line
 * stands right below that input (issue 42.6: never out of sight at the foot of a long dialog); an
 * error of no one input stays at the foot, announced as an alert.
 */
function errorLine() {
  const errId = nextId('dlg-err');
  const el = h('p', { id: errId, class: 'form-error', hidden: true });
  const home = h('div', {}, el);
  let marked: HTMLElement | null = null;
  const clear = () => {
    el.hidden = true;
    el.textContent = '';
    el.removeAttribute('role');
    home.append(el);
    if (!marked) return;
    marked.removeAttribute('aria-invalid');
    const ids = (marked.getAttribute('aria-describedby') ?? '').split(' ').filter((i) => i && i !== errId);
    if (ids.length) marked.setAttribute('aria-describedby', ids.join(' '));
    else marked.removeAttribute('aria-describedby');
    marked = null;
  };
  const show = (e: SubmitError) => {
    clear();
    el.textContent = e.error;
    el.hidden = false;
    const input = e.input ?? null;
    if (!input) return el.setAttribute('role', 'alert');
    input.after(el);
    marked = input;
    input.setAttribute('aria-invalid', 'true');
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    input.setAttribute('aria-describedby', [...ids, errId].join(' '));
    input.focus();
  };
  return { el: home, clear, show, hasMarked: () => !el.hidden && marked !== null };
}

/** Runs the submit once at a time, with the button busy meanwhile; closes on success. */
function submitHandler(
  opts: ModalOptions,
  button: HTMLButtonElement,
  error: ReturnType<typeof errorLine>,
  done: () => void,
) {
  let busy = false;
  return async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    busy = true;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    try {
      const res = await opts.submit();
      if (res) error.show(res);
      else done();
    } finally {
      busy = false;
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  };
}

function footer(opts: ModalOptions, cancel: HTMLButtonElement, submit: HTMLButtonElement, noteId: string) {
  const note = opts.footNote ? h('p', { id: noteId, class: 'sheet-note' }, opts.footNote) : null;
  if (note) submit.setAttribute('aria-describedby', noteId);
  return h(
    'div',
    { class: `sheet-foot${note ? ' with-note' : ''}` },
    note,
    h('div', { class: 'extra' }, opts.extra ?? []),
    cancel,
    submit,
  );
}

/**
 * A modal dialog on the native <dialog> element: it traps focus, Escape cancels, the rest of the
 * page is inert. On narrow screens the stylesheet turns it into a bottom sheet.
 */
export function modal(opts: ModalOptions): Modal {
  const titleId = nextId('dlg-title');
  const descId = nextId('dlg-desc');
  const error = errorLine();
  const submitBtn = h(
    'button',
    { type: 'submit', class: `btn ${opts.danger ? 'danger' : 'primary'}` },
    opts.submitLabel,
  );
  const cancelBtn = h(
    'button',
    { type: 'button', class: 'btn', onclick: () => close(false) },
    tr('edit.cancel'),
  );
  let submitted = false;
  const form = h(
    'form',
    { novalidate: true, onsubmit: submitHandler(opts, submitBtn, error, () => close(true)) },
    h(
      'div',
      { class: 'sheet-head' },
      h('h2', { id: titleId }, opts.title),
      opts.description ? h('p', { id: descId, class: 'sheet-desc' }, opts.description) : null,
    ),
    h('div', { class: 'sheet-body' }, opts.content, error.el),
    footer(opts, cancelBtn, submitBtn, nextId('dlg-note')),
  );
  form.addEventListener('input', () => {
    if (error.hasMarked()) error.clear();
  });
  const dialog = h(
    'dialog',
    { class: 'sheet', 'aria-labelledby': titleId, 'aria-describedby': opts.description ? descId : null },
    form,
  );
  let resolve: (v: boolean) => void = () => {};
  const result = new Promise<boolean>((r) => {
    resolve = r;
  });
  const close = (ok: boolean) => {
    submitted = ok;
    if (dialog.open) dialog.close();
  };
  // Escape: the browser fires cancel, then close.
  dialog.addEventListener('close', () => {
    dialog.remove();
    resolve(submitted);
  });
  document.body.append(dialog);
  dialog.showModal();
  opts.onOpen?.(dialog);
  (opts.initialFocus?.() ?? submitBtn).focus();
  return { result, close };
}

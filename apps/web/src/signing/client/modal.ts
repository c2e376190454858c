import { type Child, h, nextId } from './dom.ts';

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
 * A modal dialog on the native <dialog> element: it traps focus, Escape cancels, the rest of the
 * page is inert. On narrow screens the stylesheet turns it into a bottom sheet.
 */
export function modal(opts: ModalOptions): Modal {
  const titleId = nextId('dlg-title');
  const descId = nextId('dlg-desc');
  const errId = nextId('dlg-err');
  const error = h('p', { id: errId, class: 'form-error', hidden: true });
  const submitBtn = h(
    'button',
    { type: 'submit', class: `btn ${opts.danger ? 'danger' : 'primary'}` },
    opts.submitLabel,
  );
  const cancelBtn = h('button', { type: 'button', class: 'btn', onclick: () => close(false) }, 'Cancel');
  let marked: HTMLElement | null = null;
  let submitted = false;
  let busy = false;

  const clearError = () => {
    error.hidden = true;
    error.textContent = '';
    if (marked) {
      marked.removeAttribute('aria-invalid');
      const ids = (marked.getAttribute('aria-describedby') ?? '').split(' ').filter((i) => i && i !== errId);
      if (ids.length) marked.setAttribute('aria-describedby', ids.join(' '));
      else marked.removeAttribute('aria-describedby');
      marked = null;
    }
  };

  const showError = (e: SubmitError) => {
    clearError();
    error.textContent = e.error;
    error.hidden = false;
    const input = e.input ?? null;
    if (input) {
      marked = input;
      input.setAttribute('aria-invalid', 'true');
      const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      input.setAttribute('aria-describedby', [...ids, errId].join(' '));
      input.focus();
    } else {
      error.setAttribute('role', 'alert');
    }
  };

  const form = h(
    'form',
    {
      novalidate: true,
      onsubmit: async (e: Event) => {
        e.preventDefault();
        if (busy) return;
        busy = true;
        submitBtn.disabled = true;
        submitBtn.setAttribute('aria-busy', 'true');
        try {
          const res = await opts.submit();
          if (res) showError(res);
          else close(true);
        } finally {
          busy = false;
          submitBtn.disabled = false;
          submitBtn.removeAttribute('aria-busy');
        }
      },
    },
    h(
      'div',
      { class: 'sheet-head' },
      h('h2', { id: titleId }, opts.title),
      opts.description ? h('p', { id: descId, class: 'sheet-desc' }, opts.description) : null,
    ),
    h('div', { class: 'sheet-body' }, opts.content, error),
    h('div', { class: 'sheet-foot' }, h('div', { class: 'extra' }, opts.extra ?? []), cancelBtn, submitBtn),
  );
  form.addEventListener('input', () => {
    if (!error.hidden && marked) clearError();
  });

  const dialog = h(
    'dialog',
    {
      class: 'sheet',
      'aria-labelledby': titleId,
      'aria-describedby': opts.description ? descId : null,
    },
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

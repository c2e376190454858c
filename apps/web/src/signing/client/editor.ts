import { h, nextId } from './dom.ts';
import { readFileValue } from './draw.ts';
import { type Editor, type EditRequest, fieldLabel, fileInput, watchImageInput } from './editor-base.ts';
import { watchInput } from './form.ts';
import { pageLocale, tr } from './i18n.ts';
import { modal, type SubmitError } from './modal.ts';
import { signatureEditor } from './signature-editor.ts';
import type { FieldValue, FileValue } from './types.ts';
import {
  dateExample,
  isFilled,
  isImageValue,
  numberExample,
  parseTextInput,
  typeLabel,
  valueText,
} from './values.ts';

const isError = (v: unknown): v is SubmitError =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'error' in v;

/** Opens the editor of one field; resolves to the new value, or undefined when cancelled. */
export async function editField(req: EditRequest): Promise<{ value: FieldValue } | undefined> {
  const { field } = req;
  const editor = editorFor(req);
  let out: FieldValue = req.value;
  const extra: HTMLButtonElement[] = [];
  const m = { close: (_: boolean) => {} };
  if (isFilled(req.value)) {
    extra.push(
      h(
        'button',
        {
          type: 'button',
          class: 'btn ghost',
          onclick: () => {
            out = field.type === 'checkbox' ? false : null;
            m.close(true);
          },
        },
        tr('edit.clear'),
      ),
    );
  }
  const dialog = modal({
    title: field.name,
    description: capitalise(
      tr(field.required ? 'field.description_required' : 'field.description', {
        type: typeLabel(field.type),
      }),
    ),
    content: editor.content,
    submitLabel: req.submitLabel,
    extra,
    initialFocus: editor.focus,
    onOpen: editor.onOpen,
    async submit() {
      const v = await editor.collect();
      if (isError(v)) return v;
      out = v;
      return null;
    },
  });
  m.close = dialog.close;
  return (await dialog.result) ? { value: out } : undefined;
}

function editorFor(req: EditRequest): Editor {
  switch (req.field.type) {
    case 'signature':
    case 'initials':
      return signatureEditor(req);
    case 'image':
    case 'stamp':
      return imageEditor(req);
    case 'file':
      return fileEditor(req);
    case 'select':
      return selectEditor(req);
    case 'radio':
    case 'multiple':
      return choiceEditor(req);
    case 'checkbox':
      return checkboxEditor(req);
    default:
      return textEditor(req);
  }
}

function textEditor({ field, value, heightPt }: EditRequest): Editor {
  const id = nextId('in');
  const hintId = nextId('hint');
  const multiline = field.type === 'text' && heightPt >= 40;
  const common = {
    id,
    name: field.name,
    value: valueText(field, value),
    'aria-describedby': hintId,
  };
  const input =
    multiline && field.type === 'text'
      ? h('textarea', { ...common, rows: 3 })
      : h('input', {
          ...common,
          type: field.type === 'phone' ? 'tel' : 'text',
          inputMode: field.type === 'number' ? 'decimal' : field.type === 'phone' ? 'tel' : null,
          autocomplete: field.type === 'phone' ? 'tel' : 'off',
          class: field.type === 'cells' ? 'cells' : null,
        });
  const hints: Record<string, string> = {
    number: tr('edit.error_number', { example: numberExample() }),
    phone: tr('edit.hint_phone'),
    date: tr('edit.hint_date', { example: dateExample() }),
    cells: tr('edit.hint_cells'),
    text: multiline ? tr('edit.hint_multiline') : '',
  };
  if (input instanceof HTMLTextAreaElement) {
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        input.form?.requestSubmit();
      }
    });
  }
  const hint = h('p', { id: hintId, class: 'hint' }, hints[field.type] ?? '');
  // Issue 46: the field's validation, checked as the signer types.
  watchInput(field, { input, hint }, (raw) => {
    const p = parseTextInput(field.type, raw);
    return p.ok ? p.value : null;
  });
  return {
    content: [h('label', { for: id }, fieldLabel(field)), input, hint],
    focus: () => input,
    collect() {
      const p = parseTextInput(field.type, input.value);
      return p.ok ? p.value : { error: p.error, input };
    },
  };
}

function selectEditor({ field, value }: EditRequest): Editor {
  const id = nextId('in');
  const select = h(
    'select',
    { id, name: field.name },
    h('option', { value: '' }, tr('edit.choose')),
    (field.options ?? []).map((o) => h('option', { value: o, selected: o === value }, o)),
  );
  return {
    content: [h('label', { for: id }, fieldLabel(field)), select],
    focus: () => select,
    collect: () => select.value || null,
  };
}

function choiceEditor({ field, value }: EditRequest): Editor {
  const multiple = field.type === 'multiple';
  const group = nextId('grp');
  const chosen = new Set(Array.isArray(value) ? value : typeof value === 'string' ? [value] : []);
  const inputs = (field.options ?? []).map((o) =>
    h('input', { type: multiple ? 'checkbox' : 'radio', name: group, value: o, checked: chosen.has(o) }),
  );
  const fieldset = h(
    'fieldset',
    { class: 'choices' },
    h('legend', null, fieldLabel(field)),
    inputs.map((input) => h('label', { class: 'choice' }, input, h('span', null, input.value))),
  );
  return {
    content: [fieldset],
    focus: () => inputs.find((i) => i.checked) ?? inputs[0],
    collect() {
      const picked = inputs.filter((i) => i.checked).map((i) => i.value);
      if (multiple) return picked.length ? picked : null;
      return picked[0] ?? null;
    },
  };
}

function checkboxEditor({ field, value }: EditRequest): Editor {
  const input = h('input', { type: 'checkbox', checked: value === true });
  return {
    content: [h('label', { class: 'choice' }, input, h('span', null, fieldLabel(field)))],
    focus: () => input,
    collect: () => input.checked,
  };
}

function imageEditor({ field, value }: EditRequest): Editor {
  const current = isImageValue(value) ? value : null;
  const { input, label } = fileInput(
    tr('edit.image_choose', { field: fieldLabel(field) }),
    'image/png,image/jpeg,image/webp,image/gif',
  );
  const preview = h('img', {
    class: 'preview',
    alt: tr('edit.image_preview'),
    hidden: !current,
    src: current ?? '',
  });
  const note = h(
    'p',
    { class: 'hint', 'aria-live': 'polite' },
    current ? tr('edit.image_added') : tr('edit.image_hint'),
  );
  const image = watchImageInput(input, preview, note, {
    initial: current,
    preparingNote: tr('edit.image_preparing'),
  });
  return {
    content: [label, input, preview, note],
    focus: () => input,
    async collect() {
      const { url, problem } = await image.read();
      if (problem) return { error: problem, input };
      return url;
    },
  };
}

function fileEditor({ field, value }: EditRequest): Editor {
  let current = value && typeof value === 'object' && !Array.isArray(value) ? (value as FileValue) : null;
  const { input, label } = fileInput(tr('edit.file_choose', { field: fieldLabel(field) }), '');
  const note = h(
    'p',
    { class: 'hint', 'aria-live': 'polite' },
    current ? tr('edit.file_added', { name: current.name }) : tr('edit.file_hint'),
  );
  let pending: Promise<void> = Promise.resolve();
  let problem: string | null = null;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    note.textContent = tr('edit.file_reading');
    pending = readFileValue(file).then(
      (v) => {
        current = v;
        problem = null;
        note.textContent = tr('edit.file_ready', { name: file.name });
      },
      (err: Error) => {
        problem = err.message;
        note.textContent = err.message;
      },
    );
  });
  return {
    content: [label, input, note],
    focus: () => input,
    async collect() {
      await pending;
      if (problem) return { error: problem, input };
      return current;
    },
  };
}

/** The first letter in upper case, as the page's language writes it. */
function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase(pageLocale()) + text.slice(1);
}

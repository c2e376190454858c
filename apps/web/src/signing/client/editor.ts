import { h, nextId } from './dom.ts';
import {
  createSignaturePad,
  imageFileToDataUrl,
  readFileValue,
  renderTypedSignature,
  SCRIPT_FONT,
} from './draw.ts';
import { modal, type SubmitError } from './modal.ts';
import type { FieldValue, FileValue, SigningField } from './types.ts';
import { initialsOf, isFilled, isImageValue, parseTextInput, TYPE_LABELS } from './values.ts';

export interface EditRequest {
  field: SigningField;
  value: FieldValue;
  /** how the editor was opened: a keyboard opens signatures on Type instead of Draw */
  via: 'pointer' | 'keyboard';
  signerName: string;
  /** width / height of the field's first area on its page */
  aspect: number;
  /** height of the field's first area in points (tall text fields get a multi-line input) */
  heightPt: number;
  /** a signature (or initials) the signer already made on another field, offered again */
  reuse: string | null;
  submitLabel: string;
}

interface Editor {
  content: (Node | null)[];
  focus: () => HTMLElement | null | undefined;
  collect(): Promise<FieldValue | SubmitError> | FieldValue | SubmitError;
  onOpen?: () => void;
}

const isError = (v: unknown): v is SubmitError =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && 'error' in v;

/** The label of an input: field name, then its type and whether it is required. */
export function fieldLabel(field: Pick<SigningField, 'name' | 'type' | 'required'>): string {
  return `${field.name} (${TYPE_LABELS[field.type]}${field.required ? ', required' : ''})`;
}

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
        'Clear',
      ),
    );
  }
  const dialog = modal({
    title: field.name,
    description: `${TYPE_LABELS[field.type][0]?.toUpperCase()}${TYPE_LABELS[field.type].slice(1)} field${field.required ? ', required' : ', optional'}`,
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
    value: value === null ? '' : String(value),
    'aria-describedby': hintId,
  };
  const input =
    multiline && field.type === 'text'
      ? h('textarea', { ...common, rows: 3 })
      : h('input', {
          ...common,
          type: field.type === 'date' ? 'date' : field.type === 'phone' ? 'tel' : 'text',
          inputMode: field.type === 'number' ? 'decimal' : field.type === 'phone' ? 'tel' : null,
          autocomplete: field.type === 'phone' ? 'tel' : 'off',
          class: field.type === 'cells' ? 'cells' : null,
        });
  const hints: Record<string, string> = {
    number: 'A number, for example 42 or 3.5.',
    phone: 'For example +1 555 010 0000.',
    date: 'Pick a date or type it as YYYY-MM-DD.',
    cells: 'Each character goes into its own box on the document.',
    text: multiline ? 'Press Enter for a new line, Ctrl+Enter to save.' : '',
  };
  if (input instanceof HTMLTextAreaElement) {
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        input.form?.requestSubmit();
      }
    });
  }
  return {
    content: [
      h('label', { for: id }, fieldLabel(field)),
      input,
      h('p', { id: hintId, class: 'hint' }, hints[field.type] ?? ''),
    ],
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
    h('option', { value: '' }, 'Choose…'),
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

/** A file input with a preview area and an error slot shared by the upload editors. */
function upload(label: string, accept: string) {
  const id = nextId('file');
  const input = h('input', { id, type: 'file', accept });
  return { input, label: h('label', { for: id }, label) };
}

function imageEditor({ field, value }: EditRequest): Editor {
  let current = isImageValue(value) ? value : null;
  const { input, label } = upload(
    `${fieldLabel(field)}: choose an image`,
    'image/png,image/jpeg,image/webp,image/gif',
  );
  const preview = h('img', {
    class: 'preview',
    alt: 'Preview of the chosen image',
    hidden: !current,
    src: current ?? '',
  });
  const note = h(
    'p',
    { class: 'hint', 'aria-live': 'polite' },
    current ? 'An image is added.' : 'PNG or JPEG. Large pictures are made smaller before upload.',
  );
  let pending: Promise<void> = Promise.resolve();
  let problem: string | null = null;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    note.textContent = 'Preparing the image…';
    pending = imageFileToDataUrl(file).then(
      (url) => {
        current = url;
        problem = null;
        preview.src = url;
        preview.hidden = false;
        note.textContent = `${file.name} is ready.`;
      },
      (err: Error) => {
        problem = err.message;
        note.textContent = err.message;
      },
    );
  });
  return {
    content: [label, input, preview, note],
    focus: () => input,
    async collect() {
      await pending;
      if (problem) return { error: problem, input };
      return current;
    },
  };
}

function fileEditor({ field, value }: EditRequest): Editor {
  let current = value && typeof value === 'object' && !Array.isArray(value) ? (value as FileValue) : null;
  const { input, label } = upload(`${fieldLabel(field)}: choose a file`, '');
  const note = h(
    'p',
    { class: 'hint', 'aria-live': 'polite' },
    current ? `Added: ${current.name}` : 'Up to 10 MB.',
  );
  let pending: Promise<void> = Promise.resolve();
  let problem: string | null = null;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    note.textContent = 'Reading the file…';
    pending = readFileValue(file).then(
      (v) => {
        current = v;
        problem = null;
        note.textContent = `${file.name} is ready.`;
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

type Mode = 'saved' | 'draw' | 'type' | 'upload';

function signatureEditor(req: EditRequest): Editor {
  const { field } = req;
  const initials = field.type === 'initials';
  const what = initials ? 'initials' : 'signature';
  const saved = isImageValue(req.value) ? req.value : req.reuse;
  const modes: [Mode, string][] = [
    ...(saved
      ? ([['saved', isImageValue(req.value) ? 'Current' : `Use my ${what}`]] as [Mode, string][])
      : []),
    ['draw', 'Draw'],
    ['type', 'Type'],
    ['upload', 'Upload'],
  ];
  let mode: Mode = saved ? 'saved' : req.via === 'keyboard' ? 'type' : 'draw';
  const group = nextId('mode');

  // Draw
  const canvas = h('canvas', {
    class: 'pad',
    role: 'img',
    'aria-label': `Drawing area for your ${what}. Draw with a mouse, finger or pen, or choose Type to type it instead.`,
  });
  const ratio = Math.min(initials ? 2.5 : 4, Math.max(initials ? 1.2 : 2, req.aspect));
  canvas.style.aspectRatio = String(ratio);
  const pad = createSignaturePad(canvas, () => {
    drawNote.textContent = pad.isEmpty() ? `Draw your ${what} in the box.` : '';
  });
  const drawNote = h('p', { class: 'hint' }, `Draw your ${what} in the box.`);
  const drawPanel = h(
    'div',
    { class: 'panel' },
    h('div', { class: 'pad-wrap' }, canvas, h('span', { class: 'pad-line', 'aria-hidden': 'true' })),
    h(
      'div',
      { class: 'row' },
      drawNote,
      h('button', { type: 'button', class: 'btn small', onclick: () => pad.clear() }, 'Clear drawing'),
    ),
  );

  // Type
  const typedId = nextId('typed');
  const typed = h('input', {
    id: typedId,
    type: 'text',
    autocomplete: initials ? 'off' : 'name',
    value: initials ? initialsOf(req.signerName) : req.signerName,
    maxLength: 100,
  });
  const typedPreview = h('div', { class: 'typed-preview', 'aria-hidden': 'true' });
  typedPreview.style.fontFamily = SCRIPT_FONT;
  const syncTyped = () => {
    typedPreview.textContent = typed.value;
  };
  typed.addEventListener('input', syncTyped);
  syncTyped();
  const typePanel = h(
    'div',
    { class: 'panel' },
    h(
      'label',
      { for: typedId },
      `Type your ${initials ? 'initials' : 'full name'}`,
      h('span', { class: 'sr-only' }, ` for ${fieldLabel(field)}`),
    ),
    typed,
    typedPreview,
  );

  // Upload
  const up = upload(`Upload a picture of your ${what}`, 'image/png,image/jpeg');
  up.label.append(h('span', { class: 'sr-only' }, ` for ${fieldLabel(field)}`));
  let uploaded: string | null = null;
  let uploadProblem: string | null = null;
  let pending: Promise<void> = Promise.resolve();
  const upPreview = h('img', { class: 'preview', alt: `Uploaded ${what}`, hidden: true });
  const upNote = h(
    'p',
    { class: 'hint', 'aria-live': 'polite' },
    'PNG or JPEG, ideally on a white or clear background.',
  );
  up.input.addEventListener('change', () => {
    const file = up.input.files?.[0];
    if (!file) return;
    pending = imageFileToDataUrl(file, 1200).then(
      (url) => {
        uploaded = url;
        uploadProblem = null;
        upPreview.src = url;
        upPreview.hidden = false;
        upNote.textContent = `${file.name} is ready.`;
      },
      (err: Error) => {
        uploadProblem = err.message;
        upNote.textContent = err.message;
      },
    );
  });
  const uploadPanel = h('div', { class: 'panel' }, up.label, up.input, upPreview, upNote);

  const savedPanel = h(
    'div',
    { class: 'panel' },
    saved ? h('img', { class: 'preview sig', src: saved, alt: `Your ${what}` }) : null,
  );
  const panels: Record<Mode, HTMLElement> = {
    saved: savedPanel,
    draw: drawPanel,
    type: typePanel,
    upload: uploadPanel,
  };

  const radios = modes.map(([m, label]) => {
    const input = h('input', {
      type: 'radio',
      name: group,
      value: m,
      checked: m === mode,
      onchange: () => show(m),
    });
    return h('label', { class: 'seg' }, input, h('span', null, label));
  });
  const show = (m: Mode) => {
    mode = m;
    for (const [k, el] of Object.entries(panels)) el.hidden = k !== m;
    if (m === 'draw') requestAnimationFrame(() => pad.resize());
  };
  const seg = h(
    'fieldset',
    { class: 'segmented' },
    h('legend', { class: 'sr-only' }, `How to add your ${what}`),
    radios,
  );
  let observer: ResizeObserver | null = null;

  return {
    content: [seg, savedPanel, drawPanel, typePanel, uploadPanel],
    onOpen() {
      show(mode);
      observer = new ResizeObserver(() => pad.resize());
      observer.observe(canvas);
      canvas.closest('dialog')?.addEventListener('close', () => observer?.disconnect());
    },
    focus: () =>
      mode === 'type'
        ? typed
        : (radios.find((r) => r.querySelector('input')?.checked)?.querySelector('input') ?? null),
    async collect() {
      switch (mode) {
        case 'saved':
          return saved;
        case 'draw':
          return (
            pad.toDataUrl() ?? {
              error: `Draw your ${what} in the box, or choose Type to type it instead.`,
            }
          );
        case 'type':
          return (
            renderTypedSignature(typed.value) ?? {
              error: `Type your ${initials ? 'initials' : 'name'}.`,
              input: typed,
            }
          );
        case 'upload':
          await pending;
          if (uploadProblem) return { error: uploadProblem, input: up.input };
          return uploaded ?? { error: `Choose a picture of your ${what}.`, input: up.input };
      }
    },
  };
}

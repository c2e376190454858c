import { h, nextId } from './dom.ts';
import { createSignaturePad, renderTypedSignature, SCRIPT_FONT } from './draw.ts';
import { type Editor, type EditRequest, fieldLabel, fileInput, watchImageInput } from './editor-base.ts';
import { tr } from './i18n.ts';
import type { SubmitError } from './modal.ts';
import { remember } from './signature-methods.ts';
import type { FieldValue } from './types.ts';
import { initialsOf, isImageValue } from './values.ts';

type Mode = 'saved' | 'draw' | 'type' | 'upload';

/** One way of making the signature: its panel in the dialog and how to read the result. */
interface Panel {
  el: HTMLElement;
  collect(): Promise<FieldValue | SubmitError> | FieldValue | SubmitError;
}

interface Wording {
  /** the ICU select value of the `sig.*` messages: "true" for initials */
  what: { initials: string };
  initials: boolean;
}

/**
 * The editor of signature and initials fields: draw it, type it (rendered in a script font),
 * upload a picture, or use the one already made (this field's value or another field's).
 */
export function signatureEditor(req: EditRequest): Editor {
  const initials = req.field.type === 'initials';
  const words: Wording = { what: { initials: String(initials) }, initials };
  const saved = isImageValue(req.value) ? req.value : req.reuse;
  const draw = drawPanel(req, words);
  const typed = typePanel(req, words);
  const panels: Record<Mode, Panel> = {
    saved: savedPanel(saved, words),
    draw,
    type: typed,
    upload: uploadPanel(req, words),
  };
  let mode: Mode = saved ? 'saved' : req.via === 'keyboard' ? 'type' : 'draw';
  const show = (m: Mode) => {
    mode = m;
    for (const [k, p] of Object.entries(panels)) p.el.hidden = k !== m;
    if (m === 'draw') requestAnimationFrame(() => draw.pad.resize());
  };
  const modes: [Mode, string][] = [
    ...(saved
      ? [
          ['saved', isImageValue(req.value) ? tr('sig.current') : tr('sig.use_mine', words.what)] as [
            Mode,
            string,
          ],
        ]
      : []),
    ['draw', tr('sig.draw')],
    ['type', tr('sig.type')],
    ['upload', tr('sig.upload')],
  ];
  const picker = modePicker(modes, mode, words, show);
  let observer: ResizeObserver | null = null;
  return {
    content: [picker.el, ...Object.values(panels).map((p) => p.el)],
    onOpen() {
      show(mode);
      observer = new ResizeObserver(() => draw.pad.resize());
      observer.observe(draw.canvas);
      draw.canvas.closest('dialog')?.addEventListener('close', () => observer?.disconnect());
    },
    focus: () => (mode === 'type' ? typed.input : picker.checked()),
    collect: async () => {
      const value = await panels[mode].collect();
      return mode === 'saved' ? value : remember(value, METHODS[mode]);
    },
  };
}

const METHODS = { draw: 'drawn', type: 'typed', upload: 'uploaded' } as const;

/** The segmented control choosing how to make the signature. */
function modePicker(modes: [Mode, string][], initial: Mode, { what }: Wording, onChange: (m: Mode) => void) {
  const group = nextId('mode');
  const inputs = modes.map(([m]) =>
    h('input', { type: 'radio', name: group, value: m, checked: m === initial, onchange: () => onChange(m) }),
  );
  const el = h(
    'fieldset',
    { class: 'segmented' },
    h('legend', { class: 'sr-only' }, tr('sig.how', what)),
    inputs.map((input, i) => h('label', { class: 'seg' }, input, h('span', null, modes[i]?.[1] ?? ''))),
  );
  return { el, checked: () => inputs.find((i) => i.checked) ?? null };
}

function savedPanel(saved: string | null, { what }: Wording): Panel {
  const el = h(
    'div',
    { class: 'panel' },
    saved ? h('img', { class: 'preview sig', src: saved, alt: tr('sig.yours', what) }) : null,
  );
  return { el, collect: () => saved };
}

function drawPanel(req: EditRequest, { what, initials }: Wording) {
  const canvas = h('canvas', {
    class: 'pad',
    role: 'img',
    'aria-label': tr('sig.pad', what),
  });
  const ratio = Math.min(initials ? 2.5 : 4, Math.max(initials ? 1.2 : 2, req.aspect));
  canvas.style.aspectRatio = String(ratio);
  const note = h('p', { class: 'hint' }, tr('sig.draw_hint', what));
  const pad = createSignaturePad(canvas, () => {
    note.textContent = pad.isEmpty() ? tr('sig.draw_hint', what) : '';
  });
  const el = h(
    'div',
    { class: 'panel' },
    h('div', { class: 'pad-wrap' }, canvas, h('span', { class: 'pad-line', 'aria-hidden': 'true' })),
    h(
      'div',
      { class: 'row' },
      note,
      h(
        'button',
        { type: 'button', class: 'btn small', onclick: () => pad.clear() },
        tr('sig.clear_drawing'),
      ),
    ),
  );
  const collect = (): FieldValue | SubmitError => pad.toDataUrl() ?? { error: tr('sig.draw_missing', what) };
  return { el, canvas, pad, collect };
}

function typePanel(req: EditRequest, { initials }: Wording) {
  const id = nextId('typed');
  const input = h('input', {
    id,
    type: 'text',
    autocomplete: initials ? 'off' : 'name',
    value: initials ? initialsOf(req.signerName) : req.signerName,
    maxLength: 100,
  });
  const preview = h('div', { class: 'typed-preview', 'aria-hidden': 'true' });
  preview.style.fontFamily = SCRIPT_FONT;
  const sync = () => {
    preview.textContent = input.value;
  };
  input.addEventListener('input', sync);
  sync();
  const el = h(
    'div',
    { class: 'panel' },
    h(
      'label',
      { for: id },
      tr('sig.type_label', { initials: String(initials) }),
      h('span', { class: 'sr-only' }, tr('sig.for_field', { field: fieldLabel(req.field) })),
    ),
    input,
    preview,
  );
  const collect = (): FieldValue | SubmitError =>
    renderTypedSignature(input.value) ?? {
      error: tr('sig.type_missing', { initials: String(initials) }),
      input,
    };
  return { el, input, collect };
}

function uploadPanel(req: EditRequest, { what }: Wording): Panel {
  const up = fileInput(tr('sig.upload_label', what), 'image/png,image/jpeg');
  up.label.append(h('span', { class: 'sr-only' }, tr('sig.for_field', { field: fieldLabel(req.field) })));
  const preview = h('img', { class: 'preview', alt: tr('sig.uploaded', what), hidden: true });
  const note = h('p', { class: 'hint', 'aria-live': 'polite' }, tr('sig.upload_hint'));
  const image = watchImageInput(up.input, preview, note, { maxSide: 1200 });
  return {
    el: h('div', { class: 'panel' }, up.label, up.input, preview, note),
    async collect() {
      const { url, problem } = await image.read();
      if (problem) return { error: problem, input: up.input };
      return url ?? { error: tr('sig.upload_missing', what), input: up.input };
    },
  };
}

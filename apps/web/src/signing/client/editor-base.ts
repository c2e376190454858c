import { h, nextId } from './dom.ts';
import { imageFileToDataUrl } from './draw.ts';
import { tr } from './i18n.ts';
import type { SubmitError } from './modal.ts';
import type { FieldValue, SigningField } from './types.ts';
import { typeLabel } from './values.ts';

/** What a field editor is opened with. */
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

/** The inside of an editor dialog: its controls and how to read the value from them. */
export interface Editor {
  content: (Node | null)[];
  focus: () => HTMLElement | null | undefined;
  collect(): Promise<FieldValue | SubmitError> | FieldValue | SubmitError;
  onOpen?: () => void;
}

/** The label of an input: field name, then its type and whether it is required. */
export function fieldLabel(field: Pick<SigningField, 'name' | 'type' | 'required'>): string {
  const values = { name: field.name, type: typeLabel(field.type) };
  return field.required ? tr('field.label_required', values) : tr('field.label', values);
}

/** A file input with its label, shared by the upload editors. */
export function fileInput(label: string, accept: string) {
  const id = nextId('file');
  const input = h('input', { id, type: 'file', accept });
  return { input, label: h('label', { for: id }, label) };
}

/**
 * Prepares the image chosen in `input` as a data URL (made smaller when larger than `maxSide`),
 * shows it in `preview` and says in `note` how it went. `read` waits for an image still being
 * prepared and gives its URL (`initial` until one is chosen), or why it could not be read.
 */
export function watchImageInput(
  input: HTMLInputElement,
  preview: HTMLImageElement,
  note: HTMLElement,
  opts: { maxSide?: number; initial?: string | null; preparingNote?: string } = {},
): { read(): Promise<{ url: string | null; problem: string | null }> } {
  let url = opts.initial ?? null;
  let problem: string | null = null;
  let pending: Promise<void> = Promise.resolve();
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    if (opts.preparingNote) note.textContent = opts.preparingNote;
    pending = imageFileToDataUrl(file, opts.maxSide).then(
      (prepared) => {
        url = prepared;
        problem = null;
        preview.src = prepared;
        preview.hidden = false;
        note.textContent = tr('edit.file_ready', { name: file.name });
      },
      (err: Error) => {
        problem = err.message;
        note.textContent = err.message;
      },
    );
  });
  return {
    async read() {
      await pending;
      return { url, problem };
    },
  };
}

import { h, nextId } from './dom.ts';
import type { SubmitError } from './modal.ts';
import type { FieldValue, SigningField } from './types.ts';
import { TYPE_LABELS } from './values.ts';

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
  return `${field.name} (${TYPE_LABELS[field.type]}${field.required ? ', required' : ''})`;
}

/** A file input with its label, shared by the upload editors. */
export function fileInput(label: string, accept: string) {
  const id = nextId('file');
  const input = h('input', { id, type: 'file', accept });
  return { input, label: h('label', { for: id }, label) };
}

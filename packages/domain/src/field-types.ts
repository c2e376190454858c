/** The field types of the specification's template field (`type`), in the spec's order. */
export const FIELD_TYPES = [
  'text',
  'signature',
  'initials',
  'date',
  'checkbox',
  'number',
  'phone',
  'select',
  'radio',
  'multiple',
  'image',
  'file',
  'stamp',
  'cells',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** Types a client may send in a field definition; `cells` only comes from PDF forms and text tags. */
export type InputFieldType = Exclude<FieldType, 'cells'>;
export const INPUT_FIELD_TYPES: readonly InputFieldType[] = FIELD_TYPES.filter(
  (t): t is InputFieldType => t !== 'cells',
);

/** How unnamed fields are named: `Signature 2`, `Text Field 1` (the service and the editor alike). */
export const FIELD_NAME_PREFIX: Record<FieldType, string> = {
  text: 'Text Field',
  signature: 'Signature',
  initials: 'Initials',
  date: 'Date',
  checkbox: 'Checkbox',
  number: 'Number',
  phone: 'Phone',
  select: 'Select',
  radio: 'Radio',
  multiple: 'Multiple Select',
  image: 'Image',
  file: 'File',
  stamp: 'Stamp',
  cells: 'Cells',
};

/** Types whose definition needs `options` (spec: field definition `options`). */
export const OPTION_FIELD_TYPES: readonly FieldType[] = ['select', 'radio', 'multiple'];

/** Types whose value is a picture: a PNG or JPEG `data:` URI (see values.ts). */
export const IMAGE_FIELD_TYPES: readonly FieldType[] = ['signature', 'initials', 'image', 'stamp'];

export function isFieldType(s: string): s is FieldType {
  return (FIELD_TYPES as readonly string[]).includes(s);
}

export function isOptionFieldType(type: string): boolean {
  return (OPTION_FIELD_TYPES as readonly string[]).includes(type);
}

export function isImageFieldType(type: string): boolean {
  return (IMAGE_FIELD_TYPES as readonly string[]).includes(type);
}

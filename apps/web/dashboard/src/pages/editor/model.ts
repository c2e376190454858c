import {
  type AreaBox,
  FIELD_NAME_PREFIX,
  FIELD_TYPES,
  type FieldLogic,
  type FieldType,
  fitOnPage,
  isOptionFieldType,
} from '@esign/domain';
import { msg, t } from '../../messages/index.ts';

// The editor's document: what one save sends (name, roles, fields, document order). Areas name
// their document by id while editing, so reordering or removing documents never mixes them up;
// the save turns ids into the spec's 0-based document index.

export const MAX_ROLES = 10;

export interface EditorArea extends AreaBox {
  doc: number;
  page: number;
}

export interface EditorField {
  /** Local identity while editing (the server gives fields new ids on every save). */
  key: string;
  name: string;
  type: FieldType;
  role: string;
  required: boolean;
  options: string[];
  areas: EditorArea[];
  /** Issue 46: conditions, formula, format and validation, kept as the server gave them */
  logic?: FieldLogic | undefined;
}

export interface EditorDoc {
  name: string;
  roles: string[];
  /**
   * Issue 47: the roles that approve or only read, by name (no fields on them); set once the
   * template has any (then every save sends `role_kinds`, so kinds follow names when roles move).
   */
  roleKinds?: Record<string, 'approver' | 'viewer' | 'signer'>;
  fields: EditorField[];
  /** Document ids in order. */
  documents: number[];
}

export interface Selection {
  key: string;
  area: number;
}

export const TYPE_LABEL: Record<FieldType, string> = {
  text: msg('editor.type.text'),
  signature: msg('editor.type.signature'),
  initials: msg('editor.type.initials'),
  date: msg('editor.type.date'),
  checkbox: msg('editor.type.checkbox'),
  number: msg('editor.type.number'),
  phone: msg('editor.type.phone'),
  select: msg('editor.type.select'),
  radio: msg('editor.type.radio'),
  multiple: msg('editor.type.multiple'),
  image: msg('editor.type.image'),
  file: msg('editor.type.file'),
  stamp: msg('editor.type.stamp'),
  cells: msg('editor.type.cells'),
};

/** The options a new select, radio or multiple-select field starts with. */
export const defaultOptions = (): string[] => [
  t('editor.default.option', { number: 1 }),
  t('editor.default.option', { number: 2 }),
];

/** A new field's box, in fractions of the page: wide for text-like types, square for a checkbox. */
export function defaultSize(type: FieldType): { w: number; h: number } {
  if (type === 'checkbox' || type === 'radio') return { w: 0.03, h: 0.025 };
  if (type === 'signature' || type === 'image' || type === 'stamp') return { w: 0.25, h: 0.06 };
  if (type === 'initials') return { w: 0.1, h: 0.05 };
  if (type === 'cells') return { w: 0.3, h: 0.035 };
  return { w: 0.25, h: 0.035 };
}

export const ROLE_COLOURS = [
  '#1f5fd6',
  '#c2410c',
  '#15803d',
  '#9333ea',
  '#be123c',
  '#0e7490',
  '#a16207',
  '#4d7c0f',
  '#db2777',
  '#475569',
];

export const roleColour = (roles: string[], role: string) =>
  ROLE_COLOURS[Math.max(0, roles.indexOf(role)) % ROLE_COLOURS.length]!;

let counter = 0;
export const newKey = () => `f${Date.now().toString(36)}${(++counter).toString(36)}`;

export function nextName(fields: EditorField[], type: FieldType): string {
  const taken = new Set(fields.map((f) => f.name));
  let n = 1;
  while (taken.has(`${FIELD_NAME_PREFIX[type]} ${n}`)) n++;
  return `${FIELD_NAME_PREFIX[type]} ${n}`;
}

export function newField(doc: EditorDoc, type: FieldType, role: string, area: EditorArea): EditorField {
  return {
    key: newKey(),
    name: nextName(doc.fields, type),
    type,
    role,
    required: true,
    options: isOptionFieldType(type) ? defaultOptions() : [],
    areas: [{ ...area, ...fitOnPage(area) }],
  };
}

export const isType = (s: string): s is FieldType => (FIELD_TYPES as readonly string[]).includes(s);

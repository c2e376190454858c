/**
 * Text-tag grammar (spec, POST /templates "Text tags").
 *
 *   tag      = "{{" head *( ";" setting ) "}}"
 *   head     = name | setting            ; a head containing "=" is a setting (unnamed field)
 *   setting  = key "=" value
 *
 * Keys are case-insensitive; white space around names, keys and values is ignored; empty
 * segments (`{{Name;;type=date;}}`) are ignored.
 *
 * | key      | value                                               | default |
 * |----------|-----------------------------------------------------|---------|
 * | type     | a field type (`text`, `signature`, ... `cells`)      | `text`, or the head when the head is a type keyword |
 * | role     | role name                                           | none (the template's first role) |
 * | required | true/false, yes/no, y/n, 1/0                        | true    |
 * | options  | comma-separated list (`select`, `radio`, `multiple`) | none    |
 * | width    | field width in points (displayed page)              | the tag's width |
 * | height   | field height in points (displayed page)             | the tag's height |
 *
 * Type keyword heads: when the head is a field type keyword (case-insensitive) and no `type=` is
 * given, the field has that type and the keyword capitalised as its name:
 * `{{signature;role=Client}}` → signature field `Signature` for role `Client`; `{{date}}` → date
 * field `Date`. With an explicit `type=`, the head is just a name (`{{date;type=text}}` is a text
 * field named `date`).
 *
 * Errors (the tag is skipped): empty tag, unknown type, a name containing `{` or `}`, longer than
 * 255 characters, and `select`/`radio`/`multiple` without options. Notes (the tag is used, the
 * setting ignored): unknown key, setting without `=`, unreadable `required`/`width`/`height`,
 * empty `role`, `options` on a type that has none.
 */
import { isFieldType } from '@esign/domain';
import { FIELD_TYPES, type FieldType, TYPES_WITH_OPTIONS } from './types.ts';

export interface TagSpec {
  name?: string;
  type: FieldType;
  role?: string;
  required: boolean;
  options?: string[];
  /** Points. */
  width?: number;
  height?: number;
}

export type TagParseResult =
  | { ok: true; tag: TagSpec; notes: string[] }
  | { ok: false; error: string; notes: string[] };

const MAX_NAME_LENGTH = 255;
const MAX_SIZE_POINTS = 14_400; // the largest page size PDF allows (200 inches)

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function parseBool(v: string): boolean | undefined {
  const s = v.trim().toLowerCase();
  if (['true', 'yes', 'y', '1'].includes(s)) return true;
  if (['false', 'no', 'n', '0'].includes(s)) return false;
  return undefined;
}

function parsePoints(v: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:pt)?\s*$/i.exec(v);
  if (!m) return undefined;
  const n = Number.parseFloat(m[1]!);
  return n > 0 && n <= MAX_SIZE_POINTS ? n : undefined;
}

/** Parses the text between `{{` and `}}`. */
export function parseTag(body: string): TagParseResult {
  const notes: string[] = [];
  const segments = body.split(';').map((s) => s.trim());
  if (segments.every((s) => s === '')) return { ok: false, error: 'the tag is empty', notes };
  let name: string | undefined;
  const settings: string[] = [];
  const head = segments[0]!;
  if (head.includes('=')) settings.push(head);
  else if (head !== '') name = head;
  settings.push(...segments.slice(1).filter((s) => s !== ''));

  let type: string | undefined;
  let role: string | undefined;
  let required = true;
  let options: string[] | undefined;
  let width: number | undefined;
  let height: number | undefined;
  for (const s of settings) {
    const eq = s.indexOf('=');
    if (eq < 0) {
      notes.push(`setting "${s}" has no "=" and was ignored`);
      continue;
    }
    const key = s.slice(0, eq).trim().toLowerCase();
    const value = s.slice(eq + 1).trim();
    switch (key) {
      case 'type':
        type = value.toLowerCase();
        break;
      case 'role':
        if (value === '') notes.push('empty role was ignored');
        else role = value;
        break;
      case 'required': {
        const b = parseBool(value);
        if (b === undefined) notes.push(`required="${value}" is not true or false; the field is required`);
        else required = b;
        break;
      }
      case 'options':
        options = [
          ...new Set(
            value
              .split(',')
              .map((o) => o.trim())
              .filter((o) => o !== ''),
          ),
        ];
        break;
      case 'width':
      case 'height': {
        const n = parsePoints(value);
        if (n === undefined) notes.push(`${key}="${value}" is not a positive size in points and was ignored`);
        else if (key === 'width') width = n;
        else height = n;
        break;
      }
      default:
        notes.push(`unknown setting "${key}" was ignored`);
    }
  }

  if (type === undefined) {
    const keyword = name?.toLowerCase();
    if (keyword !== undefined && isFieldType(keyword)) {
      type = keyword;
      name = capitalise(keyword);
    } else {
      type = 'text';
    }
  }
  if (!isFieldType(type)) {
    return {
      ok: false,
      error: `unknown field type "${type}" (expected one of ${FIELD_TYPES.join(', ')})`,
      notes,
    };
  }
  if (name !== undefined && /[{}]/.test(name))
    return { ok: false, error: `the name "${name}" contains a brace`, notes };
  if (name !== undefined && name.length > MAX_NAME_LENGTH)
    return { ok: false, error: `the name is longer than ${MAX_NAME_LENGTH} characters`, notes };
  if (TYPES_WITH_OPTIONS.includes(type)) {
    if (!options || options.length === 0)
      return { ok: false, error: `a ${type} field needs options (options=First,Second)`, notes };
  } else if (options) {
    notes.push(`options are ignored for a ${type} field`);
    options = undefined;
  }
  const tag: TagSpec = { type, required };
  if (name !== undefined) tag.name = name;
  if (role !== undefined) tag.role = role;
  if (options) tag.options = options;
  if (width !== undefined) tag.width = width;
  if (height !== undefined) tag.height = height;
  return { ok: true, tag, notes };
}

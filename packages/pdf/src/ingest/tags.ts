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
 * | width    | field width in points (displayed page)              | the tag's width; signature, initials, image, stamp: see TAG_DEFAULT_SIZES |
 * | height   | field height in points (displayed page)             | the tag's height (text: one line at its font size); likewise |
 *
 * Type keyword heads: when the head is a field type keyword (case-insensitive) and no `type=` is
 * given, the field has that type and the keyword capitalised as its name:
 * `{{signature;role=Client}}` → signature field `Signature` for role `Client`; `{{date}}` → date
 * field `Date`. With an explicit `type=`, the head is just a name (`{{date;type=text}}` is a text
 * field named `date`).
 *
 * | kind     | `signer`, `approver` or `viewer`: makes the tag a role tag (below) | none |
 *
 * Role tags (issue 47, an extension): a tag with `kind` makes no field; it names its role's part,
 * `{{role=Manager;kind=approver}}`, and adds the role where it stands (approvers and viewers fill
 * no field, so they are named by a tag of their own). It takes `role` and `kind` only.
 *
 * Errors (the tag is skipped): empty tag, unknown type, a name containing `{` or `}`, longer than
 * 255 characters, and `select`/`radio`/`multiple` without options; an unknown `kind`, a role tag
 * without `role` or with a name or a field's setting. Notes (the tag is used, the
 * setting ignored): unknown key, setting without `=`, unreadable `required`/`width`/`height`,
 * empty `role`, `options` on a type that has none.
 */
import { isFieldType, PARTICIPANT_KINDS, type ParticipantKind } from '@esign/domain';
import { readLogicSetting, type TagLogic } from './tag-logic.ts';
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
  /** Issue 46: conditions, formula, format and validation (tag-logic.ts) */
  logic?: TagLogic;
  /** Issue 47: a role tag (no field): the part its `role` plays. */
  kind?: ParticipantKind;
}

/**
 * Size in points of a signature, initials, image or stamp field made from a tag without
 * `width`/`height` (a tag's own box is one text line, far too small to sign in). The field keeps
 * the tag's top-left corner and grows right and down, so it never covers the text above the tag,
 * and only into the space it has (tag-space.ts: never over another field or other text); a tag
 * box larger than this keeps its own size. `width`/`height` override each side.
 */
export const TAG_DEFAULT_SIZES: Partial<Record<FieldType, { width: number; height: number }>> = {
  signature: { width: 180, height: 48 },
  initials: { width: 72, height: 36 },
  image: { width: 144, height: 96 },
  stamp: { width: 120, height: 120 },
};

/**
 * The least height in points a signature, initials, image or stamp field made from a tag without
 * `height` keeps when the page's text below would cut it (issue 42.7: a one-line tag box, 12 pt or
 * so, is too small to sign in or to show a picture). The field then reaches over that text, as a
 * signature on a paper form reaches over the line below; another field or tag still stops it.
 */
export const TAG_MIN_HEIGHTS: Partial<Record<FieldType, number>> = {
  signature: 28,
  initials: 22,
  image: 40,
  stamp: 40,
};

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

/** The settings a tag writes, as read so far (before the type is settled and checked). */
interface Settings {
  type?: string;
  role?: string;
  required: boolean;
  options?: string[];
  width?: number;
  height?: number;
  logic?: TagLogic;
  /** as written (checked in parseTag) */
  kind?: string;
  /** `required` was written (a role tag takes none) */
  requiredSet?: boolean;
}

function parseOptions(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    ),
  ];
}

/** One `key=value` setting into `out`; what is ignored, and why, goes to `notes`. */
function readSetting(s: string, out: Settings, notes: string[]): void {
  const eq = s.indexOf('=');
  if (eq < 0) {
    notes.push(`setting "${s}" has no "=" and was ignored`);
    return;
  }
  const key = s.slice(0, eq).trim().toLowerCase();
  const value = s.slice(eq + 1).trim();
  switch (key) {
    case 'type':
      out.type = value.toLowerCase();
      return;
    case 'role':
      if (value === '') notes.push('empty role was ignored');
      else out.role = value;
      return;
    case 'kind':
      out.kind = value.toLowerCase();
      return;
    case 'required': {
      out.requiredSet = true;
      const b = parseBool(value);
      if (b === undefined) notes.push(`required="${value}" is not true or false; the field is required`);
      else out.required = b;
      return;
    }
    case 'options':
      out.options = parseOptions(value);
      return;
    case 'width':
    case 'height': {
      const n = parsePoints(value);
      if (n === undefined) notes.push(`${key}="${value}" is not a positive size in points and was ignored`);
      else out[key] = n;
      return;
    }
    default:
      out.logic ??= {};
      if (!readLogicSetting(key, value, out.logic, notes)) notes.push(`unknown setting "${key}" was ignored`);
  }
}

/** Splits the head (a name, or a first setting) from the settings. */
function splitTag(body: string): { name?: string; settings: string[] } | null {
  const segments = body.split(';').map((s) => s.trim());
  if (segments.every((s) => s === '')) return null;
  const head = segments[0]!;
  const settings = segments.slice(1).filter((s) => s !== '');
  if (head.includes('=')) return { settings: [head, ...settings] };
  return head === '' ? { settings } : { name: head, settings };
}

/** Why a tag with this name, type and options cannot be used, or null. */
function tagError(name: string | undefined, type: string, options: string[] | undefined): string | null {
  if (!isFieldType(type)) return `unknown field type "${type}" (expected one of ${FIELD_TYPES.join(', ')})`;
  if (name !== undefined && /[{}]/.test(name)) return `the name "${name}" contains a brace`;
  if (name !== undefined && name.length > MAX_NAME_LENGTH)
    return `the name is longer than ${MAX_NAME_LENGTH} characters`;
  if (TYPES_WITH_OPTIONS.includes(type as FieldType) && (!options || options.length === 0))
    return `a ${type} field needs options (options=First,Second)`;
  return null;
}

/** A role tag (`kind=`): its role and kind, or why it cannot be used. */
function roleTag(name: string | undefined, s: Settings, notes: string[]): TagParseResult {
  const kind = s.kind as ParticipantKind;
  if (!PARTICIPANT_KINDS.includes(kind))
    return {
      ok: false,
      error: `unknown kind "${s.kind}" (expected one of ${PARTICIPANT_KINDS.join(', ')})`,
      notes,
    };
  if (s.role === undefined)
    return { ok: false, error: `a role tag needs role= (role=Manager;kind=${kind})`, notes };
  const fieldSettings = [
    ...(name !== undefined ? ['a name'] : []),
    ...(['type', 'options', 'width', 'height'] as const).filter((k) => s[k] !== undefined),
    ...(s.requiredSet ? ['required'] : []),
    ...(s.logic && Object.keys(s.logic).length ? ['field logic'] : []),
  ];
  if (fieldSettings.length)
    return {
      ok: false,
      error: `a role tag (kind=) makes no field, so it takes no ${fieldSettings.join(', ')}: write {{role=${s.role};kind=${kind}}} apart from the field tags`,
      notes,
    };
  return { ok: true, tag: { type: 'text', required: false, role: s.role, kind }, notes };
}

/** Parses the text between `{{` and `}}`. */
export function parseTag(body: string): TagParseResult {
  const notes: string[] = [];
  const split = splitTag(body);
  if (!split) return { ok: false, error: 'the tag is empty', notes };
  let { name } = split;
  const settings: Settings = { required: true };
  for (const s of split.settings) readSetting(s, settings, notes);
  if (settings.kind !== undefined) return roleTag(name, settings, notes);
  let type = settings.type;
  if (type === undefined) {
    const keyword = name?.toLowerCase();
    type = keyword !== undefined && isFieldType(keyword) ? keyword : 'text';
    if (type === keyword) name = capitalise(keyword);
  }
  const error = tagError(name, type, settings.options);
  if (error) return { ok: false, error, notes };
  let options = settings.options;
  if (options && !TYPES_WITH_OPTIONS.includes(type as FieldType)) {
    notes.push(`options are ignored for a ${type} field`);
    options = undefined;
  }
  const tag: TagSpec = { type: type as FieldType, required: settings.required };
  if (name !== undefined) tag.name = name;
  if (settings.role !== undefined) tag.role = settings.role;
  if (options) tag.options = options;
  if (settings.width !== undefined) tag.width = settings.width;
  if (settings.height !== undefined) tag.height = settings.height;
  if (settings.logic && Object.keys(settings.logic).length) tag.logic = settings.logic;
  return { ok: true, tag, notes };
}

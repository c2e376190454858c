import type { FieldAreaRow, Tx } from '@esign/db';
import { insertTemplateFields, renameTemplateFieldRoles } from '@esign/db/queries/template-fields';
import { compilePattern, FIELD_NAME_PREFIX, formLogicProblems, type LogicField } from '@esign/domain';
import type { DetectedField } from '@esign/pdf';
import { check as checkRegex } from 'recheck';
import { pickLogic } from '../../contracts/field-logic.ts';
import {
  type FieldDefinitionInput,
  type FieldType,
  MAX_TEMPLATE_FIELDS,
  OPTION_TYPES,
} from '../../contracts/templates.ts';
import { CoreError } from '../../errors.ts';

// A template's fields and roles: the invalid_field rules, generated names, role assignment.

const MAX_ROLES = 10;
export const DEFAULT_ROLE = 'Signer';

/** A field as stored, before it gets its row id and position. */
export interface FieldSpec {
  name: string;
  type: FieldType;
  role: string | undefined;
  required: boolean;
  options: string[] | null;
  areas: FieldAreaRow[];
  source: string;
  /** form logic (issue 46): show_when, required_when, formula, format, validation; null when none */
  logic?: Record<string, unknown> | null;
}

export interface DocumentInfo {
  pages: { width: number; height: number }[];
}

function invalidField(index: number, message: string): CoreError {
  return new CoreError('invalid_field', `fields[${index}]: ${message}`);
}

/** The spec's invalid_field rules that need the documents: pages, document indexes, options. */
export function fieldSpecsFromDefinitions(
  defs: (Omit<FieldDefinitionInput, 'type'> & { type: FieldType })[],
  docs: DocumentInfo[],
  source: string,
): FieldSpec[] {
  return defs.map((def, i) => {
    if (OPTION_TYPES.includes(def.type) && !def.options?.length) {
      throw invalidField(i, `options are required for ${def.type} fields`);
    }
    const areas = def.areas.map((a, j) => {
      const doc = docs[a.document];
      if (!doc)
        throw invalidField(
          i,
          `areas[${j}].document ${a.document} does not exist (the template has ${docs.length})`,
        );
      if (a.page > doc.pages.length) {
        throw invalidField(
          i,
          `areas[${j}].page ${a.page} does not exist (document ${a.document} has ${doc.pages.length} pages)`,
        );
      }
      if (a.x + a.w > 1.0000001 || a.y + a.h > 1.0000001)
        throw invalidField(i, `areas[${j}] extends beyond the page`);
      return { page: a.page, x: a.x, y: a.y, w: a.w, h: a.h, document: a.document };
    });
    return {
      name: def.name ?? '',
      type: def.type,
      role: def.role,
      required: def.required,
      options: OPTION_TYPES.includes(def.type) ? (def.options ?? null) : null,
      areas,
      source,
      logic: pickLogic(def),
    };
  });
}

export function fieldSpecsFromDetected(detected: DetectedField[], documentIndex: number): FieldSpec[] {
  return detected.map((d) => ({
    name: d.name ?? '',
    type: d.type,
    role: d.role,
    required: d.required,
    options: OPTION_TYPES.includes(d.type) ? (d.options ?? null) : null,
    areas: d.areas.map(({ fontSize, ...a }) => ({
      ...a,
      document: documentIndex,
      ...(fontSize ? { font_size: fontSize } : {}),
    })),
    source: d.source === 'text_tag' ? 'text_tag' : 'form',
    logic: d.logic ?? null,
  }));
}

/** Where an area sits: the same place keeps what its text tag recorded. */
const placeKey = (a: FieldAreaRow) => `${a.document}:${a.page}:${a.x}:${a.y}`;

/**
 * Fields replaced as a whole (PATCH `fields`, the editor's save): an area left where it was keeps
 * the font size its text tag recorded (issue 33 item 2), so the seal still draws its text at the
 * tag's size; a moved or new area has none and its text is fitted to the box.
 */
export function keepFontSizes(
  before: readonly { areas: FieldAreaRow[] }[],
  fields: FieldSpec[],
): FieldSpec[] {
  const sizes = new Map<string, number>();
  for (const f of before) for (const a of f.areas) if (a.font_size) sizes.set(placeKey(a), a.font_size);
  if (sizes.size === 0) return fields;
  return fields.map((f) => ({
    ...f,
    areas: f.areas.map((a) => {
      const size = sizes.get(placeKey(a));
      return size ? { ...a, font_size: size } : a;
    }),
  }));
}

/** Unnamed fields get `Signature 2`-style names, numbered per type, skipping names already taken. */
export function nameFields(fields: FieldSpec[]): FieldSpec[] {
  const taken = new Set(fields.map((f) => f.name).filter(Boolean));
  const counters = new Map<FieldType, number>();
  return fields.map((f) => {
    if (f.name) return f;
    let n = counters.get(f.type) ?? 0;
    let name: string;
    do {
      n += 1;
      name = `${FIELD_NAME_PREFIX[f.type]} ${n}`;
    } while (taken.has(name));
    counters.set(f.type, n);
    taken.add(name);
    return { ...f, name };
  });
}

/** Roles named by fields are added in order of appearance; unroled fields take the first role. */
export function assignRoles(
  existing: string[],
  fields: FieldSpec[],
): { roles: string[]; fields: FieldSpec[] } {
  const roles = [...existing];
  for (const f of fields) if (f.role && !roles.includes(f.role)) roles.push(f.role);
  if (roles.length === 0) roles.push(DEFAULT_ROLE);
  if (roles.length > MAX_ROLES) {
    throw new CoreError(
      'invalid_field',
      `A template has at most ${MAX_ROLES} roles; the fields name ${roles.length}`,
    );
  }
  return { roles, fields: fields.map((f) => ({ ...f, role: f.role ?? roles[0] })) };
}

/**
 * The one bound on a template's fields (issue 29 item 3), whatever brings them: `fields` of the API,
 * MCP or the editor, text tags, form fields, a document added in the editor. Checked where every
 * path stores its fields (insertFields); the contracts reject a longer `fields` list up front.
 */
function checkFieldCount(count: number): void {
  if (count > MAX_TEMPLATE_FIELDS) {
    throw new CoreError(
      'invalid_field',
      `fields: a template has at most ${MAX_TEMPLATE_FIELDS.toLocaleString('en')} fields; this one would have ${count.toLocaleString('en')}`,
    );
  }
}

/**
 * Stores `fields` as the template's, numbered from `firstPosition` (the count of fields it keeps),
 * in as many statements as PostgreSQL's parameter limit needs.
 */
export async function insertFields(
  tx: Tx,
  templateId: number,
  opts: { fields: FieldSpec[]; firstPosition?: number },
): Promise<void> {
  const first = opts.firstPosition ?? 0;
  checkFieldCount(first + opts.fields.length);
  if (first === 0) await checkFormLogic(opts.fields);
  await insertTemplateFields(
    tx,
    templateId,
    opts.fields.map((f, i) => ({
      position: first + i,
      name: f.name || null,
      type: f.type,
      role: f.role!,
      required: f.required,
      options: f.options,
      areas: f.areas,
      source: f.source,
      logic: f.logic ?? null,
    })),
  );
}

/**
 * The patterns among `patterns` that recheck (a ReDoS checker that builds the pattern's automaton)
 * does not find safe, checked as the evaluator runs them (anchored, Unicode): vulnerable to
 * exponential or polynomial backtracking, or not decided within its time limit. A pattern is also
 * only ever run on at most MAX_PATTERN_INPUT characters.
 */
async function unsafePatterns(patterns: readonly string[]): Promise<Set<string>> {
  const unsafe = new Set<string>();
  for (const pattern of new Set(patterns)) {
    const result = await checkRegex(`^(?:${pattern})$`, 'u', { timeout: 2_000 }).catch(() => null);
    if (result?.status !== 'safe') unsafe.add(pattern);
  }
  return unsafe;
}

/**
 * Issue 46: the template's form logic as a whole (references across roles and documents, cycles,
 * formulas, patterns); 422 invalid_field naming the fields.
 */
async function checkFormLogic(fields: readonly FieldSpec[]): Promise<void> {
  if (!fields.some((f) => f.logic)) return;
  const logic: LogicField[] = fields.map((f) => ({
    name: f.name,
    type: f.type,
    role: f.role ?? '',
    required: f.required,
    ...(f.logic ?? {}),
  }));
  const patterns = logic.flatMap((f) => (f.validation?.pattern !== undefined ? [f.validation.pattern] : []));
  const unsafe = await unsafePatterns(patterns.filter((p) => compilePattern(p) !== null));
  const problems = formLogicProblems(logic, { isSafePattern: (p) => !unsafe.has(p) });
  if (problems.length === 0) return;
  const names = [...new Set(problems.flatMap((p) => p.fields))];
  throw new CoreError(
    'invalid_field',
    `fields ${names.map((n) => `"${n}"`).join(', ')}: ${problems.map((p) => p.message).join('; ')}`,
  );
}

/**
 * PATCH `roles`: renamed by position, extra names added, none removed. The fields of a renamed
 * role follow it, in one statement so swapping two names cannot collide. Returns the new roles.
 */
export async function renameRoles(
  tx: Tx,
  templateId: number,
  roles: { current: string[]; input: string[] },
): Promise<string[]> {
  const { input } = roles;
  if (new Set(input).size !== input.length) throw new CoreError('invalid_parameter', 'roles must be unique');
  const next = [...roles.current];
  const renames = new Map<string, string>();
  input.forEach((name, i) => {
    if (i < next.length) {
      if (next[i] !== name) renames.set(next[i]!, name);
      next[i] = name;
    } else next.push(name);
  });
  if (new Set(next).size !== next.length)
    throw new CoreError('invalid_parameter', 'roles would not be unique after renaming');
  if (next.length > MAX_ROLES)
    throw new CoreError('invalid_parameter', `A template has at most ${MAX_ROLES} roles`);
  await renameTemplateFieldRoles(tx, templateId, renames);
  return next;
}

import { isFilled } from '../values.ts';
import { groupHolds, groupRules, ruleHolds } from './conditions.ts';
import { evaluateFormula, type Formula, formulaReferences, parseFormula, roundTo } from './formula.ts';
import type { FormValues, LogicField, ValueIssue } from './types.ts';
import { validateValue } from './validation.ts';

/** How one field stands given the form's values. */
export interface FieldState {
  visible: boolean;
  required: boolean;
  /** the fields whose answers hid it (empty when shown) */
  hiddenBy: string[];
  /** a formula field's computed value (null: no value, e.g. a division by zero) */
  computed?: number | null;
}

export interface FormState {
  fields: Record<string, FieldState>;
  /** the values as they count: hidden fields' removed (null), formula fields' computed */
  values: Record<string, unknown>;
}

/** The fields a field's logic reads (conditions and formula). */
export function fieldDependencies(f: LogicField, parsed?: Formula): string[] {
  const names = [...groupRules(f.show_when), ...groupRules(f.required_when)].map((r) => r.field);
  if (f.formula !== undefined) {
    try {
      names.push(...formulaReferences(parsed ?? parseFormula(f.formula)));
    } catch {
      // an unparsable formula (refused at save) depends on nothing
    }
  }
  return [...new Set(names)];
}

/**
 * Fields in an order where each comes after those it reads (Kahn's algorithm, no recursion);
 * `cycle` lists the fields left in a reference cycle (refused at save; appended as declared).
 */
export function dependencyOrder(fields: readonly LogicField[]): { order: LogicField[]; cycle: string[] } {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const deps = new Map(
    fields.map((f) => [f.name, fieldDependencies(f).filter((d) => byName.has(d) && d !== f.name)]),
  );
  const selfRef = fields.filter((f) => fieldDependencies(f).includes(f.name)).map((f) => f.name);
  const readers = new Map<string, string[]>();
  const waiting = new Map<string, number>();
  for (const [name, ds] of deps) {
    waiting.set(name, ds.length);
    for (const d of ds) readers.set(d, [...(readers.get(d) ?? []), name]);
  }
  const queue = fields
    .filter((f) => waiting.get(f.name) === 0 && !selfRef.includes(f.name))
    .map((f) => f.name);
  const done = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const name = queue[i]!;
    done.add(name);
    for (const r of readers.get(name) ?? []) {
      const left = waiting.get(r)! - 1;
      waiting.set(r, left);
      if (left === 0 && !selfRef.includes(r)) queue.push(r);
    }
  }
  const cycle = fields.filter((f) => !done.has(f.name)).map((f) => f.name);
  return { order: [...queue.map((n) => byName.get(n)!), ...cycle.map((n) => byName.get(n)!)], cycle };
}

/** A value as a formula reads it: numbers, a ticked checkbox 1, anything else 0. */
function asFormulaNumber(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v === true) return 1;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v.trim());
  return 0;
}

/**
 * The one evaluation of a form (issue 46): which fields are shown and required, and the formula
 * fields' values, given every field's value by name (all roles' and documents'). The signing page
 * runs it as the signer types; the server runs it at completion and for the seal.
 */
export function evaluateForm(fields: readonly LogicField[], values: FormValues): FormState {
  const states: Record<string, FieldState> = {};
  const current: Record<string, unknown> = {};
  const read = (name: string): unknown => (Object.hasOwn(current, name) ? current[name] : undefined);
  for (const f of dependencyOrder(fields).order) {
    const visible = groupHolds(f.show_when, read);
    const required = visible && (f.required_when ? groupHolds(f.required_when, read) : f.required);
    const state: FieldState = { visible, required, hiddenBy: visible ? [] : hidingFields(f, read) };
    let value: unknown = Object.hasOwn(values, f.name) ? values[f.name] : undefined;
    if (f.formula !== undefined) {
      let computed: number | null = null;
      try {
        const raw = evaluateFormula(parseFormula(f.formula), (n) => asFormulaNumber(read(n)));
        computed = raw === null ? null : roundTo(raw, f.format?.decimals ?? 2);
      } catch {
        computed = null;
      }
      state.computed = visible ? computed : null;
      value = state.computed;
    }
    states[f.name] = state;
    current[f.name] = visible ? (value ?? null) : null;
  }
  return { fields: states, values: current };
}

/** Which fields' answers hide a field: the rules of its show_when that do not hold. */
function hidingFields(f: LogicField, read: (name: string) => unknown): string[] {
  const failing = groupRules(f.show_when).filter((r) => !ruleHolds(r, read(r.field)));
  return [...new Set(failing.map((r) => r.field))];
}

/** Two formula values agree when they round to the same number at the field's decimals. */
export function sameComputed(f: LogicField, given: unknown, computed: number | null | undefined): boolean {
  if (computed === null || computed === undefined) return !isFilled(given);
  return typeof given === 'number' && roundTo(given, f.format?.decimals ?? 2) === computed;
}

/**
 * The problems of one role's submission (issue 46): a shown required field left empty, a hidden
 * field filled (`entered`: what the signer themself gave), a formula value that disagrees with
 * the computation, a value its validation refuses. The page shows them as the signer types; the
 * server refuses a submission that has any (422, the first one's field named).
 */
export function formIssues(
  fields: readonly LogicField[],
  values: FormValues,
  opts: { role: string; entered?: FormValues; locale?: string },
): { state: FormState; issues: ValueIssue[] } {
  const state = evaluateForm(fields, values);
  const entered = opts.entered ?? values;
  const issues: ValueIssue[] = [];
  const add = (field: string, key: string, english: string) =>
    issues.push({ field, key: `error.form_${key}`, english: `"${field}": ${english}`, values: { field } });
  for (const f of fields) {
    if (f.role !== opts.role) continue;
    const s = state.fields[f.name]!;
    const own = Object.hasOwn(entered, f.name) ? entered[f.name] : undefined;
    if (!s.visible) {
      if (isFilled(own) && f.formula === undefined)
        add(
          f.name,
          'hidden',
          `this field is hidden by the answer to ${s.hiddenBy.join(', ')} and must stay empty`,
        );
      continue;
    }
    if (f.formula !== undefined) {
      if (isFilled(own) && !sameComputed(f, own, s.computed))
        add(f.name, 'formula', `the value does not match its formula (expected ${s.computed ?? 'no value'})`);
      continue;
    }
    const value = state.values[f.name];
    if (s.required && !isFilled(value)) {
      add(f.name, 'required', 'this field is required');
      continue;
    }
    const problem = validateValue(f, value, opts.locale);
    if (problem) issues.push(problem);
  }
  return { state, issues };
}

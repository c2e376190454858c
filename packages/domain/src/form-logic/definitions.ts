import { isValidDate } from '../values.ts';
import { groupRules } from './conditions.ts';
import { dependencyOrder } from './form-state.ts';
import { type Formula, FormulaError, formulaReferences, parseFormula } from './formula.ts';
import { type ConditionGroup, type LogicField, MAX_PATTERN_LENGTH, MAX_RULES } from './types.ts';
import { compilePattern } from './validation.ts';

/** A definition the form logic refuses: the fields it names and why (422 invalid_field). */
export interface LogicProblem {
  fields: string[];
  message: string;
}

/** Field types a formula may read: numbers (formula fields too) and checkboxes (1 when ticked). */
const FORMULA_INPUT_TYPES = ['number', 'checkbox'];
const TEXT_TYPES = ['text', 'phone'];

function conditionProblems(
  f: LogicField,
  key: 'show_when' | 'required_when',
  names: Map<string, number>,
): string[] {
  const group: ConditionGroup | undefined = f[key];
  if (!group) return [];
  const rules = groupRules(group);
  const out: string[] = [];
  if (rules.length === 0) out.push(`${key} needs at least one rule`);
  if (rules.length > MAX_RULES) out.push(`${key} has more than ${MAX_RULES} rules`);
  for (const r of rules.slice(0, MAX_RULES)) {
    const count = names.get(r.field) ?? 0;
    if (count === 0) out.push(`${key} refers to "${r.field}", which is not a field of the template`);
    else if (count > 1) out.push(`${key} refers to "${r.field}", a name several fields share`);
    if ((r.op === 'equals' || r.op === 'not_equals' || r.op === 'contains') && r.value === undefined)
      out.push(`${key}: the ${r.op} rule on "${r.field}" needs a value`);
    if (
      (r.op === 'gt' || r.op === 'lt') &&
      !(typeof r.value === 'number' || (typeof r.value === 'string' && isValidDate(r.value)))
    )
      out.push(`${key}: the ${r.op} rule on "${r.field}" needs a number or a YYYY-MM-DD date`);
  }
  return out;
}

function formulaProblems(f: LogicField, byName: Map<string, LogicField[]>): string[] {
  if (f.formula === undefined) return [];
  if (f.type !== 'number') return [`a formula is only allowed on number fields, not ${f.type}`];
  let parsed: Formula;
  try {
    parsed = parseFormula(f.formula);
  } catch (err) {
    if (err instanceof FormulaError) return [`formula: ${err.message}`];
    throw err;
  }
  const out: string[] = [];
  for (const name of formulaReferences(parsed)) {
    const found = byName.get(name) ?? [];
    if (found.length === 0) out.push(`formula refers to "${name}", which is not a field of the template`);
    else if (found.length > 1) out.push(`formula refers to "${name}", a name several fields share`);
    else if (!FORMULA_INPUT_TYPES.includes(found[0]!.type))
      out.push(
        `formula refers to "${name}", a ${found[0]!.type} field (only number and checkbox fields count)`,
      );
  }
  return out;
}

function validationProblems(f: LogicField, isSafePattern: (pattern: string) => boolean): string[] {
  const v = f.validation;
  if (!v) return [];
  const out: string[] = [];
  const only = (keys: (keyof typeof v)[], types: string[]) => {
    for (const k of keys)
      if (v[k] !== undefined && !types.includes(f.type))
        out.push(`validation.${k} does not apply to ${f.type} fields`);
  };
  only(['pattern', 'preset', 'min_length', 'max_length', 'message'], TEXT_TYPES);
  only(['min', 'max', 'step'], ['number']);
  only(['earliest', 'latest'], ['date']);
  if (v.pattern !== undefined) {
    if (v.pattern.length > MAX_PATTERN_LENGTH)
      out.push(`validation.pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
    else if (!compilePattern(v.pattern)) out.push('validation.pattern is not a valid regular expression');
    else if (!isSafePattern(v.pattern))
      out.push(
        'validation.pattern could take exponential time on some inputs (nested or overlapping repetition); simplify it',
      );
  }
  if (v.min_length !== undefined && v.max_length !== undefined && v.min_length > v.max_length)
    out.push('validation.min_length is greater than max_length');
  if (v.min !== undefined && v.max !== undefined && v.min > v.max)
    out.push('validation.min is greater than max');
  for (const k of ['earliest', 'latest'] as const)
    if (v[k] !== undefined && !isValidDate(v[k])) out.push(`validation.${k} must be a YYYY-MM-DD date`);
  if (v.earliest && v.latest && v.earliest > v.latest) out.push('validation.earliest is after latest');
  return out;
}

/**
 * The save-time check of a template's form logic (issue 46): references to fields that exist
 * (across roles and documents, by a name only one field has), formulas that parse within their
 * bounds on number fields reading numbers, validation keys that fit the type, patterns that
 * compile and pass `isSafePattern` (the server's backtracking check), and no reference cycle.
 */
export function formLogicProblems(
  fields: readonly LogicField[],
  opts: { isSafePattern: (pattern: string) => boolean },
): LogicProblem[] {
  const names = new Map<string, number>();
  const byName = new Map<string, LogicField[]>();
  for (const f of fields) {
    names.set(f.name, (names.get(f.name) ?? 0) + 1);
    byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  }
  const problems: LogicProblem[] = [];
  for (const f of fields) {
    const messages = [
      ...conditionProblems(f, 'show_when', names),
      ...conditionProblems(f, 'required_when', names),
      ...formulaProblems(f, byName),
      ...validationProblems(f, opts.isSafePattern),
    ];
    if (f.format && f.formula === undefined && f.type !== 'number')
      messages.push('format is only allowed on number fields');
    for (const message of messages) problems.push({ fields: [f.name], message: `"${f.name}": ${message}` });
  }
  if (problems.length) return problems;
  const { cycle } = dependencyOrder(fields);
  if (cycle.length)
    problems.push({
      fields: cycle,
      message: `reference cycle: ${cycle.map((n) => `"${n}"`).join(', ')} depend on one another`,
    });
  return problems;
}

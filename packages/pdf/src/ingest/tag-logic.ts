import { CONDITION_OPS, type ConditionOp, VALIDATION_PRESETS } from '@esign/domain';

/**
 * Issue 46: the form logic settings of a text tag (docs/fields.md, "Text tags"). A tag cannot hold
 * braces, so a formula writes its references as `[Field name]`. The settings are gathered here as
 * the field definition's keys; the template's save checks them like any others (422 invalid_field).
 *
 * | key          | value                         | field definition key |
 * |--------------|-------------------------------|----------------------|
 * | show_if      | Field:op[:value]              | show_when.all[]      |
 * | show_if_any  | Field:op[:value]              | show_when.any[]      |
 * | required_if  | Field:op[:value]              | required_when.all[]  |
 * | formula      | `[Quantity]*[Unit price]`     | formula              |
 * | decimals, prefix, suffix | as written        | format               |
 * | preset, pattern, min_length, max_length, min, max, step, earliest, latest | as written | validation |
 */
export type TagLogic = Record<string, unknown>;

const NUMBERS = ['min_length', 'max_length', 'min', 'max', 'step'];
const TEXTS = ['pattern', 'earliest', 'latest'];

function rule(value: string): { field: string; op: ConditionOp; value?: string | number | boolean } | string {
  const [field, op, ...rest] = value.split(':');
  if (!field?.trim() || !op || !(CONDITION_OPS as readonly string[]).includes(op.trim().toLowerCase()))
    return `"${value}" is not Field:op:value with op one of ${CONDITION_OPS.join(', ')}`;
  const out: { field: string; op: ConditionOp; value?: string | number | boolean } = {
    field: field.trim(),
    op: op.trim().toLowerCase() as ConditionOp,
  };
  if (rest.length) {
    const v = rest.join(':').trim();
    out.value = v === 'true' ? true : v === 'false' ? false : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }
  return out;
}

function addRule(logic: TagLogic, key: 'show_when' | 'required_when', kind: 'all' | 'any', r: unknown): void {
  logic[key] ??= {};
  const group = logic[key] as Record<string, unknown[]>;
  group[kind] ??= [];
  group[kind].push(r);
}

function sub(logic: TagLogic, key: 'format' | 'validation'): Record<string, unknown> {
  logic[key] ??= {};
  return logic[key] as Record<string, unknown>;
}

/** Reads one form logic setting into `logic`; false when `key` is not one of them. */
export function readLogicSetting(key: string, value: string, logic: TagLogic, notes: string[]): boolean {
  if (key === 'show_if' || key === 'show_if_any' || key === 'required_if') {
    const r = rule(value);
    if (typeof r === 'string') notes.push(`${key}: ${r}; ignored`);
    else
      addRule(
        logic,
        key === 'required_if' ? 'required_when' : 'show_when',
        key === 'show_if_any' ? 'any' : 'all',
        r,
      );
  } else if (key === 'formula') {
    logic.formula = value.replace(/\[([^\]]+)\]/g, '{$1}');
  } else if (key === 'decimals') {
    const n = Number(value);
    if (Number.isInteger(n) && n >= 0 && n <= 10) sub(logic, 'format').decimals = n;
    else notes.push(`decimals="${value}" is not a whole number from 0 to 10; ignored`);
  } else if (key === 'prefix' || key === 'suffix') {
    // A tag's values are trimmed: the prefix or suffix is set one space apart from the number.
    sub(logic, 'format')[key] = key === 'prefix' ? `${value} ` : ` ${value}`;
  } else if (key === 'preset') {
    if ((VALIDATION_PRESETS as readonly string[]).includes(value.toLowerCase()))
      sub(logic, 'validation').preset = value.toLowerCase();
    else notes.push(`preset="${value}" is not one of ${VALIDATION_PRESETS.join(', ')}; ignored`);
  } else if (NUMBERS.includes(key)) {
    const n = Number(value);
    if (value !== '' && Number.isFinite(n)) sub(logic, 'validation')[key] = n;
    else notes.push(`${key}="${value}" is not a number; ignored`);
  } else if (TEXTS.includes(key)) {
    sub(logic, 'validation')[key] = value;
  } else return false;
  return true;
}

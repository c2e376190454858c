import { isFilled } from '../values.ts';
import type { ConditionGroup, ConditionRule } from './types.ts';

// Conditions (issue 46 item 1): whether a field is shown / required, from other fields' values.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A value as the rules compare it: text trimmed, a checkbox as `true` / `false`. */
function text(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? v.trim() : '';
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v.trim());
  return null;
}

function same(v: unknown, expected: unknown): boolean {
  if (Array.isArray(v)) return v.length === 1 && text(v[0]) === text(expected);
  const a = asNumber(v);
  const b = asNumber(expected);
  if (a !== null && b !== null && typeof v === 'number') return a === b;
  return text(v) === text(expected);
}

/** gt / lt: numbers as numbers, `YYYY-MM-DD` dates as dates; anything else does not compare (false). */
function compare(v: unknown, expected: unknown): number | null {
  const a = asNumber(v);
  const b = asNumber(expected);
  if (a !== null && b !== null) return a - b;
  const x = text(v);
  const y = text(expected);
  if (ISO_DATE.test(x) && ISO_DATE.test(y)) return x < y ? -1 : x > y ? 1 : 0;
  return null;
}

/** Whether one rule holds for `value` (the referenced field's value; empty when it is hidden). */
export function ruleHolds(rule: ConditionRule, value: unknown): boolean {
  const filled = isFilled(value);
  switch (rule.op) {
    case 'is_empty':
      return !filled;
    case 'is_not_empty':
      return filled;
    case 'equals':
      return filled && same(value, rule.value);
    case 'not_equals':
      return !filled || !same(value, rule.value);
    case 'contains': {
      if (!filled) return false;
      const needle = text(rule.value).toLowerCase();
      if (Array.isArray(value)) return value.some((v) => text(v).toLowerCase() === needle);
      return text(value).toLowerCase().includes(needle);
    }
    case 'gt':
    case 'lt': {
      if (!filled) return false;
      const c = compare(value, rule.value);
      return c !== null && (rule.op === 'gt' ? c > 0 : c < 0);
    }
  }
}

/** Whether a group holds: every rule (`all`) or at least one (`any`); no group always holds. */
export function groupHolds(group: ConditionGroup | undefined, read: (name: string) => unknown): boolean {
  if (!group) return true;
  if (group.any) return group.any.some((r) => ruleHolds(r, read(r.field)));
  return (group.all ?? []).every((r) => ruleHolds(r, read(r.field)));
}

/** The rules of a group, whichever kind. */
export function groupRules(group: ConditionGroup | undefined): ConditionRule[] {
  return group ? (group.any ?? group.all ?? []) : [];
}

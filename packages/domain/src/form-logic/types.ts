import type { FieldValue } from '../values.ts';

/**
 * Form logic of a template field (issue 46): when it is shown, when it is required, how a number
 * field is computed, and what its value must look like. Stored with the field (template_fields.logic),
 * copied into each request's snapshot, and evaluated by the one module in this folder on the
 * signing page and on the server alike. docs/fields.md describes it for senders.
 */

/** How a rule compares a field's value with its `value`. */
export const CONDITION_OPS = [
  'equals',
  'not_equals',
  'is_empty',
  'is_not_empty',
  'contains',
  'gt',
  'lt',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** One rule: the value of field `field` compared by `op` with `value` (not used by is_empty / is_not_empty). */
export interface ConditionRule {
  field: string;
  op: ConditionOp;
  value?: string | number | boolean | undefined;
}

/** Several rules: all must hold (`all`), or at least one (`any`). */
export type ConditionGroup =
  | { all: ConditionRule[]; any?: undefined }
  | { any: ConditionRule[]; all?: undefined };

/** Ready-made text patterns. */
export const VALIDATION_PRESETS = ['email', 'phone', 'iban', 'postcode'] as const;
export type ValidationPreset = (typeof VALIDATION_PRESETS)[number];

/** A pattern's message: one text, or texts by signer language (`{"en": "...", "de": "..."}`). */
export type LocalisedText = string | Readonly<Record<string, string>>;

export interface FieldValidation {
  /** text fields */
  preset?: ValidationPreset | undefined;
  pattern?: string | undefined;
  message?: LocalisedText | undefined;
  min_length?: number | undefined;
  max_length?: number | undefined;
  /** number fields */
  min?: number | undefined;
  max?: number | undefined;
  step?: number | undefined;
  /** date fields, `YYYY-MM-DD` */
  earliest?: string | undefined;
  latest?: string | undefined;
}

/** How a computed number is shown and stored: rounded to `decimals` (default 2), with a prefix/suffix drawn around it. */
export interface NumberFormat {
  decimals?: number | undefined;
  prefix?: string | undefined;
  suffix?: string | undefined;
}

/** The logic keys of a field definition (all optional). */
export interface FieldLogic {
  show_when?: ConditionGroup | undefined;
  required_when?: ConditionGroup | undefined;
  formula?: string | undefined;
  format?: NumberFormat | undefined;
  validation?: FieldValidation | undefined;
}

/** What the evaluator needs of a field. */
export interface LogicField extends FieldLogic {
  name: string;
  type: string;
  role: string;
  required: boolean;
  options?: readonly string[] | undefined;
}

/** The form's values keyed by field name, whichever signer gave them. */
export type FormValues = Readonly<Record<string, FieldValue | undefined>>;

/** A problem with a value, as a message key of @esign/i18n and its values (the page and the server word it alike). */
export interface ValueIssue {
  field: string;
  key: string;
  values: Record<string, string | number>;
  /** the same in English, for the API's message */
  english: string;
}

/** The longest formula and pattern text, and the deepest nesting a formula or a condition may have. */
export const MAX_FORMULA_LENGTH = 2_000;
export const MAX_PATTERN_LENGTH = 500;
export const MAX_FORMULA_DEPTH = 32;
export const MAX_RULES = 50;
/** A pattern is only ever tested on at most this many characters (longer values are refused first). */
export const MAX_PATTERN_INPUT = 1_000;

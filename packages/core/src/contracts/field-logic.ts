import {
  CONDITION_OPS,
  MAX_FORMULA_DEPTH,
  MAX_FORMULA_LENGTH,
  MAX_PATTERN_LENGTH,
  MAX_RULES,
  VALIDATION_PRESETS,
} from '@esign/domain';
import { z } from 'zod';

// Issue 46: the form logic keys of a field definition (docs/fields.md), checked further at save by
// @esign/domain's formLogicProblems (references, cycles, formulas, patterns: 422 invalid_field).

const ConditionRule = z
  .object({
    field: z
      .string()
      .min(1)
      .max(200)
      .describe('the name of the field whose value is compared (any role, any document)'),
    op: z
      .enum(CONDITION_OPS)
      .describe(
        'equals, not_equals, contains (text contains, or a list holds), gt / lt (numbers, or YYYY-MM-DD dates), is_empty, is_not_empty',
      ),
    value: z
      .union([z.string().max(500), z.number(), z.boolean()])
      .optional()
      .describe(
        'what the value is compared with; a checkbox compares with true or false; not used by is_empty / is_not_empty',
      ),
  })
  .strict();

const rules = z.array(ConditionRule).min(1).max(MAX_RULES);

const ConditionGroupInput = z
  .union([
    z.object({ all: rules.describe('every rule must hold') }).strict(),
    z.object({ any: rules.describe('at least one rule must hold') }).strict(),
  ])
  .describe(`{"all": [rules]} or {"any": [rules]}, at most ${MAX_RULES} rules; a rule is {field, op, value}`);

const LocalisedText = z.union([
  z.string().min(1).max(500),
  z.record(z.string().min(2).max(10), z.string().min(1).max(500)),
]);

const FieldValidationInput = z
  .object({
    preset: z
      .enum(VALIDATION_PRESETS)
      .optional()
      .describe(
        'text and phone fields: a ready-made check (email, phone, iban with its check digits, postcode)',
      ),
    pattern: z
      .string()
      .min(1)
      .max(MAX_PATTERN_LENGTH)
      .optional()
      .describe(
        'text and phone fields: a regular expression the whole value must match (Unicode; refused at save if it could backtrack catastrophically)',
      ),
    message: LocalisedText.optional().describe(
      'the message shown when `pattern` does not match: one text, or texts by language such as {"en": "...", "de": "..."}',
    ),
    min_length: z.number().int().min(0).max(10_000).optional().describe('text fields: fewest characters'),
    max_length: z.number().int().min(1).max(10_000).optional().describe('text fields: most characters'),
    min: z.number().optional().describe('number fields: smallest value'),
    max: z.number().optional().describe('number fields: largest value'),
    step: z
      .number()
      .gt(0)
      .optional()
      .describe('number fields: values go in steps of this, from `min` (or 0)'),
    earliest: z.string().optional().describe('date fields: earliest date, YYYY-MM-DD'),
    latest: z.string().optional().describe('date fields: latest date, YYYY-MM-DD'),
  })
  .strict();

const NumberFormatInput = z
  .object({
    decimals: z
      .number()
      .int()
      .min(0)
      .max(10)
      .optional()
      .describe('digits after the decimal point; default 2'),
    prefix: z.string().max(10).optional().describe('drawn before the number, such as `€ `'),
    suffix: z.string().max(10).optional().describe('drawn after the number, such as ` EUR`'),
  })
  .strict();

/** The logic keys every field definition (input and output) carries. */
export const fieldLogicShape = {
  show_when: ConditionGroupInput.optional().describe(
    'the field is shown only when these rules hold; a hidden field is neither required, stored nor drawn',
  ),
  required_when: ConditionGroupInput.optional().describe(
    'the field is required only when these rules hold (instead of `required`)',
  ),
  formula: z
    .string()
    .min(1)
    .max(MAX_FORMULA_LENGTH)
    .optional()
    .describe(
      `number fields: computed, read-only for the signer: + - * / ( ), round(x[, digits]), min(...), max(...), sum(...), numbers, and field references as {Field name}; at most ${MAX_FORMULA_DEPTH} levels deep`,
    ),
  format: NumberFormatInput.optional().describe('number fields: how the value is rounded and drawn'),
  validation: FieldValidationInput.optional().describe(
    'checks beyond the type, on the signing page and on the server',
  ),
};

/** The logic keys of a field, as stored in template_fields.logic and in request snapshots. */
const LOGIC_KEYS = ['show_when', 'required_when', 'formula', 'format', 'validation'] as const;

/** A field's logic keys only, or null when it has none. */
export function pickLogic(f: Readonly<Record<string, unknown>>): Record<string, unknown> | null {
  const out = Object.fromEntries(
    LOGIC_KEYS.filter((k) => f[k] !== undefined && f[k] !== null).map((k) => [k, f[k]]),
  );
  return Object.keys(out).length ? out : null;
}

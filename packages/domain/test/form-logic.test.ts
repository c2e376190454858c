import { describe, expect, it } from 'vitest';
import {
  evaluateForm,
  evaluateFormula,
  formIssues,
  formLogicProblems,
  isIban,
  type LogicField,
  parseFormula,
  validateValue,
} from '../src/index.ts';

const safe = { isSafePattern: () => true };
const field = (f: Partial<LogicField> & { name: string }): LogicField => ({
  type: 'text',
  role: 'Buyer',
  required: true,
  ...f,
});

/** The company/person form of issue 46's "done when". */
const form: LogicField[] = [
  field({ name: 'Kind', type: 'radio', options: ['Company', 'Person'] }),
  field({ name: 'VAT number', show_when: { all: [{ field: 'Kind', op: 'equals', value: 'Company' }] } }),
  field({
    name: 'Birth date',
    type: 'date',
    show_when: { all: [{ field: 'Kind', op: 'equals', value: 'Person' }] },
  }),
  field({ name: 'Quantity', type: 'number', validation: { min: 1, max: 100, step: 1 } }),
  field({ name: 'Unit price', type: 'number' }),
  field({ name: 'Total', type: 'number', formula: '{Quantity} * {Unit price}', format: { decimals: 2 } }),
  field({ name: 'IBAN', validation: { preset: 'iban' } }),
  field({
    name: 'Discount initials',
    required: false,
    required_when: { any: [{ field: 'Total', op: 'gt', value: 1000 }] },
  }),
];

describe('form logic: conditions (issue 46 item 1)', () => {
  it('shows a field when its rule holds and records which answer hid the other', () => {
    const s = evaluateForm(form, { Kind: 'Company' });
    expect(s.fields['VAT number']).toMatchObject({ visible: true, required: true });
    expect(s.fields['Birth date']).toMatchObject({ visible: false, required: false, hiddenBy: ['Kind'] });
  });
  it('a hidden field counts as empty for the rules that read it (chains)', () => {
    const chain = [
      field({ name: 'A', type: 'checkbox' }),
      field({ name: 'B', show_when: { all: [{ field: 'A', op: 'equals', value: true }] } }),
      field({ name: 'C', show_when: { all: [{ field: 'B', op: 'is_not_empty' }] } }),
    ];
    expect(evaluateForm(chain, { A: false, B: 'x' }).fields.C!.visible).toBe(false);
    expect(evaluateForm(chain, { A: true, B: 'x' }).fields.C!.visible).toBe(true);
  });
  it('operators: not_equals, is_empty, contains (text and lists), gt/lt on numbers and dates; any vs all', () => {
    const f = (op: string, value?: unknown) =>
      field({ name: 'X', show_when: { all: [{ field: 'Y', op: op as 'equals', value: value as string }] } });
    const visible = (rule: LogicField, y: unknown) =>
      evaluateForm([field({ name: 'Y' }), rule], { Y: y as string }).fields.X!.visible;
    expect(visible(f('not_equals', 'a'), 'b')).toBe(true);
    expect(visible(f('not_equals', 'a'), 'a')).toBe(false);
    expect(visible(f('is_empty'), '')).toBe(true);
    expect(visible(f('contains', 'ACME'), 'the acme ltd')).toBe(true);
    expect(visible(f('contains', 'b'), ['a', 'b'])).toBe(true);
    expect(visible(f('gt', 10), 11)).toBe(true);
    expect(visible(f('lt', 10), 11)).toBe(false);
    expect(visible(f('gt', '2026-01-01'), '2026-06-01')).toBe(true);
    const any = field({
      name: 'X',
      show_when: {
        any: [
          { field: 'Y', op: 'equals', value: 'a' },
          { field: 'Y', op: 'equals', value: 'b' },
        ],
      },
    });
    expect(visible(any, 'b')).toBe(true);
    expect(visible(any, 'c')).toBe(false);
  });
  it('required_when decides required-ness of a shown field', () => {
    expect(
      evaluateForm(form, { Quantity: 20, 'Unit price': 100 }).fields['Discount initials']!.required,
    ).toBe(true);
    expect(evaluateForm(form, { Quantity: 2, 'Unit price': 100 }).fields['Discount initials']!.required).toBe(
      false,
    );
  });
});

describe('form logic: formulas (issue 46 item 2)', () => {
  const calc = (src: string, vals: Record<string, number> = {}) =>
    evaluateFormula(parseFormula(src), (n) => vals[n] ?? 0);
  it('arithmetic with precedence, parentheses, round/min/max/sum, references by braces or identifier', () => {
    expect(calc('1 + 2 * 3')).toBe(7);
    expect(calc('(1 + 2) * 3')).toBe(9);
    expect(calc('-2 * -3')).toBe(6);
    expect(calc('round(2.345, 2)')).toBe(2.35);
    expect(calc('round(2.5)')).toBe(3);
    expect(calc('min(3, 1, 2) + max(3, 1, 2)')).toBe(4);
    expect(calc('sum({A b}, C, 1)', { 'A b': 2, C: 3 })).toBe(6);
    expect(calc('1 / 0')).toBeNull();
  });
  it('computes formula fields from other fields and rounds them to the format', () => {
    expect(evaluateForm(form, { Quantity: 3, 'Unit price': 19.999 }).values.Total).toBe(60);
    expect(evaluateForm(form, { Quantity: 3, 'Unit price': 1.115 }).values.Total).toBe(3.35);
  });
  it('refuses bad formulas with a reason', () => {
    for (const bad of ['1 +', '(1', 'foo(1)', '1 $ 2', '{unclosed', '', 'round(1,2,3)']) {
      expect(() => parseFormula(bad), bad).toThrow();
    }
  });
  it('attack: a 10,000-level nesting is refused quickly, without a stack overflow', () => {
    const t0 = Date.now();
    for (const deep of [
      '('.repeat(10_000) + '1' + ')'.repeat(10_000),
      '-'.repeat(10_000) + '1',
      'round('.repeat(10_000),
    ]) {
      const problems = formLogicProblems([field({ name: 'N', type: 'number', formula: deep })], safe);
      expect(problems[0]!.message).toMatch(/"N": formula: (longer than|nested more than)/);
    }
    const nested = `${'('.repeat(33)}1${')'.repeat(33)}`;
    expect(
      formLogicProblems([field({ name: 'N', type: 'number', formula: nested })], safe)[0]!.message,
    ).toMatch(/nested more than 32/);
    expect(Date.now() - t0).toBeLessThan(500);
  });
});

describe('form logic: validation (issue 46 item 3)', () => {
  it('presets: IBAN with its check digits, email, phone, postcode', () => {
    expect(isIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isIban('DE88 3704 0044 0532 0130 00')).toBe(false);
    const iban = form.find((f) => f.name === 'IBAN')!;
    expect(validateValue(iban, 'GB82WEST12345698765432')).toBeNull();
    expect(validateValue(iban, 'GB82WEST12345698765433')).toMatchObject({
      key: 'error.form_iban',
      field: 'IBAN',
    });
    expect(validateValue(field({ name: 'E', validation: { preset: 'email' } }), 'a@b')).toMatchObject({
      key: 'error.form_email',
    });
    expect(validateValue(field({ name: 'P', validation: { preset: 'postcode' } }), '10115')).toBeNull();
    expect(validateValue(field({ name: 'T', validation: { preset: 'phone' } }), 'call me')).toMatchObject({
      key: 'error.form_phone',
    });
  });
  it('pattern with a message in the signer language; lengths; number range and step; date range', () => {
    const code = field({
      name: 'Code',
      validation: { pattern: '[A-Z]{3}-\\d{2}', message: { en: 'like ABC-12', de: 'wie ABC-12 (de)' } },
    });
    expect(validateValue(code, 'ABC-12')).toBeNull();
    expect(validateValue(code, 'xABC-12', 'de')).toMatchObject({
      key: 'error.form_pattern',
      values: { message: 'wie ABC-12 (de)' },
    });
    expect(validateValue(field({ name: 'L', validation: { min_length: 3 } }), 'ab')).toMatchObject({
      key: 'error.form_min_length',
    });
    const qty = form.find((f) => f.name === 'Quantity')!;
    expect(validateValue(qty, 0)).toMatchObject({ key: 'error.form_min' });
    expect(validateValue(qty, 101)).toMatchObject({ key: 'error.form_max' });
    expect(validateValue(qty, 1.5)).toMatchObject({ key: 'error.form_step' });
    const d = field({
      name: 'D',
      type: 'date',
      validation: { earliest: '2026-01-01', latest: '2026-12-31' },
    });
    expect(validateValue(d, '2025-12-31')).toMatchObject({ key: 'error.form_earliest' });
    expect(validateValue(d, '2027-01-01')).toMatchObject({ key: 'error.form_latest' });
  });
  it('a pattern only runs on bounded input: a value beyond 1,000 characters fails without running it', () => {
    const f = field({ name: 'X', validation: { pattern: '(a|a)*' } });
    const t0 = Date.now();
    expect(validateValue(f, `${'a'.repeat(5_000)}!`)).toMatchObject({ key: 'error.form_pattern_default' });
    expect(Date.now() - t0).toBeLessThan(100);
  });
});

describe('form logic: submissions (issue 46 "done when")', () => {
  const company = {
    Kind: 'Company',
    'VAT number': 'DE123',
    Quantity: 2,
    'Unit price': 10,
    Total: 20,
    IBAN: 'DE89370400440532013000',
  };
  const keys = (values: Record<string, unknown>) =>
    formIssues(form, values as never, { role: 'Buyer' }).issues.map((i) => `${i.field}:${i.key}`);
  it('a complete company path has no issues', () => expect(keys(company)).toEqual([]));
  it('skipping a required conditional field', () =>
    expect(keys({ ...company, 'VAT number': null })).toEqual(['VAT number:error.form_required']));
  it('filling a hidden field', () =>
    expect(keys({ ...company, 'Birth date': '2000-01-01' })).toEqual(['Birth date:error.form_hidden']));
  it('a wrong total', () => expect(keys({ ...company, Total: 21 })).toEqual(['Total:error.form_formula']));
  it('a conditional required field of a later role reads an earlier role’s answer', () => {
    const roles = [
      field({ name: 'Kind', role: 'A', type: 'radio', options: ['Company', 'Person'] }),
      field({
        name: 'VAT',
        role: 'B',
        show_when: { all: [{ field: 'Kind', op: 'equals', value: 'Company' }] },
      }),
    ];
    expect(formIssues(roles, { Kind: 'Company' }, { role: 'B' }).issues.map((i) => i.key)).toEqual([
      'error.form_required',
    ]);
    expect(formIssues(roles, { Kind: 'Person' }, { role: 'B' }).issues).toEqual([]);
  });
});

describe('form logic: save-time checks (issue 46 item 1, attacks)', () => {
  it('refuses a reference cycle across roles, naming the fields', () => {
    const cyc = [
      field({ name: 'A', role: 'First', show_when: { all: [{ field: 'B', op: 'is_empty' }] } }),
      field({ name: 'B', role: 'Second', type: 'number', formula: '{C} + 1' }),
      field({
        name: 'C',
        role: 'Second',
        type: 'number',
        required_when: { all: [{ field: 'A', op: 'is_empty' }] },
      }),
    ];
    const problems = formLogicProblems(cyc, safe);
    expect(problems).toEqual([
      { fields: ['A', 'B', 'C'], message: expect.stringMatching(/reference cycle: "A", "B", "C"/) },
    ]);
    expect(
      formLogicProblems([field({ name: 'S', type: 'number', formula: '{S}' })], safe)[0]!.fields,
    ).toEqual(['S']);
  });
  it('refuses unknown references, formulas on non-number fields, misplaced validation, bad patterns', () => {
    const msgs = formLogicProblems(
      [
        field({ name: 'A', show_when: { all: [{ field: 'Nope', op: 'is_empty' }] } }),
        field({ name: 'B', formula: '1' }),
        field({ name: 'C', type: 'number', formula: '{A}' }),
        field({ name: 'D', type: 'number', validation: { pattern: 'x' } }),
        field({ name: 'E', validation: { pattern: '(' } }),
      ],
      { isSafePattern: (p) => !p.includes('+)+') },
    ).map((p) => p.message);
    expect(msgs).toEqual([
      expect.stringMatching(/"A": show_when refers to "Nope"/),
      expect.stringMatching(/"B": a formula is only allowed on number fields/),
      expect.stringMatching(/"C": formula refers to "A", a text field/),
      expect.stringMatching(/"D": validation.pattern does not apply to number/),
      expect.stringMatching(/"E": validation.pattern is not a valid regular expression/),
    ]);
    expect(
      formLogicProblems([field({ name: 'F', validation: { pattern: '(a+)+' } })], {
        isSafePattern: () => false,
      })[0]!.message,
    ).toMatch(/exponential time/);
  });
});

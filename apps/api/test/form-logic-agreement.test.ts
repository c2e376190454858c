import { checkSubmission, type RequestSnapshot } from '@esign/core/testing';
import { formIssues, type LogicField } from '@esign/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

// Issue 46 "done when": on random forms (random conditions on earlier fields, random formulas,
// random validation) and random values, the page's evaluation (@esign/domain formIssues, as the
// signing page calls it) and the server's submission check (checkSubmission, as signing.complete
// calls it) agree: the server refuses exactly when the page finds a problem, naming the same
// field, and stores hidden fields nowhere and formula fields as computed.

const OPS = ['equals', 'not_equals', 'is_empty', 'is_not_empty', 'contains', 'gt', 'lt'] as const;
const TYPES = ['text', 'number', 'checkbox', 'radio'] as const;

const formArb = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        type: fc.constantFrom(...TYPES),
        required: fc.boolean(),
        rule: fc.option(
          fc.record({
            target: fc.nat({ max: Math.max(0, i - 1) }),
            op: fc.constantFrom(...OPS),
            value: fc.constantFrom('a', 'b', 1, 5, true),
          }),
          { nil: undefined },
        ),
        any: fc.boolean(),
        formula: fc.option(fc.constantFrom('sum', 'product', 'round'), { nil: undefined }),
        validation: fc.option(fc.constantFrom('min', 'length', 'pattern'), { nil: undefined }),
      }),
    ),
  ),
);

function buildForm(
  specs: {
    type: (typeof TYPES)[number];
    required: boolean;
    rule?: { target: number; op: (typeof OPS)[number]; value: string | number | boolean } | undefined;
    any: boolean;
    formula?: string | undefined;
    validation?: string | undefined;
  }[],
): LogicField[] {
  return specs.map((s, i) => {
    const f: LogicField = {
      name: `F${i}`,
      type: s.type,
      role: 'A',
      required: s.required,
      options: s.type === 'radio' ? ['a', 'b'] : undefined,
    };
    if (s.rule && i > 0) {
      const rule = { field: `F${s.rule.target}`, op: s.rule.op, value: s.rule.value };
      f.show_when = s.any ? { any: [rule] } : { all: [rule] };
    }
    const earlierNumbers = specs.slice(0, i).flatMap((e, j) => (e.type === 'number' ? [`{F${j}}`] : []));
    if (s.type === 'number' && s.formula && earlierNumbers.length) {
      f.formula =
        s.formula === 'sum'
          ? `sum(${earlierNumbers.join(', ')})`
          : s.formula === 'product'
            ? earlierNumbers.join(' * ')
            : `round(${earlierNumbers[0]} / 3, 1)`;
    }
    if (s.validation === 'min' && s.type === 'number') f.validation = { min: 0, max: 10 };
    if (s.validation === 'length' && s.type === 'text') f.validation = { min_length: 2 };
    if (s.validation === 'pattern' && s.type === 'text')
      f.validation = { pattern: '[ab]+', message: 'only a and b' };
    return f;
  });
}

const valueArb = fc.oneof(
  fc.constant(null),
  fc.constantFrom('a', 'b', 'ab', 'x'),
  fc.integer({ min: -3, max: 12 }),
  fc.boolean(),
);

describe('issue 46: the page’s and the server’s evaluation agree on random forms (fast-check)', () => {
  it('refusal, the field named, stored values', () => {
    fc.assert(
      fc.property(formArb, fc.array(valueArb, { minLength: 7, maxLength: 7 }), (specs, raw) => {
        const fields = buildForm(specs);
        // Values as the value check leaves them: each of the field's own kind, or none.
        const values: Record<string, string | number | boolean | null> = {};
        fields.forEach((f, i) => {
          const v = raw[i]!;
          const fits =
            v === null ||
            (f.type === 'number'
              ? typeof v === 'number'
              : f.type === 'checkbox'
                ? typeof v === 'boolean'
                : f.type === 'radio'
                  ? v === 'a' || v === 'b'
                  : typeof v === 'string');
          if (fits) values[f.name] = v;
        });
        const page = formIssues(fields, values, { role: 'A', locale: 'en' });
        const snapshot = {
          template: { id: 1, name: 't' },
          roles: ['A'],
          documents: [],
          fields: fields.map((f) => ({ ...f, id: f.name, areas: [] })),
        } as unknown as RequestSnapshot;
        let refused: Error | null = null;
        let stored: Record<string, unknown> = {};
        try {
          stored = checkSubmission(snapshot, [], { role: 'A', values, entered: values, locale: 'en' }).values;
        } catch (e) {
          refused = e as Error;
        }
        if (page.issues.length === 0) {
          expect(refused).toBeNull();
          for (const f of fields) {
            const s = page.state.fields[f.name]!;
            if (!s.visible) expect(stored).not.toHaveProperty(f.name);
            else if (s.computed !== undefined) expect(stored[f.name]).toBe(s.computed);
          }
        } else {
          expect(refused?.message).toContain(`"${page.issues[0]!.field}"`);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

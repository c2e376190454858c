import { describe, expect, it } from 'vitest';
import { logicErrorsFor } from '../dashboard/src/pages/editor/logic-errors.ts';

// Issue 46: the editor shows the server's save refusal (422 invalid_field) next to the control of
// the field it concerns. The messages below are worded as packages/core words them (the schema's
// `fields[i].key: …` and the form logic check's `fields "A": "A": key …`); the Chromium test
// editor-form-logic.int.test.ts sees the real ones.

describe('issue 46: a save refusal sorted to the rule builder’s controls', () => {
  it('a form logic refusal goes to the named field’s control, by the key it names', () => {
    const error =
      'fields "VAT", "Total": "VAT": validation.pattern could take exponential time on some inputs (nested or overlapping repetition); simplify it; "VAT": required_when refers to "Kind2", which is not a field of the template; "Total": formula: unexpected end';
    expect(logicErrorsFor(error, 'VAT', 1)).toEqual({
      'validation.pattern':
        'validation.pattern could take exponential time on some inputs (nested or overlapping repetition); simplify it',
      required_when: 'required_when refers to "Kind2", which is not a field of the template',
    });
    expect(logicErrorsFor(error, 'Total', 3)).toEqual({ formula: 'formula: unexpected end' });
    expect(logicErrorsFor(error, 'Kind', 0)).toEqual({});
  });

  it('min above max, dates, format and the type rules each find their control', () => {
    const error =
      'fields "Qty", "Day", "Name": "Qty": validation.min is greater than max; "Day": validation.earliest is after latest; "Name": format is only allowed on number fields; "Qty": a formula is only allowed on number fields, not text';
    expect(logicErrorsFor(error, 'Qty', 0)).toEqual({
      'validation.min': 'validation.min is greater than max',
      formula: 'a formula is only allowed on number fields, not text',
    });
    expect(logicErrorsFor(error, 'Day', 1)).toEqual({
      'validation.earliest': 'validation.earliest is after latest',
    });
    expect(logicErrorsFor(error, 'Name', 2)).toEqual({ format: 'format is only allowed on number fields' });
  });

  it('a reference cycle stands on the form logic of each field in it', () => {
    const error = 'fields "A", "B": reference cycle: "A", "B" depend on one another';
    expect(logicErrorsFor(error, 'A', 0)).toEqual({
      logic: 'reference cycle: "A", "B" depend on one another',
    });
    expect(logicErrorsFor(error, 'B', 1).logic).toMatch(/^reference cycle/);
    expect(logicErrorsFor(error, 'C', 2)).toEqual({});
  });

  it('a schema refusal goes to the field at its place, under the key of its path', () => {
    expect(logicErrorsFor('fields[2].validation.step: Number must be greater than 0', 'Qty', 2)).toEqual({
      'validation.step': 'validation.step: Number must be greater than 0',
    });
    expect(logicErrorsFor('fields[2].validation.step: Number must be greater than 0', 'Qty', 1)).toEqual({});
    expect(
      logicErrorsFor('fields[0].format.decimals: Number must be less than or equal to 10', 'T', 0),
    ).toEqual({ format: 'format.decimals: Number must be less than or equal to 10' });
    expect(logicErrorsFor('fields[0].required_when.all[0].field: Too small', 'T', 0)).toEqual({
      required_when: 'required_when.all[0].field: Too small',
    });
  });

  it('other save errors (names, areas, a lost connection) are not the form logic’s', () => {
    expect(logicErrorsFor('fields[0].name: Too long', 'T', 0)).toEqual({});
    expect(logicErrorsFor('fields[1]: page 3 does not exist in document 0', 'T', 1)).toEqual({});
    expect(logicErrorsFor('The server could not be reached.', 'T', 0)).toEqual({});
    expect(logicErrorsFor(null, 'T', 0)).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { parseTag } from '../src/ingest/index.ts';

// Issue 46 item 4: the text tag syntax of conditions, formulas and validation (docs/fields.md).

describe('issue 46.4: text tags carry form logic', () => {
  it('show_if / show_if_any / required_if rules, a formula with [references], format and validation', () => {
    const vat = parseTag(
      'VAT number;show_if=Customer kind:equals:Company;required_if=Total:gt:1000;preset=iban',
    );
    expect(vat).toMatchObject({
      ok: true,
      notes: [],
      tag: {
        name: 'VAT number',
        logic: {
          show_when: { all: [{ field: 'Customer kind', op: 'equals', value: 'Company' }] },
          required_when: { all: [{ field: 'Total', op: 'gt', value: 1000 }] },
          validation: { preset: 'iban' },
        },
      },
    });
    const total = parseTag(
      'Total;type=number;formula=round([Quantity] * [Unit price], 2);decimals=2;suffix= EUR;min=0',
    );
    expect(total.ok && total.tag.logic).toEqual({
      formula: 'round({Quantity} * {Unit price}, 2)',
      format: { decimals: 2, suffix: ' EUR' },
      validation: { min: 0 },
    });
    const any = parseTag('Note;show_if_any=A:is_empty;show_if_any=B:equals:true');
    expect(any.ok && any.tag.logic).toEqual({
      show_when: {
        any: [
          { field: 'A', op: 'is_empty' },
          { field: 'B', op: 'equals', value: true },
        ],
      },
    });
  });
  it('a malformed rule or setting is noted and ignored; a tag without logic has none', () => {
    const bad = parseTag('X;show_if=Kind:resembles:Y;decimals=12;preset=ssn');
    expect(bad.ok && bad.tag.logic).toBeFalsy();
    expect(bad.notes).toEqual([
      expect.stringMatching(/show_if: "Kind:resembles:Y" is not Field:op:value/),
      expect.stringMatching(/decimals="12"/),
      expect.stringMatching(/preset="ssn"/),
    ]);
    const plain = parseTag('Name;role=Client');
    expect(plain.ok && plain.tag).not.toHaveProperty('logic');
  });
});

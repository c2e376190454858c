import type { SignerRow } from '@esign/db';
import { describe, expect, it } from 'vitest';
import type { RequestSnapshot } from '../src/services/request-model.ts';
import { sealValuesFor } from '../src/services/sealing/values.ts';
import { type FieldSpec, fieldSpecsFromDetected, keepFontSizes } from '../src/services/templates/fields.ts';

// Issue 33 item 2: a text tag's font size travels from the ingest to the seal.

const area = { page: 1, x: 0.1, y: 0.2, w: 0.3, h: 0.02 };

describe('the font size a text tag records (issue 33 item 2)', () => {
  it('issue 33.2: stored as the area’s font_size, drawn by the seal as the area’s fontSize', () => {
    const [spec] = fieldSpecsFromDetected(
      [
        {
          name: 'Company',
          type: 'text',
          required: true,
          areas: [{ ...area, fontSize: 11 }],
          source: 'text_tag',
        },
      ],
      0,
    );
    expect(spec!.areas).toEqual([{ ...area, document: 0, font_size: 11 }]);
    const snapshot = {
      fields: [
        { id: 'f1', name: 'Company', type: 'text', role: 'Client', required: true, areas: spec!.areas },
      ],
    } as unknown as RequestSnapshot;
    const signer = { role: 'Client', values: { Company: 'Acme' }, prefill: {} } as unknown as SignerRow;
    expect(sealValuesFor(snapshot, 0, { signers: [signer] })).toEqual([
      { type: 'text', value: 'Acme', areas: [{ ...area, fontSize: 11 }] },
    ]);
  });

  it('issue 33.2: fields saved again keep the size on areas left in place; a moved area has none', () => {
    const before = [{ areas: [{ ...area, document: 0, font_size: 11 }] }];
    const field = (x: number): FieldSpec => ({
      name: 'Company',
      type: 'text',
      role: 'Client',
      required: true,
      options: null,
      source: 'api',
      areas: [{ ...area, x, document: 0 }],
    });
    expect(keepFontSizes(before, [field(0.1)])[0]!.areas[0]!.font_size).toBe(11);
    expect(keepFontSizes(before, [field(0.15)])[0]!.areas[0]!.font_size).toBeUndefined();
  });
});

import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type IngestedDocument, ingestDocument } from '../src/ingest/index.ts';
import { makeFormPdf } from './ingest-fixtures.ts';

describe('fillable PDF form fields (spec: "Fillable PDF form fields are converted to template fields automatically")', () => {
  let input: Uint8Array;
  let doc: IngestedDocument;
  beforeAll(async () => {
    input = await makeFormPdf();
    doc = await ingestDocument({ bytes: input });
  });

  const field = (name: string) => doc.fields.find((f) => f.name === name);

  it('converts every fillable widget type, in form order, with source "form"', () => {
    expect(doc.fields.map((f) => [f.name, f.type, f.source])).toEqual([
      ['name', 'text', 'form'],
      ['agree', 'checkbox', 'form'],
      ['color', 'radio', 'form'],
      ['country', 'select', 'form'],
      ['toppings', 'multiple', 'form'],
      ['person.email', 'text', 'form'],
      ['sig', 'signature', 'form'],
    ]);
  });

  it('a field with widgets on several pages has one area per widget, in page coordinates', () => {
    expect(field('name')!.areas).toEqual(
      [
        { page: 1, x: 50 / 612, y: (792 - 720) / 792, w: 200 / 612, h: 20 / 792 },
        { page: 2, x: 50 / 612, y: (792 - 720) / 792, w: 200 / 612, h: 20 / 792 },
      ].map((a) => ({ ...a, x: round6(a.x), y: round6(a.y), w: round6(a.w), h: round6(a.h) })),
    );
  });

  it('radio groups list their export values as options, one area per button in the same order', () => {
    const color = field('color')!;
    expect(color.options).toEqual(['red', 'green', 'blue']);
    expect(color.areas.map((a) => Math.round(a.x * 612))).toEqual([50, 80, 110]);
  });

  it('dropdowns and list boxes become select (multiple when multi-select) with their options', () => {
    expect(field('country')!.options).toEqual(['France', 'Germany', 'Spain']);
    expect(field('toppings')!.options).toEqual(['Cheese', 'Ham']);
  });

  it('required follows the Required flag; signature fields are always required', () => {
    expect(field('name')!.required).toBe(true);
    expect(field('agree')!.required).toBe(false);
    expect(field('sig')!.required).toBe(true);
    expect(field('sig')!.areas).toEqual([
      { page: 2, x: round6(300 / 612), y: round6(642 / 792), w: round6(200 / 612), h: round6(50 / 792) },
    ]);
  });

  it('skips read-only fields (with a warning) and push buttons', () => {
    expect(field('locked')).toBeUndefined();
    expect(field('go')).toBeUndefined();
    expect(doc.warnings).toEqual(['Form field "locked" is read-only and was skipped']);
  });

  it('keeps the form in the stored PDF (unchanged input is stored as is)', () => {
    expect(doc.pdf).toBe(input);
  });

  it('text tags and form fields are both reported', async () => {
    const pdf = await PDFDocument.load(input);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.getPage(0).drawText('{{Witness;role=Witness}}', { x: 300, y: 400, size: 12, font });
    const both = await ingestDocument({ bytes: await pdf.save() });
    expect(both.fields.map((f) => `${f.source}:${f.name}`)).toEqual([
      'text_tag:Witness',
      ...doc.fields.map((f) => `form:${f.name}`),
    ]);
  });
});

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

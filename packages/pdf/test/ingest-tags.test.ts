import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DetectedField,
  DocumentInputError,
  ingestDocument,
  parseTag,
  renderPagePng,
  TAG_DEFAULT_SIZES,
} from '../src/ingest/index.ts';
import {
  darkestIn,
  decodePng,
  extractTextWithPdfJs,
  makeHandWrittenTagPdf,
  makeOcrLayerTagPdf,
  makeRotatedPdf,
  makeTaggedPdf,
  makeType0TagPdf,
  type Pixels,
  pageViewportsWithPdfJs,
} from './ingest-fixtures.ts';

const byName = (fields: DetectedField[], name: string, role?: string) =>
  fields.find((f) => f.name === name && (role === undefined || f.role === role));

/**
 * Helvetica advance widths from pdf-lib's AFM data (independent of the metrics the ingest code
 * uses), summed per character: PDF text is drawn without pair kerning.
 */
let helvetica: { width: (s: string, size?: number) => number };
beforeAll(async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  helvetica = { width: (s, size = 12) => [...s].reduce((w, ch) => w + font.widthOfTextAtSize(ch, size), 0) };
});

/** Pixels differing by more than `tolerance` outside the given areas (grown by `margin` px). */
function changedOutside(
  a: Pixels,
  b: Pixels,
  areas: { x: number; y: number; w: number; h: number }[],
  margin = 2,
) {
  let changed = 0;
  const rects = areas.map((r) => [
    r.x * a.width - margin,
    r.y * a.height - margin,
    (r.x + r.w) * a.width + margin,
    (r.y + r.h) * a.height + margin,
  ]);
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      if (rects.some(([l, t, r, bt]) => x >= l! && x <= r! && y >= t! && y <= bt!)) continue;
      const i = (y * a.width + x) * 4;
      if (Math.abs(a.data[i]! - b.data[i]!) > 24 || Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 24) changed++;
    }
  return changed;
}

describe('text tag grammar (spec: POST /templates, Text tags)', () => {
  it('`{{signature;role=<role>}}` alone is a signature field named `Signature`', () => {
    expect(parseTag('signature;role=Client')).toMatchObject({
      ok: true,
      tag: { name: 'Signature', type: 'signature', role: 'Client', required: true },
    });
    expect(parseTag(' INITIALS ')).toMatchObject({ ok: true, tag: { name: 'Initials', type: 'initials' } });
  });

  it('type defaults to text and required to true; an explicit type keeps the name as written', () => {
    expect(parseTag('Full name;role=Client')).toMatchObject({
      ok: true,
      tag: { name: 'Full name', type: 'text', required: true },
    });
    expect(parseTag(' date ; type = TEXT ')).toMatchObject({ ok: true, tag: { name: 'date', type: 'text' } });
  });

  it('settings: options (comma-separated, for select), required, width and height in points', () => {
    const r = parseTag('Plan;type=select;options= Basic, Pro ,,Basic;required=no;width=120;height=30pt');
    expect(r).toEqual({
      ok: true,
      notes: [],
      tag: {
        name: 'Plan',
        type: 'select',
        required: false,
        options: ['Basic', 'Pro'],
        width: 120,
        height: 30,
      },
    });
  });

  it('a head with "=" is a setting: the field has no name', () => {
    expect(parseTag('type=signature;role=A')).toEqual({
      ok: true,
      notes: [],
      tag: { type: 'signature', role: 'A', required: true },
    });
  });

  it('malformed tags are rejected with a reason: unknown type, select without options, empty', () => {
    expect(parseTag('x;type=bogus')).toMatchObject({
      ok: false,
      error: expect.stringContaining('unknown field type "bogus"'),
    });
    expect(parseTag('x;type=select')).toMatchObject({
      ok: false,
      error: expect.stringContaining('needs options'),
    });
    expect(parseTag(' ; ')).toMatchObject({ ok: false, error: 'the tag is empty' });
  });

  it('unreadable settings are noted and ignored, the tag is kept', () => {
    const r = parseTag('x;required=maybe;foo=bar;width=-3;lonely');
    expect(r.ok).toBe(true);
    expect(r.notes).toHaveLength(4);
  });
});

describe('text tags in documents (spec: a tag becomes a field at its position, text hidden)', () => {
  let input: Uint8Array;
  let fields: DetectedField[];
  let output: Uint8Array;
  let warnings: string[];
  beforeAll(async () => {
    input = await makeTaggedPdf();
    const doc = await ingestDocument({ bytes: input });
    fields = doc.fields;
    output = doc.pdf;
    warnings = doc.warnings;
  });

  it('turns each tag into a field with its settings', () => {
    expect(warnings).toEqual([]);
    expect(fields.map((f) => [f.name, f.type, f.role, f.required, f.source])).toEqual([
      ['Full name', 'text', 'Client', true, 'text_tag'],
      ['Signature', 'signature', 'Client', true, 'text_tag'],
      ['Date', 'date', 'Client', true, 'text_tag'],
      ['Plan', 'select', 'Client', false, 'text_tag'],
      ['Initials', 'initials', 'Client', true, 'text_tag'],
      ['Signature', 'signature', 'Landlord', true, 'text_tag'],
    ]);
    expect(byName(fields, 'Plan')?.options).toEqual(['Basic', 'Pro']);
  });

  it('the same tag on several pages becomes one field with one area per page', () => {
    const sig = byName(fields, 'Signature', 'Client')!;
    expect(sig.areas.map((a) => a.page)).toEqual([1, 2]);
  });

  it('the area starts at the tag’s box (font ascent to descent) in fractions of the displayed page; a text field is one line at the tag’s font size tall', () => {
    const area = byName(fields, 'Full name')!.areas[0]!;
    const left = 50 + helvetica.width('Name: ');
    const width = helvetica.width('{{Full name;role=Client}}');
    expect(area.page).toBe(1);
    expect(area.x).toBeCloseTo(left / 612, 4);
    expect(area.w).toBeCloseTo(width / 612, 4);
    expect(area.y).toBeCloseTo((792 - (600 + 0.718 * 12)) / 792, 4);
    // Nothing below it for 100 pt: one line at 12 pt as the seal draws it (1.2 em), and that size.
    expect(area.h).toBeCloseTo((1.2 * 12) / 792, 4);
    expect(area.fontSize).toBe(12);
  });

  it('a tag split across text runs (and fonts) is still one tag', () => {
    const date = byName(fields, 'Date')!;
    expect(date.areas).toHaveLength(1);
    expect(date.areas[0]!.x).toBeCloseTo((50 + helvetica.width('Date: ')) / 612, 4);
    expect(date.areas[0]!.w).toBeCloseTo(helvetica.width('{{date;role=Client}}') / 612, 4);
    // Page 2's `Again: {{signature;role=Client}}` alternates Helvetica and Helvetica-Bold runs.
    expect(byName(fields, 'Signature', 'Client')!.areas[1]!.y).toBeCloseTo(
      (792 - (100 + 0.718 * 12)) / 792,
      4,
    );
  });

  it('a tag wrapped over three lines is joined; over four lines (more than 2 continuations) or past 300 characters it stays text with a warning', async () => {
    const pdf = await makeTaggedPdf([
      [
        { runs: ['{{A very'], y: 700 },
        { runs: ['long field'], y: 686 },
        { runs: ['name;role=X}} done'], y: 672 },
        { runs: ['{{One'], y: 500 },
        { runs: ['two'], y: 486 },
        { runs: ['three'], y: 472 },
        { runs: ['four}}'], y: 458 },
        // Joined it would be longer than 300 characters: not a wrapped tag.
        { runs: [`{{${'x'.repeat(150)}`], y: 300, size: 4 },
        { runs: [`${'y'.repeat(150)}}}`], y: 295, size: 4 },
      ],
    ]);
    const doc = await ingestDocument({ bytes: pdf });
    expect(doc.fields.map((f) => [f.name, f.role])).toEqual([['A very long field name', 'X']]);
    expect(doc.warnings).toEqual([
      expect.stringContaining('text tag "{{One" has no closing "}}"'),
      expect.stringMatching(/text tag "\{\{x+…" has no closing "\}\}"/),
    ]);
    const text = (await extractTextWithPdfJs(doc.pdf))[0]!.map((i) => i.str).join('|');
    expect(text).not.toContain('long field');
    expect(text).toContain('done');
    expect(text).toContain('{{One');
  });

  it('signature, initials, image and stamp tags without width/height get TAG_DEFAULT_SIZES, grown right and down from the tag', () => {
    const sig = byName(fields, 'Signature', 'Client')!.areas[0]!;
    const left = 50 + helvetica.width('Sign here: ');
    const top = 792 - (500 + 0.718 * 12);
    // The top-left corner is the tag's: the field never covers the text above it.
    expect(sig.x).toBeCloseTo(left / 612, 4);
    expect(sig.y).toBeCloseTo(top / 792, 4);
    // It grows right up to the text after the tag ("thank you"), not over it.
    const thankYou = left + helvetica.width('{{signature;role=Client}} ');
    expect(sig.w * 612).toBeCloseTo(thankYou - 2 - left, 1);
    expect(sig.h * 792).toBeCloseTo(TAG_DEFAULT_SIZES.signature!.height, 1);
    const initials = byName(fields, 'Initials')!.areas[0]!;
    expect(initials.h * 792).toBeCloseTo(TAG_DEFAULT_SIZES.initials!.height, 1);
    // A tag wider than the default keeps its own width.
    expect(initials.w * 612).toBeCloseTo(
      Math.max(TAG_DEFAULT_SIZES.initials!.width, helvetica.width('{{initials;role=Client}}')),
      1,
    );
    // A text field is one line at the tag's font size (1.2 em), taller than the tag's own box.
    expect(byName(fields, 'Full name')!.areas[0]!.h * 792).toBeCloseTo(1.2 * 12, 1);
    expect(sig.fontSize).toBeUndefined();
  });

  it('a tag a PDF producer wrapped onto the next line is one field, and both halves are removed', async () => {
    const pdf = await makeTaggedPdf([
      [
        { runs: ['Tenant: {{Full'], y: 600 },
        { runs: ['name;role=Tenant}} and {{date;role=Tenant}}'], y: 586 },
        { runs: ['Unrelated {{ brace'], y: 500 },
        { runs: ['a line far below }} is not joined'], y: 300 },
        { runs: ['{{Agree;type=checkbox}} I agree'], y: 200 },
      ],
    ]);
    const doc = await ingestDocument({ bytes: pdf });
    expect(doc.fields.map((f) => [f.name, f.role])).toEqual([
      ['Full name', 'Tenant'],
      ['Date', 'Tenant'],
      ['Agree', undefined],
    ]);
    // A checkbox tag is a square as tall as its line, at the tag's start.
    const agree = doc.fields[2]!.areas[0]!;
    expect(agree.w * 612).toBeCloseTo(agree.h * 792, 3);
    expect(agree.h * 792).toBeCloseTo((0.718 + 0.207) * 12, 1);
    const area = doc.fields[0]!.areas[0]!;
    // The box spans both lines: from where the tag starts on the first line (the label before it
    // stays uncovered) to the second line's bottom.
    expect(area.x).toBeCloseTo((50 + helvetica.width('Tenant: ')) / 612, 4);
    expect(area.y).toBeCloseTo((792 - (600 + 0.718 * 12)) / 792, 4);
    expect(area.y + area.h).toBeCloseTo((792 - (586 - 0.207 * 12)) / 792, 4);
    const text = (await extractTextWithPdfJs(doc.pdf))[0]!.map((i) => i.str).join('|');
    expect(text).not.toContain('Full');
    expect(text).not.toContain('role=Tenant');
    expect(text).toContain('Tenant:');
    // A "{{" whose next line closes a brace it did not open stays text, with the usual warning.
    expect(text).toContain('Unrelated');
    expect(doc.warnings).toEqual([expect.stringContaining('has no closing "}}"')]);
  });

  it('width and height (points) size the field from the tag’s top-left corner', () => {
    const area = byName(fields, 'Signature', 'Landlord')!.areas[0]!;
    expect(area.x).toBeCloseTo((50 + helvetica.width('Landlord: ')) / 612, 4);
    expect(area.y).toBeCloseTo((792 - (200 + 0.718 * 12)) / 792, 4);
    expect(area.w).toBeCloseTo(150 / 612, 6);
    expect(area.h).toBeCloseTo(40 / 792, 6);
  });

  it('the tag text is removed from the content: pdf.js no longer extracts it, other text stays in place', async () => {
    const before = await extractTextWithPdfJs(input);
    const after = await extractTextWithPdfJs(output);
    const text = after.map((items) => items.map((i) => i.str).join(' '));
    for (const t of text) {
      expect(t).not.toContain('{');
      expect(t).not.toContain('}');
      expect(t).not.toContain('role=');
    }
    expect(text[0]).toContain('Sign here:');
    expect(text[0]).toContain('thank you');
    expect(text[1]).toContain('Page two text');
    // The words after a removed tag keep their exact position.
    const thankYou = after[0]!.find((i) => i.str.includes('thank you'))!;
    expect(
      thankYou.x + helvetica.width(thankYou.str.slice(0, thankYou.str.indexOf('thank you'))),
    ).toBeCloseTo(50 + helvetica.width('Sign here: {{signature;role=Client}} '), 2);
    expect(before[0]!.some((i) => i.str.includes('{{'))).toBe(true);
  });

  it('rendered, the tag areas are blank and nothing outside them changed', async () => {
    for (const page of [1, 2]) {
      const a = await decodePng(await renderPagePng(input, page, { width: 612 }));
      const b = await decodePng(await renderPagePng(output, page, { width: 612 }));
      const areas = fields.flatMap((f) => f.areas).filter((x) => x.page === page);
      // The Landlord tag is wider than its width=150 area: its removed text lies outside the area.
      const landlordTag = {
        x: (50 + helvetica.width('Landlord: ')) / 612,
        y: (792 - (200 + 0.718 * 12)) / 792,
        w: helvetica.width('{{signature;role=Landlord;width=150;height=40}}') / 612,
        h: (0.925 * 12) / 792,
      };
      for (const area of areas) {
        const tagBox = { ...area, w: Math.min(area.w, 0.15), h: Math.min(area.h, 0.015) };
        expect(darkestIn(a, tagBox)).toBeLessThan(128);
        // Signature fields reach below their tag (TAG_DEFAULT_SIZES); the tag's own line is blank.
        expect(darkestIn(b, { ...area, h: Math.min(area.h, 0.015) }, 1)).toBeGreaterThan(250);
      }
      expect(changedOutside(a, b, page === 2 ? [...areas, landlordTag] : areas)).toBe(0);
    }
  });
});

describe('text tags in hand-written content streams (TJ kerning, Tc/Tw, \' and ", Tz, form XObjects)', () => {
  let input: Uint8Array;
  let fields: DetectedField[];
  let output: Uint8Array;
  beforeAll(async () => {
    input = await makeHandWrittenTagPdf();
    const doc = await ingestDocument({ bytes: input });
    fields = doc.fields;
    output = doc.pdf;
    expect(doc.warnings).toEqual([]);
  });

  it('finds tags split by TJ kerning, under spacing and scaling, and inside a form drawn twice', () => {
    expect(fields.map((f) => [f.name, f.role, f.areas.length])).toEqual([
      ['Kerned', 'Client', 1],
      ['Spaced', undefined, 1],
      ['Quoted', undefined, 1],
      ['Scaled', undefined, 1],
      ['Witness', 'Witness', 2],
    ]);
    const kerned = byName(fields, 'Kerned')!.areas[0]!;
    // "{{Ker" + 3 pt kerning + "ned;role=Client}}"
    expect(kerned.w).toBeCloseTo((helvetica.width('{{Kerned;role=Client}}') + 3) / 612, 4);
    // The second use of the form is rotated 90°: its area is tall and narrow.
    const [flat, rotated] = byName(fields, 'Witness')!.areas;
    expect(flat!.w * 612).toBeGreaterThan(flat!.h * 792);
    expect(rotated!.h * 792).toBeGreaterThan(rotated!.w * 612);
  });

  it('removes every tag and leaves the rest of the page pixel-identical', async () => {
    const text = (await extractTextWithPdfJs(output))[0]!.map((i) => i.str).join(' ');
    expect(text).not.toMatch(/[{}]/);
    for (const word of ['Kerned:', 'tail', 'words after', 'Quote', 'Scaled', 'Form', 'end'])
      expect(text).toContain(word);
    const a = await decodePng(await renderPagePng(input, 1, { width: 612 }));
    const b = await decodePng(await renderPagePng(output, 1, { width: 612 }));
    const areas = fields.flatMap((f) => f.areas);
    for (const area of areas) expect(darkestIn(b, area, 1)).toBeGreaterThan(250);
    expect(changedOutside(a, b, areas)).toBe(0);
  });
});

describe('text tags in an embedded TrueType font (Type0, Identity-H)', () => {
  it('decodes the tag through the font’s ToUnicode map, including accented names, and removes it', async () => {
    const input = await makeType0TagPdf();
    const doc = await ingestDocument({ bytes: input });
    expect(doc.warnings).toEqual([]);
    expect(doc.fields.map((f) => [f.name, f.type, f.role])).toEqual([
      ['Signature', 'signature', 'Client'],
      ['Prénom', 'text', 'Client'],
    ]);
    const text = (await extractTextWithPdfJs(doc.pdf))[0]!.map((i) => i.str).join(' ');
    expect(text).not.toMatch(/[{}]/);
    expect(text).toContain('merci');
  });
});

describe('text tags on rotated and cropped pages (areas are relative to the displayed page)', () => {
  it('matches pdf.js’s viewport mapping for /Rotate 0, 90, 180, 270 and a CropBox', async () => {
    const input = await makeRotatedPdf();
    const doc = await ingestDocument({ bytes: input });
    expect(doc.fields).toHaveLength(7);
    for (const [i, field] of doc.fields.entries()) {
      const tagWidth = helvetica.width(`{{p${i + 1};type=text}}`);
      const corners: [number, number][] = [
        [100, 500 - 0.207 * 12],
        [100 + tagWidth, 500 + 0.718 * 12],
      ];
      const mapped = await Promise.all(corners.map((c) => pageViewportsWithPdfJs(input, c)));
      const vp = mapped[0]![i]!;
      const [u0, v0] = vp.point;
      const [u1, v1] = mapped[1]![i]!.point;
      const area = field.areas[0]!;
      expect(area.page).toBe(i + 1);
      expect(area.x).toBeCloseTo(Math.min(u0, u1) / vp.width, 4);
      expect(area.y).toBeCloseTo(Math.min(v0, v1) / vp.height, 4);
      expect(area.w).toBeCloseTo(Math.abs(u1 - u0) / vp.width, 4);
      // At least one line at the tag's font size tall (1.2 em), grown down the displayed page.
      expect(area.h).toBeCloseTo(Math.max(Math.abs(v1 - v0), 1.2 * 12) / vp.height, 4);
    }
  });
});

describe('malformed text tags (spec Errors: invalid_field)', () => {
  const malformed = () =>
    makeTaggedPdf([
      [
        { runs: ['Bad type: {{Name;type=bogus}}'], y: 700 },
        { runs: ['No options: {{Plan;type=select}}'], y: 650 },
        { runs: ['Open: {{Unterminated;role=X'], y: 600 },
        { runs: ['Fine: {{Good}}'], y: 550 },
      ],
    ]);

  it('by default are skipped with a warning each and left visible; valid tags still work', async () => {
    const doc = await ingestDocument({ bytes: await malformed() });
    expect(doc.fields.map((f) => f.name)).toEqual(['Good']);
    expect(doc.warnings).toEqual([
      expect.stringMatching(
        /^Page 1: text tag "\{\{Name;type=bogus\}\}" was skipped: unknown field type "bogus"/,
      ),
      expect.stringMatching(
        /^Page 1: text tag "\{\{Plan;type=select\}\}" was skipped: a select field needs options/,
      ),
      'Page 1: text tag "{{Unterminated;role=X" has no closing "}}" and was left as text',
    ]);
    const text = (await extractTextWithPdfJs(doc.pdf))[0]!.map((i) => i.str).join(' ');
    expect(text).toContain('{{Name;type=bogus}}');
    expect(text).not.toContain('{{Good}}');
  });

  it("with tagErrors: 'error' fail with invalid_field and a clear message", async () => {
    const err = await ingestDocument({ bytes: await malformed(), tagErrors: 'error' }).catch((e) => e);
    expect(err).toBeInstanceOf(DocumentInputError);
    expect(err.code).toBe('invalid_field');
    expect(err.message).toContain('unknown field type "bogus"');
  });
});

describe('text tags in an invisible OCR layer (scanned documents)', () => {
  it('still become fields, with a warning that the tag in the image stays visible', async () => {
    const doc = await ingestDocument({ bytes: await makeOcrLayerTagPdf() });
    expect(doc.fields.map((f) => [f.name, f.role])).toEqual([['Signature', 'Client']]);
    expect(doc.warnings).toEqual([expect.stringContaining('is invisible text (an OCR layer?)')]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  areaAspect,
  areaToPercent,
  areaToPixels,
  compareAreas,
  fitWithin,
  strokeBounds,
} from '../src/signing/client/geometry.ts';
import { viewForError, viewForOpen } from '../src/signing/client/status.ts';
import type { Area, FieldValue, SigningField } from '../src/signing/client/types.ts';
import {
  describeValue,
  fromStored,
  initialsOf,
  isFilled,
  missingRequired,
  nextField,
  orderFields,
  parseTextInput,
  safeRedirect,
  valuesByName,
} from '../src/signing/client/values.ts';

const area = (a: Partial<Area> = {}): Area => ({
  page: 1,
  x: 0.1,
  y: 0.1,
  w: 0.3,
  h: 0.05,
  document: 0,
  ...a,
});
let n = 0;
const field = (f: Partial<SigningField> = {}): SigningField => ({
  id: `id-${++n}`,
  name: `Field ${n}`,
  type: 'text',
  required: true,
  areas: [area()],
  value: null,
  prefilled: false,
  ...f,
});

describe('field areas on the page (fractions of the page, origin top left)', () => {
  it('maps an area to pixels of the drawn page', () => {
    expect(areaToPixels(area({ x: 0.1, y: 0.8, w: 0.3, h: 0.05 }), 612, 792)).toEqual({
      x: 61.2,
      y: 633.6,
      width: expect.closeTo(183.6, 6),
      height: expect.closeTo(39.6, 6),
    });
    const b = areaToPixels(area({ x: 0.5, y: 0.5, w: 0.5, h: 0.5 }), 375, 485);
    expect(b).toEqual({ x: 187.5, y: 242.5, width: 187.5, height: 242.5 });
  });

  it('cuts areas that reach past the page edge at the edge', () => {
    const b = areaToPixels(area({ x: 0.9, y: 0.98, w: 0.3, h: 0.05 }), 1000, 1000);
    expect(b.x).toBe(900);
    expect(b.width).toBeCloseTo(100);
    expect(b.height).toBeCloseTo(20);
  });

  it('gives CSS percentages so overlays scale with the page image', () => {
    expect(areaToPercent(area({ x: 0.1, y: 0.8, w: 0.3, h: 0.05 }))).toEqual({
      left: '10%',
      top: '80%',
      width: '30%',
      height: '5%',
    });
    expect(areaToPercent(area({ x: 1 / 3, y: 0, w: 0.123456, h: 1 })).left).toBe('33.333%');
  });

  it('computes the aspect of an area in page points', () => {
    expect(areaAspect(area({ w: 0.3, h: 0.05 }), { width: 612, height: 792 })).toBeCloseTo(183.6 / 39.6);
    expect(areaAspect(area({ w: 0.5, h: 0.5 }), { width: 100, height: 100 })).toBe(1);
  });

  it('orders areas by document, page, row, then left to right', () => {
    const list = [
      area({ document: 1, page: 1, y: 0.1 }),
      area({ page: 2, y: 0.1 }),
      area({ page: 1, y: 0.5 }),
      area({ page: 1, y: 0.101, x: 0.6 }),
      area({ page: 1, y: 0.1, x: 0.1 }),
    ];
    const sorted = [...list].sort(compareAreas);
    expect(sorted).toEqual([list[4], list[3], list[2], list[1], list[0]]);
  });

  it('fits images within bounds without upscaling', () => {
    expect(fitWithin(4000, 3000, 1600, 1600)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(300, 3000, 1600, 1600)).toEqual({ width: 160, height: 1600 });
    expect(fitWithin(200, 100, 1600, 1600)).toEqual({ width: 200, height: 100 });
  });

  it('finds the bounds of drawn strokes', () => {
    expect(strokeBounds([])).toBeNull();
    expect(
      strokeBounds([
        [
          [0.2, 0.5],
          [0.4, 0.3],
        ],
        [[0.9, 0.6]],
      ]),
    ).toEqual({ x: 0.2, y: 0.3, width: expect.closeTo(0.7, 9), height: expect.closeTo(0.3, 9) });
  });
});

describe('values as the signing procedures take them', () => {
  it('parses text-like inputs; empty clears', () => {
    expect(parseTextInput('text', '  Jane Doe ')).toEqual({ ok: true, value: '  Jane Doe ' });
    expect(parseTextInput('text', '   ')).toEqual({ ok: true, value: null });
    expect(parseTextInput('cells', 'AB12')).toEqual({ ok: true, value: 'AB12' });
    expect(parseTextInput('text', 'x'.repeat(10_001)).ok).toBe(false);
  });

  it('issue 42.6: parses numbers as the page’s language writes them (English here) to numbers; an ambiguous comma is refused', () => {
    expect(parseTextInput('number', '42')).toEqual({ ok: true, value: 42 });
    expect(parseTextInput('number', ' -3.5 ')).toEqual({ ok: true, value: -3.5 });
    expect(parseTextInput('number', '1,234.5')).toEqual({ ok: true, value: 1234.5 });
    expect(parseTextInput('number', '3,25')).toEqual({
      ok: false,
      error: 'Enter a number, for example 1,234.5.',
    });
    expect(parseTextInput('number', '1e5').ok).toBe(false);
    expect(parseTextInput('number', '12abc').ok).toBe(false);
  });

  it('issue 42.6: checks phone numbers, and dates as the page’s language writes them (sent as YYYY-MM-DD)', () => {
    expect(parseTextInput('phone', '+1 (555) 010-0000')).toEqual({ ok: true, value: '+1 (555) 010-0000' });
    expect(parseTextInput('phone', 'call me').ok).toBe(false);
    expect(parseTextInput('date', '2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(parseTextInput('date', '2/28/2026')).toEqual({ ok: true, value: '2026-02-28' });
    expect(parseTextInput('date', '2026-02-30').ok).toBe(false);
    expect(parseTextInput('date', '28/02/2026')).toEqual({
      ok: false,
      error: 'Enter a date like this: 12/31/2026.',
    });
  });

  it('issue 42.6: numbers and dates are shown (fields, review) as the page’s language writes them', () => {
    expect(describeValue({ type: 'number' }, 1234.5)).toBe('1,234.5');
    expect(describeValue({ type: 'date' }, '2026-12-31')).toBe('12/31/2026');
  });

  it('issue 46: a number with a format shows its prefix and suffix, as the sealed PDF draws it', () => {
    expect(describeValue({ type: 'number', format: { suffix: ' EUR' } }, 59.97)).toBe('59.97 EUR');
    expect(describeValue({ type: 'number', format: { prefix: '€ ', decimals: 0 } }, 1235)).toBe('€ 1,235');
    expect(describeValue({ type: 'number', format: { suffix: ' EUR' } }, null)).toBe('empty');
  });

  it('reads stored values into the shapes the inputs use', () => {
    expect(fromStored({ type: 'checkbox' }, true)).toBe(true);
    expect(fromStored({ type: 'checkbox' }, null)).toBeNull();
    expect(fromStored({ type: 'number' }, '7')).toBe(7);
    expect(fromStored({ type: 'multiple' }, ['a', 'b'])).toEqual(['a', 'b']);
    expect(fromStored({ type: 'file' }, { name: 'a.pdf', type: 'application/pdf', data: 'data:x' })).toEqual({
      name: 'a.pdf',
      type: 'application/pdf',
      data: 'data:x',
    });
    expect(fromStored({ type: 'text' }, '')).toBeNull();
  });

  it('knows when a value counts as filled (an unticked checkbox does not)', () => {
    expect(isFilled(null)).toBe(false);
    expect(isFilled(false)).toBe(false);
    expect(isFilled([])).toBe(false);
    expect(isFilled('')).toBe(false);
    expect(isFilled(0)).toBe(true);
    expect(isFilled(true)).toBe(true);
    expect(isFilled(['a'])).toBe(true);
  });

  it('describes values in words for screen readers', () => {
    expect(describeValue({ type: 'signature' }, 'data:image/png;base64,AA==')).toBe('signed');
    expect(describeValue({ type: 'checkbox' }, true)).toBe('checked');
    expect(describeValue({ type: 'multiple' }, ['A', 'B'])).toBe('A, B');
    expect(describeValue({ type: 'text' }, null)).toBe('empty');
    expect(describeValue({ type: 'file' }, { name: 'id.pdf', type: 'x', data: 'data:' })).toBe('file id.pdf');
  });

  it('serialises values by field name, leaving out prefilled fields', () => {
    const a = field({ name: 'Name' });
    const b = field({ name: 'Agree', type: 'checkbox' });
    const c = field({ name: 'Sender ref', prefilled: true });
    const d = field({ name: 'Plan', type: 'select', options: ['Basic'] });
    const values = new Map<string, FieldValue>([
      [a.id, 'Jane'],
      [b.id, false],
      [c.id, 'REF-1'],
      [d.id, ''],
    ]);
    expect(valuesByName([a, b, c, d], values)).toEqual({ Name: 'Jane', Agree: false, Plan: null });
    expect(valuesByName([a, b, c, d], values, new Set([a.id]))).toEqual({ Name: 'Jane' });
  });

  it('Next field visits optional fields too, in reading order, and wraps around to required ones only (issue 42.7)', () => {
    const p2 = field({ name: 'Sign', type: 'signature', areas: [area({ page: 2 })] });
    const top = field({ name: 'Name', areas: [area({ y: 0.1 })] });
    const optional = field({ name: 'Note', required: false, areas: [area({ y: 0.2 })] });
    const mid = field({ name: 'Agree', type: 'checkbox', areas: [area({ y: 0.3 })] });
    const pre = field({ name: 'Ref', prefilled: true, areas: [area({ y: 0.05 })] });
    const ordered = orderFields([p2, mid, optional, top, pre]);
    expect(ordered.map((f) => f.name)).toEqual(['Ref', 'Name', 'Note', 'Agree', 'Sign']);
    const values = new Map<string, FieldValue>();
    expect(nextField(ordered, values)?.name).toBe('Name');
    expect(nextField(ordered, values, top.id)?.name).toBe('Note');
    expect(nextField(ordered, values, optional.id)?.name).toBe('Agree');
    expect(nextField(ordered, values, p2.id)?.name).toBe('Name');
    values.set(top.id, 'Jane');
    values.set(mid.id, true);
    expect(missingRequired(ordered, values).map((f) => f.name)).toEqual(['Sign']);
    // past the last field: back to the required field left, not to the optional one
    expect(nextField(ordered, values, p2.id)?.name).toBe('Sign');
    expect(nextField(ordered, values, top.id)?.name).toBe('Note');
    values.set(p2.id, 'data:image/png;base64,AA==');
    expect(nextField(ordered, values)).toBeUndefined();
  });

  it('makes initials and accepts only http(s) redirects', () => {
    expect(initialsOf('Jane Q. Doe')).toBe('JQD');
    expect(initialsOf('anne-marie smith')).toBe('AMS');
    expect(safeRedirect('https://example.com/done?x=1')).toBe('https://example.com/done?x=1');
    expect(safeRedirect('javascript:alert(1)')).toBeNull();
    expect(safeRedirect(null)).toBeNull();
  });
});

describe('pages for links that cannot be signed', () => {
  it('has a clear page for every stable error code', () => {
    expect(viewForError('not_found').title).toMatch(/not valid/);
    expect(viewForError('invalid_parameter').title).toMatch(/not valid/);
    expect(viewForError('signer_finished', 'You have already signed this document')).toMatchObject({
      kind: 'done',
      detail: 'You have already signed this document',
    });
    // Issue 42.7: a signer who declined sees the declined page again, not a green tick.
    expect(
      viewForError('signer_finished', 'You have already declined this document', 'error.signer_declined'),
    ).toMatchObject({ kind: 'info', title: 'You declined to sign' });
    expect(viewForError('not_open').title).toMatch(/closed/);
    expect(viewForError('template_archived').title).toMatch(/no longer available/);
    expect(viewForError('expired').title).toMatch(/expired/);
    expect(viewForError('network').retry).toBe(true);
    expect(viewForError('something_new').retry).toBe(true);
  });

  it('reads the open result: finished signers and closed requests', () => {
    const open = (status: string, request: string) =>
      viewForOpen({
        status: status as 'sent',
        request: { id: 1, status: request, title: 'T', message: null, expires_at: null, test_mode: false },
      });
    expect(open('signed', 'in_progress')?.title).toBe('Document signed');
    expect(open('declined', 'declined')?.title).toBe('You declined to sign');
    expect(open('sent', 'canceled')?.title).toMatch(/canceled/);
    expect(open('sent', 'expired')?.title).toMatch(/expired/);
    expect(open('viewed', 'declined')?.title).toMatch(/declined/);
    expect(open('waiting', 'sent')?.title).toMatch(/not your turn/);
    expect(open('sent', 'sent')).toBeNull();
    expect(open('viewed', 'in_progress')).toBeNull();
  });
});

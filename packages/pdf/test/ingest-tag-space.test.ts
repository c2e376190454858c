import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DetectedField, ingestDocument, TAG_MIN_HEIGHTS } from '../src/ingest/index.ts';
import { growInto, type Rect } from '../src/ingest/tag-space.ts';
import { loadSigningIdentity, type SealValue, sealDocument } from '../src/seal/index.ts';
import { makeTaggedPdf } from './ingest-fixtures.ts';
import { requireTool, tempDir, type WordBox, wordBoxes, writeTemp } from './seal-helpers.ts';

// Issue 33 item 2: a tag's field takes the space it has (never over another field or the next
// line's text), and text values in it are drawn at the tag's own font size.

/** Tags on consecutive 12 pt lines, 14 pt apart: the dense layout of a contract's signature block. */
const DENSE = [
  'Client name: {{Client name;role=Client}}',
  'Company: {{Company;role=Client}}',
  'Provider: {{signature;role=Provider}}',
  'Provider initials: {{initials;role=Provider}}',
  'Date: {{Date;type=date;role=Provider}} Place: {{Place;role=Provider}}',
  'Email: {{Email;role=Client}}',
  'This line of text follows the fields.',
];
const SIZE = 12;
const PAGE_H = 792;

const VALUES: Record<string, string> = {
  'Client name': 'Jane Q. Doe',
  Company: 'Acme Corporation',
  Date: '2026-11-28',
  Place: 'Berlin',
  Email: 'jane@example.com',
  Signature: 'Jane Doe',
  Initials: 'JD',
};

/** An area in displayed points [left, top, right, bottom]. */
const rectOf = (a: { x: number; y: number; w: number; h: number }): Rect => [
  a.x * 612,
  a.y * PAGE_H,
  (a.x + a.w) * 612,
  (a.y + a.h) * PAGE_H,
];
const overlap = (a: Rect, b: Rect) =>
  Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.01 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.01;

interface DrawnSpan {
  font: string;
  size: number;
  /** Glyph origins (user space, y up) and advances in points. */
  glyphs: { ch: string; x: number; y: number; adv: number }[];
}

/** The text spans `mutool trace` reports: font, size (from trm) and glyph positions. */
function tracedSpans(file: string): DrawnSpan[] {
  const xml = execFileSync('mutool', ['trace', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const spans: DrawnSpan[] = [];
  const spanRe = /<span font="([^"]+)"[^>]*trm="([-\d.]+) [^"]*">([\s\S]*?)<\/span>/g;
  const glyphRe = /<g unicode="([^"]*)"[^>]*x="([-\d.]+)" y="([-\d.]+)" adv="([-\d.]+)"/g;
  for (let m = spanRe.exec(xml); m; m = spanRe.exec(xml)) {
    const size = Math.abs(Number(m[2]));
    const glyphs = [...m[3]!.matchAll(glyphRe)].map((g) => ({
      ch: g[1]!,
      x: Number(g[2]),
      y: Number(g[3]),
      adv: Number(g[4]) * size,
    }));
    spans.push({ font: m[1]!, size, glyphs });
  }
  return spans;
}

describe('text tags on consecutive lines (issue 33 item 2)', () => {
  let fields: DetectedField[];
  let words: WordBox[];
  let stored: Uint8Array;
  let dir: string;

  beforeAll(async () => {
    requireTool('pdftotext');
    dir = tempDir('tag-space');
    const pdf = await makeTaggedPdf([
      DENSE.map((text, i) => ({ runs: [text], y: 700 - 14 * i, size: SIZE })),
    ]);
    const doc = await ingestDocument({ bytes: pdf });
    expect(doc.warnings).toEqual([]);
    fields = doc.fields;
    stored = doc.pdf;
    words = wordBoxes(writeTemp(dir, 'stored.pdf', stored), 1);
  });

  it('issue 33.2: no two field boxes overlap and none overlaps the page’s text (pdftotext -bbox)', () => {
    expect(fields.map((f) => f.name)).toEqual([
      'Client name',
      'Company',
      'Signature',
      'Initials',
      'Date',
      'Place',
      'Email',
    ]);
    const boxes = fields.map((f) => ({ name: f.name, rect: rectOf(f.areas[0]!) }));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        expect(overlap(a.rect, b.rect), `${a.name} / ${b.name}`).toBe(false);
    // The labels and the last line are still on the page (the tags are gone) and stay uncovered.
    expect(words.map((w) => w.text).join(' ')).toContain('Provider initials:');
    expect(words.map((w) => w.text).join(' ')).not.toContain('{{');
    for (const box of boxes)
      for (const w of words) {
        const word: Rect = [w.xMin, w.yMin, w.xMax, w.yMax];
        expect(overlap(box.rect, word), `${box.name} over "${w.text}"`).toBe(false);
      }
  });

  it('issue 33.2: the signature tag gives way to the next line (no 48 pt box over "Provider initials"); with room below it still gets TAG_DEFAULT_SIZES', async () => {
    const sig = rectOf(fields.find((f) => f.name === 'Signature')!.areas[0]!);
    const initials = words.find((w) => w.text === 'initials:')!;
    expect(sig[3]).toBeLessThanOrEqual(initials.yMin);
    // Its own line box at least (ascent to descent of 12 pt Helvetica).
    expect(sig[3] - sig[1]).toBeGreaterThanOrEqual((0.718 + 0.207) * SIZE - 0.01);

    const roomy = await ingestDocument({
      bytes: await makeTaggedPdf([[{ runs: ['Provider: {{signature;role=Provider}}'], y: 700 }]]),
    });
    const alone = rectOf(roomy.fields[0]!.areas[0]!);
    expect(alone[2] - alone[0]).toBeCloseTo(180, 1);
    expect(alone[3] - alone[1]).toBeCloseTo(48, 1);
  });

  it('issue 33.2: text fields record the tag’s font size and are one line at that size tall where there is room', () => {
    for (const f of fields) {
      const area = f.areas[0]!;
      if (f.type === 'signature' || f.type === 'initials') expect(area.fontSize).toBeUndefined();
      else expect(area.fontSize, f.name).toBe(SIZE);
    }
    // Place has nothing below it on the next lines: 1.2 em. The others stop 1 pt above the next line.
    expect((fields.find((f) => f.name === 'Place')!.areas[0]!.h * PAGE_H) / SIZE).toBeCloseTo(1.2, 3);
  });

  it('issue 33.2: sealed, each text value is drawn at the tag’s font size (±10%) inside its box (mutool trace)', async () => {
    requireTool('mutool');
    const identity = await loadSigningIdentity({ dataDir: tempDir('tag-space-id') });
    const values: SealValue[] = fields.map((f) => ({
      type: f.type,
      areas: f.areas,
      value: VALUES[f.name!]!,
    }));
    const sealed = await sealDocument({ pdf: stored, values, identity, name: 'dense' });
    // The seal's own fonts (Noto); the page's Helvetica is the document's text.
    const drawn = tracedSpans(writeTemp(dir, 'sealed.pdf', sealed)).filter((s) => !/Helvetica/.test(s.font));
    for (const f of fields.filter((x) => x.type !== 'signature' && x.type !== 'initials')) {
      const [l, t, r, b] = rectOf(f.areas[0]!);
      const inBox = drawn.filter((s) =>
        s.glyphs.some((g) => g.x >= l - 0.5 && g.x <= r && PAGE_H - g.y >= t - 2 && PAGE_H - g.y <= b + 2),
      );
      const text = inBox.flatMap((s) => s.glyphs.map((g) => g.ch)).join('');
      expect(text, f.name).toBe(VALUES[f.name!]);
      for (const span of inBox) {
        expect(span.size / SIZE, f.name).toBeGreaterThan(0.9);
        expect(span.size / SIZE, f.name).toBeLessThan(1.1);
        for (const g of span.glyphs) {
          // Inside the box: from its left edge to its right, cap height to descender within top and bottom.
          expect(g.x, f.name).toBeGreaterThanOrEqual(l - 0.01);
          expect(g.x + g.adv, f.name).toBeLessThanOrEqual(r + 0.01);
          const baseline = PAGE_H - g.y;
          expect(baseline - 0.72 * span.size, f.name).toBeGreaterThanOrEqual(t - 0.01);
          expect(baseline + 0.22 * span.size, f.name).toBeLessThanOrEqual(b + 0.01);
        }
      }
    }
  });
});

describe('growInto: a field gives way to what lies in its growth', () => {
  const spec = (want: Rect) => ({ own: [0, 0, 50, 10] as Rect, want, fixedRight: false, fixedBottom: false });

  it('issue 33.2: text below the tag cuts the bottom; text right of it on its line cuts the right', () => {
    expect(growInto(spec([0, 0, 180, 48]), [[0, 14, 100, 25]])).toEqual([0, 0, 180, 13]);
    expect(growInto(spec([0, 0, 180, 48]), [[80, 0, 120, 10]])).toEqual([0, 0, 78, 48]);
  });

  it('issue 33.2: an obstacle below and right of the tag cuts whichever side keeps more of the box', () => {
    // Far right, near the bottom: cut the bottom (180 × 39 > 118 × 48).
    expect(growInto(spec([0, 0, 180, 48]), [[120, 40, 200, 50]])).toEqual([0, 0, 180, 39]);
    // Just right of the tag, high up: cut the right.
    expect(growInto(spec([0, 0, 180, 48]), [[62, 12, 200, 50]])).toEqual([0, 0, 60, 48]);
  });

  it('issue 33.2: never smaller than the tag’s own box; explicit sides are kept; obstacles over the tag are ignored', () => {
    expect(growInto(spec([0, 0, 180, 48]), [[0, 10.5, 100, 20]])).toEqual([0, 0, 180, 10]);
    expect(growInto({ ...spec([0, 0, 180, 48]), fixedBottom: true }, [[0, 14, 100, 25]])).toEqual([
      0, 0, 180, 48,
    ]);
    expect(growInto(spec([0, 0, 180, 48]), [[10, 5, 20, 15]])).toEqual([0, 0, 180, 48]);
  });
});

describe('a picture field from a one-line tag gets a usable height (issue 42 item 7)', () => {
  it('issue 42.7: a signature or image tag with a line of text right below it keeps TAG_MIN_HEIGHTS (the text below does not cut it to its one line)', async () => {
    for (const type of ['signature', 'image'] as const) {
      const doc = await ingestDocument({
        bytes: await makeTaggedPdf([
          [
            { runs: [`Tenant: {{${type};role=Tenant}}`], y: 700, size: SIZE },
            { runs: ['Signed at the landlord’s office on the date above.'], y: 686, size: SIZE },
          ],
        ]),
      });
      const [l, t, r, b] = rectOf(doc.fields[0]!.areas[0]!);
      expect(b - t, type).toBeCloseTo(TAG_MIN_HEIGHTS[type]!, 1);
      expect(r - l, type).toBeGreaterThan(100);
    }
  });

  it('issue 42.7: another field or tag below still stops it (no two fields overlap), and an explicit height is kept', () => {
    const plain = {
      own: [0, 0, 50, 12] as Rect,
      want: [0, 0, 180, 48] as Rect,
      fixedRight: false,
      fixedBottom: false,
    };
    const pic = { ...plain, minBottom: 28 };
    const line: Rect = [0, 14, 100, 25];
    expect(growInto(pic, [], [line])).toEqual([0, 0, 180, 28]);
    expect(growInto(pic, [line], [])).toEqual([0, 0, 180, 13]);
    expect(growInto({ ...pic, fixedBottom: true, want: [0, 0, 180, 20] }, [], [line])).toEqual([
      0, 0, 180, 20,
    ]);
    expect(growInto(plain, [], [line])).toEqual([0, 0, 180, 13]);
  });
});

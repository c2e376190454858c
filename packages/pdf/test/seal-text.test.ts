import { describe, expect, it } from 'vitest';
import { createFaceSubset, type FaceId, loadFace } from '../src/seal/fonts.ts';
import { fitText, measure, shapeLine } from '../src/seal/text.ts';

// Sealed values are drawn from shaped lines (issue 16: Latin-only texts skip fontkit's layout, the
// largest cost of a seal). The quick path must draw the same glyphs, be as wide up to pair kerning,
// and leave every other script to the shaper.

const glyphIds = (line: ReturnType<typeof shapeLine>) =>
  line.runs.flatMap((r) => r.glyphs.map((g) => g.glyph.id));

describe('seal text: Latin lines without shaping', () => {
  it('a Latin-1 / Latin Extended-A text is drawn with the glyphs the shaper picks (no ligature in these) and its width within kerning', () => {
    for (const text of [
      'Jürgen Weiß-Łukasiewicz, 12 345,67 €?',
      'Value number 3 for a text box',
      'AVATAR Wolf',
    ]) {
      const fitted = fitText(text, { w: 2000, h: 40 }, { maxSize: 12 });
      const shaped = shapeLine(text);
      expect(fitted.lines).toHaveLength(1);
      if (!text.includes('€')) expect(glyphIds(fitted.lines[0]!)).toEqual(glyphIds(shaped));
      // Kerning narrows a line by at most a few hundredths of an em per pair.
      expect(Math.abs(measure(text) - shaped.width)).toBeLessThan(0.05 * text.length);
      expect(measure(text)).toBeGreaterThan(0);
    }
  });

  it('ligatures are left out: "fi" is drawn as f and i, so a copied value reads as typed', () => {
    const fitted = fitText('field', { w: 2000, h: 40 }, { maxSize: 12 });
    expect(fitted.lines[0]!.runs[0]!.glyphs).toHaveLength(5);
  });

  it('Arabic, Hebrew, CJK and combining marks go through the shaper (joined forms, right-to-left order)', () => {
    for (const text of ['مرحبا بالعالم', 'שלום עולם', '山田太郎', 'e\u0301te\u0301']) {
      const fitted = fitText(text, { w: 2000, h: 40 }, { maxSize: 12 });
      expect(glyphIds(fitted.lines[0]!)).toEqual(glyphIds(shapeLine(text)));
      expect(measure(text)).toBeCloseTo(shapeLine(text).width, 6);
    }
    expect(shapeLine('مرحبا').rtl).toBe(true);
  });
});

describe('seal fonts: the subset copies glyphs without decoding them (issue 31, sealing CPU)', () => {
  it("every face's subset is byte for byte the one fontkit writes, composite glyphs (renumbered components) included", () => {
    const text = 'Value 13, run 137: J.Q.C. APPROVED 2026-03-04 Jürgen Weiß-Łukasiewicz ǻ Ǻ ḗ ậ Ặ ễ Ộ ợ € fi';
    for (const id of ['sans', 'sansBold', 'sansItalic'] as FaceId[]) {
      const face = loadFace(id);
      const glyphs = face.layout(text).glyphs;
      const composites = glyphs.filter((g) => {
        const decoded = (g as unknown as { _decode(): { numberOfContours: number } | null })._decode();
        return decoded !== null && decoded.numberOfContours < 0;
      });
      expect(composites.length, id).toBeGreaterThan(0);
      const stock = face.createSubset();
      const fast = createFaceSubset(face);
      for (const g of glyphs) expect(fast.includeGlyph(g)).toBe(stock.includeGlyph(g));
      expect(Buffer.from(fast.encode()).equals(Buffer.from(stock.encode())), id).toBe(true);
    }
  });
});

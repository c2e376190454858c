import { describe, expect, it } from 'vitest';
import {
  contrastFailures,
  contrastMessage,
  contrastRatio,
  SIGNING_PAGE_COLORS,
} from '../src/brand-contrast.ts';

// Issue 44 item 1: colours checked against WCAG AA on the signing page's backgrounds.

describe('WCAG 2.x contrast ratio', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#ffffff', '#ffffff', 1],
    ['#777777', '#ffffff', 4.48],
    ['#1d4ed8', '#ffffff', 6.7],
  ])('%s on %s is %d:1', (a, b, ratio) => expect(contrastRatio(a, b)).toBeCloseTo(ratio, 1));

  it('is symmetric', () =>
    expect(contrastRatio('#123456', '#fedcba')).toBe(contrastRatio('#fedcba', '#123456')));
});

describe('the pairs a brand must pass', () => {
  it("the signing page's own blue passes every pair", () =>
    expect(contrastFailures({ primary_color: '#1d4ed8', accent_color: '#1d4ed8' })).toEqual([]));

  it('white on white fails every pair, the first named with its ratio and the level it needs', () => {
    const failures = contrastFailures({ primary_color: '#ffffff', accent_color: '#ffffff' });
    expect(failures.map((f) => [f.field, f.other])).toEqual([
      ['primary_color', SIGNING_PAGE_COLORS.buttonText],
      ['primary_color', SIGNING_PAGE_COLORS.page],
      ['accent_color', SIGNING_PAGE_COLORS.card],
      ['accent_color', SIGNING_PAGE_COLORS.page],
    ]);
    expect(contrastMessage(failures[0]!)).toBe(
      'primary_color #ffffff against the white button text (#ffffff) has a contrast of 1.0:1; WCAG AA needs at least 4.5:1 there. Choose a darker colour.',
    );
  });

  it('a ratio just under the level never reads as the level (4.48 → 4.4)', () => {
    const [failure] = contrastFailures({ primary_color: '#777777', accent_color: '#1d4ed8' });
    expect(contrastMessage(failure!)).toContain('4.4:1');
  });

  it('the focus ring needs only 3:1 on the page background (a user-interface part)', () => {
    // #b45309 is 5.0:1 on white (text passes) and 4.4:1 on the page background: fine for a ring,
    // not for accent text there.
    expect(contrastFailures({ primary_color: '#b45309', accent_color: '#1d4ed8' })).toEqual([]);
    expect(
      contrastFailures({ primary_color: '#1d4ed8', accent_color: '#b45309' }).map((f) => f.against),
    ).toEqual(['the page background']);
  });
});

// WCAG 2.x contrast of a brand's colours against what the signing page draws them on and with
// (apps/web/src/signing/client/styles.css: --bg, --card, --accent-ink). A pair below its level is
// refused when the brand is saved, naming the pair (issue 44 item 1); the dashboard's colour pickers
// say the same as they change (packages/domain: one rule, both sides).

/** The signing page's own colours a brand colour meets. */
export const SIGNING_PAGE_COLORS = {
  /** --bg: the page behind every card. */
  page: '#eef0f3',
  /** --card: the cards and the header. */
  card: '#ffffff',
  /** --accent-ink: the text of a primary button. */
  buttonText: '#ffffff',
} as const;

/** WCAG AA: 4.5:1 for normal text; 3:1 for user-interface parts such as a focus ring (1.4.11). */
const AA_TEXT = 4.5;
const AA_NON_TEXT = 3;

function channel(hex: string, offset: number): number {
  const c = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of `#rrggbb` (WCAG 2.x definition). */
function luminance(hex: string): number {
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

/** The contrast ratio of two `#rrggbb` colours, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** One pair a brand's colours must pass. */
interface ContrastCheck {
  /** The brand's field (`primary_color`, `accent_color`). */
  field: 'primary_color' | 'accent_color';
  /** What it meets, in words for the message. */
  against: string;
  other: string;
  minimum: number;
}

/**
 * What each colour is used for on the signing page, and the level that use needs:
 * - primary: the background of buttons whose text is white (text: 4.5:1), and the focus ring drawn
 *   on the page background (a user-interface part: 3:1);
 * - accent: links and highlighted text on the cards and on the page background (text: 4.5:1).
 */
function contrastChecks(): ContrastCheck[] {
  return [
    {
      field: 'primary_color',
      against: 'the white button text',
      other: SIGNING_PAGE_COLORS.buttonText,
      minimum: AA_TEXT,
    },
    {
      field: 'primary_color',
      against: 'the page background (focus ring)',
      other: SIGNING_PAGE_COLORS.page,
      minimum: AA_NON_TEXT,
    },
    {
      field: 'accent_color',
      against: 'the white card background',
      other: SIGNING_PAGE_COLORS.card,
      minimum: AA_TEXT,
    },
    {
      field: 'accent_color',
      against: 'the page background',
      other: SIGNING_PAGE_COLORS.page,
      minimum: AA_TEXT,
    },
  ].map((c) => ({ ...c, field: c.field as ContrastCheck['field'] }));
}

/** A pair that fails, with its measured ratio. */
export interface ContrastFailure extends ContrastCheck {
  color: string;
  ratio: number;
}

/** The pairs below their level (empty when the colours pass). */
export function contrastFailures(colors: { primary_color: string; accent_color: string }): ContrastFailure[] {
  return contrastChecks()
    .map((c) => ({ ...c, color: colors[c.field], ratio: contrastRatio(colors[c.field], c.other) }))
    .filter((c) => c.ratio < c.minimum);
}

/** The message of a failed pair: which colour, on what, measured and needed. */
export function contrastMessage(f: ContrastFailure): string {
  // Floored, so a ratio just under the level never reads as the level itself (4.49 → 4.4).
  const measured = Math.floor(f.ratio * 10) / 10;
  return `${f.field} ${f.color} against ${f.against} (${f.other}) has a contrast of ${measured.toFixed(1)}:1; WCAG AA needs at least ${f.minimum}:1 there. Choose a darker colour.`;
}

// How many segments an SMS costs (issue 42.2): a provider bills each segment. The rules are those
// of 3GPP TS 23.038 / 23.040:
// - a text made only of the GSM 7-bit default alphabet (basic table, plus the extension table whose
//   characters take two septets: an escape and the character) goes in 160 septets, or, when
//   longer, in segments of 153 (7 septets carry the concatenation header); an escape pair is never
//   split between two segments;
// - any other character makes the whole text UCS-2: 70 UTF-16 code units, or segments of 67; a
//   surrogate pair (an emoji) is never split either.

/** The GSM 7-bit default alphabet's basic table (one septet each). */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** Its extension table (an escape septet plus one). */
const GSM_EXTENSION = new Set('\f^{}\\[~]|€');

/** Whether `text` can go as GSM-7 (every character in the basic or extension table). */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!GSM_BASIC.has(ch) && !GSM_EXTENSION.has(ch)) return false;
  return true;
}

/** The encoding an SMS of `text` goes in, and how many segments it takes. */
export function smsSegments(text: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  if (isGsm7(text)) {
    const units = Array.from(text, (ch) => (GSM_EXTENSION.has(ch) ? 2 : 1));
    return { encoding: 'GSM-7', segments: pack(units, 160, 153) };
  }
  // UTF-16 code units: a character outside the Basic Multilingual Plane takes two.
  const units = Array.from(text, (ch) => ch.length);
  return { encoding: 'UCS-2', segments: pack(units, 70, 67) };
}

/** Segments for characters of `units` each: one of `single`, or as many of `multi` as they fill whole. */
function pack(units: number[], single: number, multi: number): number {
  const total = units.reduce((a, b) => a + b, 0);
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const u of units) {
    if (used + u > multi) {
      segments += 1;
      used = 0;
    }
    used += u;
  }
  return segments;
}

/** Typographic characters outside GSM-7 with a plain equivalent inside it. */
const PLAIN: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
  '…': '...',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
};

/**
 * A brand's display name for an SMS (issue 44 item 2): as written when it is GSM-7; else, where
 * that is enough, with its accents and typographic marks made plain ("Zoë’s Café" → "Zoe's Café": é is GSM-7),
 * so one character does not turn the whole text into UCS-2 (70 characters a segment instead of
 * 160); else as written (an Arabic or Greek name stays itself).
 */
export function gsm7Name(name: string): string {
  if (isGsm7(name)) return name;
  const plain = Array.from(name, (ch) =>
    GSM_BASIC.has(ch) || GSM_EXTENSION.has(ch)
      ? ch
      : (PLAIN[ch] ?? ch.normalize('NFD').replace(/\p{M}+/gu, '')),
  ).join('');
  return isGsm7(plain) ? plain : name;
}

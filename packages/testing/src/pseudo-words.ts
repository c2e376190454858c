// What is left of a text shown in the pseudo-language en-XA once the catalogue's words (between ⟦
// and ⟧) and data are taken out: English written inline (issue 42; the dashboard's check,
// apps/web/test/dashboard-pseudo.int.test.ts, for what signers read).

/** Words Intl writes in the reader's own language (dates, times), not ours. */
export const INTL_WORDS = new RegExp(
  [
    String.raw`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b`,
    String.raw`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b`,
    String.raw`\b[AP]M\b`,
    String.raw`\b(UTC|GMT)\b`,
  ].join('|'),
  'g',
);

/** Data, not words: addresses, links, codes and identifiers. */
export const DATA = [/\S+@\S+/g, /https?:\/\/\S+/g, /\b[a-z0-9]+(?:[._-][a-z0-9]+)+\b/g, /\b[A-Z0-9]{2,}\b/g];

/**
 * The English words left in `text` (three or more ASCII letters, not accented as the
 * pseudo-language accents them) outside ⟦…⟧, `data` (names, titles…), DATA and INTL_WORDS; each
 * with a little of its context.
 */
export function englishLeft(text: string, data: readonly string[]): string[] {
  let rest = text.replace(/⟦[^⟧]*(⟧|$)/g, ' ').replace(/^[^⟦]*⟧/, ' ');
  for (const d of [...data].filter(Boolean).sort((a, b) => b.length - a.length))
    rest = rest.split(d).join(' ');
  for (const pattern of DATA) rest = rest.replace(pattern, ' ');
  rest = rest.replace(INTL_WORDS, ' ');
  const words = rest.split(/[^\p{L}]+/u).filter((w) => /^[A-Za-z]{3,}$/.test(w));
  return [...new Set(words)];
}

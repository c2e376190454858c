/**
 * Code → Unicode tables for simple fonts without a ToUnicode CMap (ISO 32000-1 Annex D), and a
 * glyph-name → Unicode lookup for `/Differences`. Text-tag detection only needs the ASCII
 * range to be exact; the upper halves are filled in for fidelity of tag names with accents.
 */

const decodeTable = (label: string): string[] => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  const decoder = new TextDecoder(label);
  return Array.from(all, (b) => decoder.decode(Uint8Array.of(b)));
};

const latin1 = (): string[] => Array.from({ length: 256 }, (_, i) => String.fromCharCode(i));

let winAnsi: string[] | undefined;
let macRoman: string[] | undefined;
let standard: string[] | undefined;

/** WinAnsiEncoding is Windows-1252 with PDF's additions (unused codes show as bullets). */
function winAnsiTable(): string[] {
  if (!winAnsi) {
    winAnsi = decodeTable('windows-1252');
    for (const c of [0x7f, 0x81, 0x8d, 0x8f, 0x90, 0x9d]) winAnsi[c] = '\u2022';
  }
  return winAnsi;
}

function macRomanTable(): string[] {
  if (!macRoman) {
    try {
      macRoman = decodeTable('macintosh');
    } catch {
      macRoman = latin1();
    }
  }
  return macRoman;
}

/** Adobe StandardEncoding: ASCII except the quotes, with its own upper half. */
function standardTable(): string[] {
  if (!standard) {
    const t = latin1();
    for (let i = 0x80; i < 0x100; i++) t[i] = '';
    t[0x27] = '\u2019';
    t[0x60] = '\u2018';
    const upper: Record<number, string> = {
      161: '¡',
      162: '¢',
      163: '£',
      164: '⁄',
      165: '¥',
      166: 'ƒ',
      167: '§',
      168: '¤',
      169: "'",
      170: '“',
      171: '«',
      172: '‹',
      173: '›',
      174: 'ﬁ',
      175: 'ﬂ',
      177: '–',
      178: '†',
      179: '‡',
      180: '·',
      182: '¶',
      183: '•',
      184: '‚',
      185: '„',
      186: '”',
      187: '»',
      188: '…',
      189: '‰',
      191: '¿',
      193: '`',
      194: '´',
      195: 'ˆ',
      196: '˜',
      197: '¯',
      198: '˘',
      199: '˙',
      200: '¨',
      202: '˚',
      203: '¸',
      205: '˝',
      206: '˛',
      207: 'ˇ',
      208: '—',
      225: 'Æ',
      227: 'ª',
      232: 'Ł',
      233: 'Ø',
      234: 'Œ',
      235: 'º',
      241: 'æ',
      245: 'ı',
      248: 'ł',
      249: 'ø',
      250: 'œ',
      251: 'ß',
    };
    for (const [k, v] of Object.entries(upper)) t[Number(k)] = v;
    standard = t;
  }
  return standard;
}

export function baseEncodingTable(name: string | undefined): string[] {
  switch (name) {
    case 'WinAnsiEncoding':
      return winAnsiTable();
    case 'MacRomanEncoding':
      return macRomanTable();
    case 'StandardEncoding':
      return standardTable();
    default:
      // Unknown, symbolic or built-in encodings: treat codes as Latin-1, which is right for the
      // ASCII range that text tags use in the vast majority of real files.
      return latin1();
  }
}

const ASCII_NAMES: Record<string, string> = {
  space: ' ',
  exclam: '!',
  quotedbl: '"',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  ampersand: '&',
  quotesingle: "'",
  quoteright: '\u2019',
  quoteleft: '\u2018',
  parenleft: '(',
  parenright: ')',
  asterisk: '*',
  plus: '+',
  comma: ',',
  hyphen: '-',
  minus: '\u2212',
  period: '.',
  slash: '/',
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  colon: ':',
  semicolon: ';',
  less: '<',
  equal: '=',
  greater: '>',
  question: '?',
  at: '@',
  bracketleft: '[',
  backslash: '\\',
  bracketright: ']',
  asciicircum: '^',
  underscore: '_',
  grave: '`',
  braceleft: '{',
  bar: '|',
  braceright: '}',
  asciitilde: '~',
  nbspace: '\u00a0',
  nonbreakingspace: '\u00a0',
  bullet: '\u2022',
  endash: '\u2013',
  emdash: '\u2014',
  quotedblleft: '\u201c',
  quotedblright: '\u201d',
  quotesinglbase: '\u201a',
  quotedblbase: '\u201e',
  ellipsis: '\u2026',
  trademark: '\u2122',
  copyright: '\u00a9',
  registered: '\u00ae',
  degree: '\u00b0',
  section: '\u00a7',
  paragraph: '\u00b6',
  germandbls: '\u00df',
  ae: '\u00e6',
  AE: '\u00c6',
  oe: '\u0153',
  OE: '\u0152',
  oslash: '\u00f8',
  Oslash: '\u00d8',
  eth: '\u00f0',
  Eth: '\u00d0',
  thorn: '\u00fe',
  Thorn: '\u00de',
  dotlessi: '\u0131',
  lslash: '\u0142',
  Lslash: '\u0141',
  fi: 'fi',
  fl: 'fl',
  ff: 'ff',
  ffi: 'ffi',
  ffl: 'ffl',
  Euro: '\u20ac',
  euro: '\u20ac',
  sterling: '\u00a3',
  yen: '\u00a5',
  cent: '\u00a2',
  currency: '\u00a4',
  florin: '\u0192',
  exclamdown: '\u00a1',
  questiondown: '\u00bf',
  guillemotleft: '\u00ab',
  guillemotright: '\u00bb',
  guilsinglleft: '\u2039',
  guilsinglright: '\u203a',
  periodcentered: '\u00b7',
  multiply: '\u00d7',
  divide: '\u00f7',
  plusminus: '\u00b1',
  mu: '\u00b5',
  ordfeminine: '\u00aa',
  ordmasculine: '\u00ba',
  dagger: '\u2020',
  daggerdbl: '\u2021',
  perthousand: '\u2030',
  fraction: '\u2044',
};

const ACCENTS: Record<string, string> = {
  acute: '\u0301',
  grave: '\u0300',
  circumflex: '\u0302',
  dieresis: '\u0308',
  tilde: '\u0303',
  ring: '\u030a',
  cedilla: '\u0327',
  caron: '\u030c',
  breve: '\u0306',
  macron: '\u0304',
  ogonek: '\u0328',
  dotaccent: '\u0307',
  hungarumlaut: '\u030b',
};

/** Unicode for a glyph name (Adobe Glyph List conventions for the names that occur in practice). */
export function glyphNameToUnicode(name: string): string | undefined {
  if (name.length === 1) return name;
  const direct = ASCII_NAMES[name];
  if (direct !== undefined) return direct;
  const base = name.split('.')[0]!.split('_')[0]!;
  if (base !== name && base.length > 0) return glyphNameToUnicode(base);
  let m = /^uni([0-9A-Fa-f]{4})+$/.exec(name);
  if (m) {
    const units: number[] = [];
    for (let i = 3; i < name.length; i += 4) units.push(Number.parseInt(name.slice(i, i + 4), 16));
    return String.fromCharCode(...units);
  }
  m = /^u([0-9A-Fa-f]{4,6})$/.exec(name);
  if (m) {
    const cp = Number.parseInt(m[1]!, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : undefined;
  }
  const accent =
    /^([A-Za-z])(acute|grave|circumflex|dieresis|tilde|ring|cedilla|caron|breve|macron|ogonek|dotaccent|hungarumlaut)$/.exec(
      name,
    );
  if (accent) return (accent[1]! + ACCENTS[accent[2]!]!).normalize('NFC');
  return undefined;
}

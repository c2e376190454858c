import { inflateSync } from 'node:zlib';
import type { RevisionChange } from './revisions.ts';

// Issue 30, item 7: incremental updates that readers read differently. An update is only
// unambiguous when it ends with its own cross-reference section (ISO 32000-2 §7.5.6: "startxref"
// gives the offset of the update's xref, whose trailer /Prev leads to the older ones), that xref
// lists every object the update writes, and its trailer names each key once. Otherwise one reader
// follows the xref (and shows the signed revision) while another rebuilds the file from its
// objects, or takes the other /Root (and shows something else). Such a revision is reported as
// `unreadable_revision`, never read one way and called intact.

/**
 * One character per byte, byte values kept (ISO 8859-1). Not TextDecoder('latin1'): that is
 * windows-1252, which turns bytes 0x80-0x9F into other characters, so binary xref-stream data
 * re-encoded from it came back wrong (a B-LTA file's offsets read as pointing at nothing).
 */
const latin1 = (pdf: Uint8Array) =>
  Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');

/** One cross-reference entry: free (0), at a byte offset (1), or inside object stream `stream` at `index` (2). */
type Entry = { type: 0 | 1; offset: number; gen: number } | { type: 2; stream: number; index: number };

export interface UpdateStructure {
  changes: RevisionChange[];
  /**
   * For each revision after the first signed one (1-based): the generation of every object number
   * the updates since the signature list in use (0 for objects in object streams), as it stands
   * at the end of that revision. A reference naming another generation is read differently by
   * readers that check generations (poppler: nothing) and those that do not (MuPDF: the object).
   */
  generations: Map<number, Map<number, number>>;
}

/**
 * Problems of the revisions that end after `from` (a byte offset: the end of the first signed
 * revision); `ends` are the offsets just after each `%%EOF`, revision 1 first.
 */
export function ambiguousRevisions(pdf: Uint8Array, ends: number[], from: number): UpdateStructure {
  const generations = new Map<number, Map<number, number>>();
  if (!ends.some((end, i) => i > 0 && ends[i - 1]! >= from && end > from))
    return { changes: [], generations };
  const text = latin1(pdf);
  const changes: RevisionChange[] = [];
  const current = new Map<number, number>();
  const offsets = new Map<number, number>();
  for (let i = 1; i < ends.length; i++) {
    if (ends[i - 1]! < from) continue;
    const { problem, entries } = readSegment(text, ends[i - 1]!, ends[i]!);
    for (const [num, e] of entries) {
      if (e.type === 1) offsets.set(num, e.offset);
      if (e.type === 0) current.delete(num);
      else current.set(num, e.type === 1 ? e.gen : 0);
    }
    generations.set(i + 1, new Map(current));
    const found = problem ?? misplaced(text, entries, offsets);
    if (found) {
      changes.push({
        revision: i + 1,
        kind: 'unreadable_revision',
        page: null,
        description: `revision ${i + 1} ${found}, so readers disagree on what the file shows`,
      });
    }
  }
  return { changes, generations };
}

/**
 * An entry whose place does not hold the object it names: readers then rebuild the file from its
 * `N G obj` headers (poppler, MuPDF, pdf.js) or return nothing (poppler, for an object stream),
 * while others take whatever object sits there.
 */
function misplaced(text: string, entries: Map<number, Entry>, offsets: Map<number, number>): string | null {
  for (const [num, e] of entries) {
    if (e.type === 1) {
      const head = /^\s*(\d+)\s+(\d+)\s+obj\b/.exec(text.slice(e.offset, e.offset + 40));
      if (!head || Number(head[1]) !== num || Number(head[2]) !== e.gen)
        return `lists object ${num} ${e.gen} at an offset that holds ${head ? `object ${head[1]} ${head[2]}` : 'no object'}`;
    } else if (e.type === 2) {
      const at = offsets.get(e.stream);
      const held = at === undefined ? undefined : objectStreamNumbers(text, at);
      if (held && held[e.index] !== num)
        return `lists object ${num} as entry ${e.index} of object stream ${e.stream}, which holds ${held[e.index] === undefined ? 'no such entry' : `object ${held[e.index]}`} there`;
    }
  }
  return null;
}

/** The object numbers an object stream at `at` declares, in order; undefined when it cannot be read. */
function objectStreamNumbers(text: string, at: number): number[] | undefined {
  const open = text.indexOf('<<', at);
  if (open < 0 || open > at + 40) return undefined;
  const dict = dictAt(text, open);
  const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1] ?? Number.NaN);
  const start = /^\s*stream\r?\n/.exec(text.slice(open + dict.length, open + dict.length + 20));
  if (!/\/Type\s*\/ObjStm\b/.test(dict) || Number.isNaN(first) || !start) return undefined;
  const from = open + dict.length + start[0].length;
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
  const raw = Buffer.from(
    text.slice(from, length ? from + Number(length[1]) : text.indexOf('endstream', from)),
    'latin1',
  );
  const filter = /\/Filter\s*\[?\s*\/(\w+)/.exec(dict)?.[1];
  if (filter && filter !== 'FlateDecode') return undefined;
  try {
    const data = filter ? inflateSync(raw) : raw;
    const pairs = data.subarray(0, first).toString('latin1').trim().split(/\s+/).map(Number);
    return pairs.filter((_, i) => i % 2 === 0);
  } catch {
    return undefined;
  }
}

/** The segment's cross-reference entries and, when readers would disagree on it, why. */
function readSegment(
  text: string,
  start: number,
  end: number,
): { problem: string | null; entries: Map<number, Entry> } {
  const entries = new Map<number, Entry>();
  const problem = (why: string) => ({ problem: why, entries });
  const segment = text.slice(start, end);
  const startxref = [...segment.matchAll(/startxref\s+(\d+)\s+%%EOF/g)].at(-1);
  if (!startxref) return problem('has no startxref');
  const at = Number(startxref[1]);
  if (at < start || at >= end) return problem('was appended without a cross-reference section of its own');
  const trailers: string[] = [];
  let twice: number | null = null;
  if (text.startsWith('xref', at)) {
    twice = readTable(text, at, entries);
    for (const m of segment.matchAll(/trailer\s*<</g)) {
      const dict = dictAt(text, start + m.index! + m[0].length - 2);
      trailers.push(dict);
      const stm = /\/XRefStm\s+(\d+)/.exec(dict);
      if (!stm) continue;
      // Hybrid file: readers differ on whether the table or the stream wins for a number both list.
      const hidden = new Map<number, Entry>();
      readXrefStream(text, Number(stm[1]), hidden);
      for (const [num, e] of hidden) {
        const shown = entries.get(num);
        if (shown && shown.type !== 0 && e.type !== 0 && !sameEntry(shown, e)) twice ??= num;
        if (!shown || shown.type === 0) entries.set(num, e);
      }
    }
  } else if (/^\d+\s+\d+\s+obj\b/.test(text.slice(at, at + 40))) {
    const stream = readXrefStream(text, at, entries);
    if (!stream.dict) return problem('ends with a startxref that points to no cross-reference section');
    trailers.push(stream.dict);
    twice = stream.twice;
  } else {
    return problem('ends with a startxref that points to no cross-reference section');
  }
  if (twice !== null) return problem(`has a cross-reference section that lists object ${twice} twice`);
  for (const dict of trailers) {
    const keys = duplicateKeys(dict);
    if (keys.length > 0)
      return problem(`has a trailer that names ${keys.map((k) => `/${k}`).join(', ')} twice`);
  }
  // Objects written but not listed are not judged here: our own B-LTA updates (DSS and document
  // timestamp revisions written by @libpdf/core) were read as such by a text scan; what such an
  // object changes is still compared object by object (revisions.ts).
  return { problem: null, entries };
}

const sameEntry = (a: Entry, b: Entry) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A classic xref section at `at`: its entries into `entries`. Returns an object number listed
 * twice with different entries (readers keep the first, some libraries the last), else null.
 */
function readTable(text: string, at: number, entries: Map<number, Entry>): number | null {
  const re = /(\d+)\s+(\d+)[ \t]*\r?\n/y;
  let twice: number | null = null;
  let pos = at + 4;
  while (/\s/.test(text[pos] ?? '')) pos++;
  for (;;) {
    re.lastIndex = pos;
    const head = re.exec(text);
    if (!head) return twice;
    const first = Number(head[1]);
    const count = Number(head[2]);
    pos = re.lastIndex;
    for (let i = 0; i < count; i++) {
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(text.slice(pos, pos + 20));
      if (!entry) return twice;
      const e: Entry = { type: entry[3] === 'n' ? 1 : 0, offset: Number(entry[1]), gen: Number(entry[2]) };
      const before = entries.get(first + i);
      if (before && !sameEntry(before, e)) twice ??= first + i;
      else entries.set(first + i, e);
      pos += 20;
    }
    while (/\s/.test(text[pos] ?? '')) pos++;
  }
}

/** The dictionary source starting at `at` (`<<`), nested dictionaries and strings skipped whole. */
function dictAt(text: string, at: number): string {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '(') i = skipString(text, i);
    else if (c === '<' && text[i + 1] === '<') {
      depth++;
      i++;
    } else if (c === '>' && text[i + 1] === '>') {
      depth--;
      i++;
      if (depth === 0) return text.slice(at, i + 1);
    }
  }
  return text.slice(at);
}

function skipString(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

/** Keys a dictionary (its source, `<< … >>`) names more than once at its own level. */
function duplicateKeys(dict: string): string[] {
  const tokens: string[] = [];
  let depth = 0;
  for (let i = 2; i < dict.length - 2; i++) {
    const c = dict[i]!;
    if (c === '(') {
      i = skipString(dict, i);
      if (depth === 0) tokens.push('()');
    } else if ((c === '<' && dict[i + 1] === '<') || c === '[') {
      if (depth === 0) tokens.push('{}');
      depth++;
      if (c === '<') i++;
    } else if ((c === '>' && dict[i + 1] === '>') || c === ']') {
      depth--;
      if (c === '>') i++;
    } else if (depth === 0 && c === '<') {
      const close = dict.indexOf('>', i);
      tokens.push('<>');
      i = close < 0 ? dict.length : close;
    } else if (depth === 0 && !/[\s%]/.test(c)) {
      const m = /^\/?[^\s/<>[\]()%]*/.exec(dict.slice(i))!;
      tokens.push(m[0]);
      i += Math.max(m[0].length, 1) - 1;
    }
  }
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (let i = 0; i < tokens.length; ) {
    const name = tokens[i]!;
    if (!name.startsWith('/')) {
      i++;
      continue;
    }
    const k = name.slice(1);
    if (seen.has(k)) twice.add(k);
    seen.add(k);
    const isRef =
      /^\d+$/.test(tokens[i + 1] ?? '') && /^\d+$/.test(tokens[i + 2] ?? '') && tokens[i + 3] === 'R';
    i += isRef ? 4 : 2;
  }
  return [...twice];
}

/** An xref stream object at `at`: its entries into `entries`, and a number it lists twice (differently). */
function readXrefStream(
  text: string,
  at: number,
  entries: Map<number, Entry>,
): { dict: string | null; twice: number | null } {
  const open = text.indexOf('<<', at);
  if (open < 0 || open > at + 40) return { dict: null, twice: null };
  const dict = dictAt(text, open);
  if (!/\/Type\s*\/XRef\b/.test(dict)) return { dict: null, twice: null };
  let twice: number | null = null;
  try {
    const w = (/\/W\s*\[([^\]]*)\]/.exec(dict)?.[1] ?? '').trim().split(/\s+/).map(Number);
    const size = Number(/\/Size\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const index = (/\/Index\s*\[([^\]]*)\]/.exec(dict)?.[1] ?? `0 ${size}`).trim().split(/\s+/).map(Number);
    const dataStart = /^\s*stream\r?\n/.exec(text.slice(open + dict.length, open + dict.length + 20));
    if (w.length !== 3 || !dataStart) return { dict, twice };
    const from = open + dict.length + dataStart[0].length;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    const raw = Buffer.from(
      text.slice(from, length ? from + Number(length[1]) : text.indexOf('endstream', from)),
      'latin1',
    );
    let data: Buffer = /\/Filter\s*\/FlateDecode/.test(dict) ? inflateSync(raw) : raw;
    const width = w[0]! + w[1]! + w[2]!;
    const predictor = Number(/\/Predictor\s+(\d+)/.exec(dict)?.[1] ?? 1);
    if (predictor >= 10) data = unpredict(data, Number(/\/Columns\s+(\d+)/.exec(dict)?.[1] ?? width));
    const field = (row: number, offset: number, size: number) => {
      let value = 0;
      for (let k = 0; k < size; k++) value = value * 256 + data[row * width + offset + k]!;
      return value;
    };
    let row = 0;
    for (let p = 0; p + 1 < index.length; p += 2) {
      for (let n = 0; n < index[p + 1]!; n++, row++) {
        if ((row + 1) * width > data.length) return { dict, twice };
        const type = w[0] === 0 ? 1 : field(row, 0, w[0]!);
        const num = index[p]! + n;
        const f2 = field(row, w[0]!, w[1]!);
        const f3 = w[2] === 0 ? 0 : field(row, w[0]! + w[1]!, w[2]!);
        const e: Entry =
          type === 2 ? { type: 2, stream: f2, index: f3 } : { type: type === 1 ? 1 : 0, offset: f2, gen: f3 };
        const before = entries.get(num);
        if (before && !sameEntry(before, e)) twice ??= num;
        else entries.set(num, e);
      }
    }
    return { dict, twice };
  } catch {
    return { dict, twice };
  }
}

/** PNG predictors (ISO 32000-2 §7.4.4.4): each row starts with its filter type. */
function unpredict(data: Buffer, columns: number): Buffer {
  const rows = Math.floor(data.length / (columns + 1));
  const out = Buffer.alloc(rows * columns);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (columns + 1)]!;
    for (let c = 0; c < columns; c++) {
      const x = data[r * (columns + 1) + 1 + c]!;
      const left = c > 0 ? out[r * columns + c - 1]! : 0;
      const up = r > 0 ? out[(r - 1) * columns + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1]! : 0;
      let value = x;
      if (type === 1) value = x + left;
      else if (type === 2) value = x + up;
      else if (type === 3) value = x + Math.floor((left + up) / 2);
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value = x + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      }
      out[r * columns + c] = value & 0xff;
    }
  }
  return out;
}

import { decodeStream } from './decode.ts';
import { Dict, Lexer, Name, ReadError, Ref, Stream, type Value } from './lexer.ts';

// The file as revisions (ISO 32000-2 §7.5.6): the chain of cross-reference sections from the last
// `startxref`, each revision ending at the `%%EOF` of the `startxref` that names its section. Objects
// are looked up through a revision's own table, so the same object number can mean different
// objects in different revisions. This reading is lenient only where the caller allows it (the
// revisions a signature covers); strict.ts judges the updates after a signature byte by byte.

type Entry =
  | { type: 0; gen: number }
  | { type: 1; offset: number; gen: number }
  | { type: 2; stream: number; index: number };

export interface Section {
  /** Where the pointer (`startxref`, `/Prev`) points: the keyword or object, or white space before it. */
  offset: number;
  /** Where the `xref` keyword or the xref stream's `N G obj` header stands. */
  at: number;
  kind: 'table' | 'stream';
  entries: Map<number, Entry>;
  trailer: Dict;
  /** Offset just after the section (its trailer dictionary, or the xref stream's `endobj`). */
  end: number;
  /** Entries of a hybrid file's /XRefStm stream (they fill gaps of the table). */
  hidden?: Map<number, Entry>;
  hiddenAt?: number;
  /** Why the section does not read the same everywhere (comments in a table, unusual entry lines…). */
  oddities: string[];
}

export interface Revision {
  /** 1-based; revision 1 is the file as first saved. */
  number: number;
  /** Offset just after its `%%EOF` and end-of-line. */
  end: number;
  /** Where its `startxref … %%EOF` statement starts. */
  statement: number;
  startxref: number;
  /** Its sections, newest first (more than one: linearized, or a suspicious update). */
  sections: Section[];
  /** Every entry in force at the end of this revision. */
  table: Map<number, Entry>;
  trailer: Dict;
}

export interface IndirectObject {
  num: number;
  gen: number;
  value: Value;
  /** Offset of its `N G obj` header (-1 inside an object stream). */
  start: number;
  end: number;
}

/** More cross-reference sections than this is a hostile file, not a document. */
export const MAX_SECTIONS = 1_000;

export class PdfFile {
  readonly text: string;
  readonly revisions: Revision[] = [];
  /** Why the chain of sections could not be read to its start, if so. */
  readonly problems: string[] = [];
  private readonly atOffset = new Map<number, IndirectObject | ReadError>();
  private readonly objStreams = new Map<string, IndirectObject[] | ReadError>();
  private readonly statements: { value: number; at: number; end: number }[] = [];

  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    const re = /startxref[\0\t\n\f\r ]+(\d+)[\0\t\n\f\r ]*%%EOF(\r\n|\r|\n)?/g;
    for (let m = re.exec(this.text); m; m = re.exec(this.text))
      this.statements.push({ value: Number(m[1]), at: m.index, end: m.index + m[0].length });
    this.readChain();
  }

  /** Offset of the last `startxref` statement, and whether it lies in the last 1,024 bytes of the file. */
  get lastStatement() {
    const last = this.statements.at(-1);
    return last ? { ...last, nearEnd: this.bytes.length - last.at <= 1024 } : null;
  }

  /**
   * The chain from the last `startxref`; when it cannot be read to its start, the chain of the
   * newest earlier statement that can, and a problem naming what could not be read (the bytes
   * after that revision are then an update nobody reads alike).
   */
  private readChain(): void {
    // Earlier statements are tried a few times at most: a file of thousands of broken updates
    // must not be read thousands of times.
    const oldest = Math.max(0, this.statements.length - 8);
    for (let i = this.statements.length - 1; i >= oldest; i--) {
      const problems: string[] = [];
      const chain = this.chainFrom(this.statements[i]!.value, problems);
      if (problems.length === 0 || i === oldest) {
        if (i < this.statements.length - 1 && problems.length === 0)
          this.problems.push(
            `the update after offset ${this.statements[i]!.end} cannot be read (${this.firstProblem})`,
          );
        this.problems.push(...problems);
        this.group(chain);
        return;
      }
      this.firstProblem ??= problems[0];
    }
    this.problems.push('the file has no startxref');
  }

  private firstProblem: string | undefined;

  private chainFrom(start: number, problems: string[]): Section[] {
    const chain: Section[] = [];
    const seen = new Set<number>();
    let offset: number | null = start;
    while (offset !== null) {
      if (seen.has(offset)) {
        problems.push(`the /Prev chain loops back to offset ${offset}`);
        break;
      }
      if (chain.length >= MAX_SECTIONS) {
        problems.push(`more than ${MAX_SECTIONS} cross-reference sections`);
        break;
      }
      seen.add(offset);
      try {
        const section = this.readSection(offset);
        chain.push(section);
        const prev = section.trailer.get('Prev');
        offset = typeof prev === 'number' && Number.isInteger(prev) && prev >= 0 ? prev : null;
      } catch (err) {
        problems.push(`the cross-reference section at ${offset} cannot be read (${(err as Error).message})`);
        break;
      }
    }
    return chain;
  }

  private group(chain: Section[]): void {
    // A section starts a revision when a `startxref` after it names it; one that none names (a
    // linearized file's main section, or a second section inside one update) belongs to the newer
    // revision whose chain reached it.
    const groups: { statement: { value: number; at: number; end: number } | null; sections: Section[] }[] =
      [];
    for (const section of chain) {
      const statement =
        this.statements.find((s) => s.value === section.offset && s.at > section.offset) ?? null;
      const open = groups.at(-1);
      if (statement === null && open) open.sections.push(section);
      else groups.push({ statement, sections: [section] });
    }
    groups.reverse();
    const table = new Map<number, Entry>();
    for (const g of groups) {
      // A linearized file's first-page section is named, its main section (no startxref) follows it.
      for (const s of [...g.sections].reverse()) {
        for (const [num, e] of s.hidden ?? []) table.set(num, e);
        for (const [num, e] of s.entries) table.set(num, e);
      }
      const statement = g.statement ?? this.statements.at(-1)!;
      this.revisions.push({
        number: this.revisions.length + 1,
        end: statement.end,
        statement: statement.at,
        startxref: statement.value,
        sections: g.sections,
        table: new Map(table),
        trailer: mergedTrailer(g.sections),
      });
    }
  }

  /** A cross-reference section (table and trailer, or stream) at `offset`. */
  readSection(offset: number): Section {
    const lex = new Lexer(this.bytes, offset);
    lex.skipSpace();
    // A pointer at the white space before the keyword is read alike by every reader; a comment is not white space.
    const gap = /^[\0\t\n\f\r ]*$/.test(this.text.slice(offset, lex.pos))
      ? []
      : ['a pointer to this section lands before a comment'];
    if (this.text.startsWith('xref', lex.pos)) {
      const table = this.readTable(lex.pos);
      return { ...table, offset, oddities: [...gap, ...table.oddities] };
    }
    const obj = this.objectAt(offset);
    if (obj instanceof ReadError) throw obj;
    if (!(obj.value instanceof Stream) || !isName(obj.value.dict.get('Type'), 'XRef'))
      throw new ReadError('startxref does not point to a cross-reference section', offset);
    const stream = readXrefStream(obj.value);
    return {
      offset,
      at: obj.start,
      kind: 'stream',
      entries: stream.entries,
      oddities: [...gap, ...stream.oddities],
      trailer: obj.value.dict,
      end: obj.end,
    };
  }

  private readTable(at: number): Section {
    const entries = new Map<number, Entry>();
    const oddities: string[] = [];
    const t = this.text;
    let pos = at + 4;
    const line = /[ \t]*(\r\n|\n|\r)/y;
    const head = /[\0\t\n\f\r ]*(\d+)[ \t]+(\d+)[ \t]*(\r\n|\n|\r)/y;
    const entry = /(\d{10}) (\d{5}) ([nf])( \r| \n|\r\n| \r\n|\n|\r)?/y;
    line.lastIndex = pos;
    if (!line.exec(t)) oddities.push('the xref keyword is not followed by an end of line');
    for (;;) {
      if (/^[\0\t\n\f\r ]*%/.test(t.slice(pos, pos + 64))) oddities.push('a comment inside the xref table');
      head.lastIndex = pos;
      const h = head.exec(t);
      if (!h) break;
      pos = head.lastIndex;
      const first = Number(h[1]);
      const count = Number(h[2]);
      for (let i = 0; i < count; i++) {
        while (t[pos] === '%') {
          oddities.push('a comment inside the xref table');
          while (pos < t.length && t[pos] !== '\n' && t[pos] !== '\r') pos++;
          while (t[pos] === '\n' || t[pos] === '\r') pos++;
        }
        entry.lastIndex = pos;
        const e = entry.exec(t);
        if (!e) throw new ReadError(`xref entry ${first + i} is not 10+5 digits and n or f`, pos);
        const width = e[0].length;
        if (width !== 20 && !(width === 19 && e[4] === '\n'))
          oddities.push(`xref entry ${first + i} is ${width} bytes long`);
        pos = entry.lastIndex;
        const num = first + i;
        const value: Entry =
          e[3] === 'n'
            ? { type: 1, offset: Number(e[1]), gen: Number(e[2]) }
            : { type: 0, gen: Number(e[2]) };
        if (entries.has(num)) {
          oddities.push(`the xref section lists object ${num} twice`);
          continue;
        }
        entries.set(num, value);
      }
    }
    const lex = new Lexer(this.bytes, pos);
    lex.expect('trailer');
    const trailer = lex.value();
    if (!(trailer instanceof Dict)) throw new ReadError('trailer is not a dictionary', pos);
    const section: Section = { offset: at, at, kind: 'table', entries, trailer, end: lex.pos, oddities };
    const stm = trailer.get('XRefStm');
    if (typeof stm === 'number') {
      const obj = this.objectAt(stm);
      if (obj instanceof ReadError || !(obj.value instanceof Stream))
        throw new ReadError('/XRefStm does not point to an xref stream', stm);
      const hidden = readXrefStream(obj.value);
      section.hidden = hidden.entries;
      section.hiddenAt = obj.start;
      section.oddities.push(...hidden.oddities.map((o) => `its /XRefStm: ${o}`));
      for (const [num, e] of hidden.entries) {
        const shown = entries.get(num);
        if (shown && shown.type !== 0 && e.type !== 0 && JSON.stringify(shown) !== JSON.stringify(e))
          section.oddities.push(`the table and its /XRefStm list object ${num} differently`);
      }
    }
    return section;
  }

  /** The indirect object whose header starts at `offset` (white space before it allowed), parsed once. */
  objectAt(offset: number): IndirectObject | ReadError {
    let found = this.atOffset.get(offset);
    if (!found) {
      try {
        found = this.parseObject(offset);
      } catch (err) {
        found = err instanceof ReadError ? err : new ReadError(String(err), offset);
      }
      this.atOffset.set(offset, found);
    }
    return found;
  }

  private parseObject(offset: number): IndirectObject {
    const lex = new Lexer(this.bytes, offset);
    lex.skipSpace();
    const start = lex.pos;
    const num = lex.int();
    const gen = lex.int();
    lex.expect('obj');
    let value = lex.value();
    const after = lex.pos;
    const t = lex.token();
    if (t?.k === 'kw' && t.v === 'stream' && value instanceof Dict) {
      value = this.readStreamData(value, lex);
    } else {
      lex.pos = after;
    }
    lex.expect('endobj');
    return { num, gen, value, start, end: lex.pos };
  }

  /** Stream data after the `stream` keyword: CRLF or LF, /Length bytes, end of line, `endstream`. */
  private readStreamData(dict: Dict, lex: Lexer): Stream {
    const b = this.bytes;
    let from = lex.pos;
    if (b[from] === 0x0d && b[from + 1] === 0x0a) from += 2;
    else if (b[from] === 0x0a) from += 1;
    else throw new ReadError('the stream keyword is not followed by CRLF or LF', from);
    let length = dict.get('Length');
    if (length instanceof Ref) length = this.lengthOf(length);
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || from + length > b.length)
      throw new ReadError('stream /Length is not a usable whole number', from);
    const endLex = new Lexer(b, from + length);
    endLex.skipSpace();
    if (!this.text.startsWith('endstream', endLex.pos))
      throw new ReadError('stream data does not end at its /Length with endstream', from + length);
    lex.pos = endLex.pos + 9;
    return new Stream(dict, b.subarray(from, from + length));
  }

  /** An indirect /Length: the newest object of that number written before use (no revision context here). */
  private lengthOf(ref: Ref): number | undefined {
    for (const rev of [...this.revisions].reverse()) {
      const e = rev.table.get(ref.num);
      if (e?.type === 1 && e.gen === ref.gen) {
        const obj = this.objectAt(e.offset);
        if (!(obj instanceof ReadError) && typeof obj.value === 'number') return obj.value;
      }
    }
    // During the chain read no revision exists yet: a plain header search, last one wins.
    const re = new RegExp(
      `(?:^|[\\0\\t\\n\\f\\r ])${ref.num}[\\0\\t\\n\\f\\r ]+${ref.gen}[\\0\\t\\n\\f\\r ]+obj\\b`,
      'g',
    );
    let last: number | undefined;
    for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
      const obj = this.objectAt(m.index);
      if (!(obj instanceof ReadError) && typeof obj.value === 'number') last = obj.value;
    }
    return last;
  }

  /** The objects of object stream `num` as written at `offset`. */
  objectStream(offset: number): IndirectObject[] | ReadError {
    const cacheKey = String(offset);
    let found = this.objStreams.get(cacheKey);
    if (found) return found;
    try {
      const obj = this.objectAt(offset);
      if (obj instanceof ReadError) throw obj;
      const s = obj.value;
      if (!(s instanceof Stream) || !isName(s.dict.get('Type'), 'ObjStm'))
        throw new ReadError('not an object stream', offset);
      const data = decodeStream(s);
      const n = s.dict.get('N');
      const first = s.dict.get('First');
      if (!data || typeof n !== 'number' || typeof first !== 'number' || n < 0 || n > 100_000)
        throw new ReadError('object stream cannot be decoded', offset);
      const head = new Lexer(data, 0, -1);
      const pairs: [number, number][] = [];
      for (let i = 0; i < n; i++) pairs.push([head.int(), head.int()]);
      found = pairs.map(([num, rel], i) => {
        const lex = new Lexer(data, first + rel, -1);
        const value = lex.value();
        if (i + 1 < pairs.length && lex.pos > first + pairs[i + 1]![1])
          throw new ReadError(`object ${num} runs into the next one`, offset);
        return { num, gen: 0, value, start: -1, end: -1 };
      });
    } catch (err) {
      found = err instanceof ReadError ? err : new ReadError(String(err), offset);
    }
    this.objStreams.set(cacheKey, found);
    return found;
  }

  /**
   * Object `num` as revision `rev` defines it: null when free, absent, unreadable, or when `gen`
   * is not the generation its entry lists (as poppler and pdf.js read it).
   */
  lookup(rev: Revision, num: number, gen: number): IndirectObject | null {
    const e = rev.table.get(num);
    if (!e || e.type === 0) return null;
    if (e.type === 1) {
      if (e.gen !== gen) return null;
      const obj = this.objectAt(e.offset);
      return obj instanceof ReadError || obj.num !== num || obj.gen !== gen ? null : obj;
    }
    if (gen !== 0) return null;
    const holder = rev.table.get(e.stream);
    if (holder?.type !== 1) return null;
    const objects = this.objectStream(holder.offset);
    if (objects instanceof ReadError) return null;
    const obj = objects[e.index];
    return obj && obj.num === num ? obj : null;
  }

  /** A value with references followed (at most `depth` hops: a reference chain is not a value). */
  resolve(rev: Revision, value: Value | undefined, depth = 32): Value | undefined {
    let v = value;
    for (let i = 0; v instanceof Ref && i < depth; i++) {
      const obj = this.lookup(rev, v.num, v.gen);
      v = obj ? obj.value : null;
    }
    return v instanceof Ref ? null : v;
  }
}

export const isName = (v: Value | undefined, name: string) => v instanceof Name && v.name === name;

/** A linearized revision's trailer: the named section's, with the main section's keys beneath. */
function mergedTrailer(sections: Section[]): Dict {
  const map = new Map<string, Value>();
  for (const s of [...sections].reverse()) for (const [k, v] of s.trailer.map) map.set(k, v);
  return new Dict(map);
}

/** An xref stream's entries (ISO 32000-2 §7.5.8), and what about it readers may not share. */
function readXrefStream(stream: Stream): { entries: Map<number, Entry>; oddities: string[] } {
  const d = stream.dict;
  const oddities: string[] = [];
  const entries = new Map<number, Entry>();
  const w = d.get('W');
  if (
    !Array.isArray(w) ||
    w.length !== 3 ||
    !w.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0)
  )
    throw new ReadError('xref stream /W is not three whole numbers', 0);
  const [w0, w1, w2] = w as number[];
  if (w0! > 1 || w1! < 1 || w1! > 4 || w2! > 2)
    oddities.push(`xref stream /W [${w.join(' ')}] is outside [0-1 1-4 0-2]`);
  const filter = d.get('Filter');
  if (filter !== undefined && !isName(filter, 'FlateDecode'))
    oddities.push('xref stream /Filter is not the name /FlateDecode');
  const size = d.get('Size');
  if (typeof size !== 'number') throw new ReadError('xref stream has no /Size', 0);
  const index = d.get('Index') ?? [0, size];
  if (!Array.isArray(index) || index.length % 2 !== 0 || !index.every((x) => typeof x === 'number'))
    throw new ReadError('xref stream /Index is not pairs of numbers', 0);
  const data = decodeStream(stream);
  if (!data) throw new ReadError('xref stream cannot be decoded', 0);
  const width = w0! + w1! + w2!;
  const field = (row: number, offset: number, n: number) => {
    let value = 0;
    for (let k = 0; k < n; k++) value = value * 256 + data[row * width + offset + k]!;
    return value;
  };
  let row = 0;
  for (let p = 0; p < index.length; p += 2) {
    const first = index[p] as number;
    const count = index[p + 1] as number;
    for (let n = 0; n < count; n++, row++) {
      if ((row + 1) * width > data.length) throw new ReadError('xref stream is shorter than its /Index', 0);
      const type = w0 === 0 ? 1 : field(row, 0, w0!);
      const f2 = field(row, w0!, w1!);
      const f3 = w2 === 0 ? 0 : field(row, w0! + w1!, w2!);
      const e: Entry =
        type === 2
          ? { type: 2, stream: f2, index: f3 }
          : type === 1
            ? { type: 1, offset: f2, gen: f3 }
            : { type: 0, gen: f3 };
      if (type > 2) oddities.push(`xref stream entry ${first + n} has type ${type}`);
      if (entries.has(first + n)) {
        oddities.push(`the xref stream lists object ${first + n} twice`);
        continue;
      }
      entries.set(first + n, e);
    }
  }
  if (row * width !== data.length) oddities.push('xref stream data is longer than its /Index');
  return { entries, oddities };
}

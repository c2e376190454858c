// The strict reader's objects and tokens (ISO 32000-2 §7.2, §7.3). One reading of the bytes that
// every later step shares: each value remembers nothing but what it is, except strings, which
// keep where they stand in the file (a signature's /Contents must be the exact gap of its
// /ByteRange). Anything the syntax does not allow throws a ReadError with the offset; the caller
// decides whether that is tolerable (the signed revision) or a revision readers may read
// differently (an update after a signature).

export class ReadError extends Error {
  readonly at: number;
  constructor(message: string, at: number) {
    super(`${message} at byte ${at}`);
    this.at = at;
  }
}

export class Name {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** A real number written with a decimal point: 2.0 is not the integer 2 (an annotation flag, say). */
export class Real {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

export class Ref {
  readonly num: number;
  readonly gen: number;
  constructor(num: number, gen: number) {
    this.num = num;
    this.gen = gen;
  }
  get key(): string {
    return `${this.num} ${this.gen}`;
  }
}

export class Str {
  readonly bytes: Uint8Array;
  readonly hex: boolean;
  /** Offsets of the string token in the file (`<` or `(` to just past `>` or `)`); -1 inside an object stream. */
  readonly start: number;
  readonly end: number;
  constructor(bytes: Uint8Array, hex: boolean, start: number, end: number) {
    this.bytes = bytes;
    this.hex = hex;
    this.start = start;
    this.end = end;
  }
  text(): string {
    const b = this.bytes;
    if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder().decode(b.subarray(3));
    return Buffer.from(b).toString('latin1');
  }
}

export class Dict {
  readonly map: Map<string, Value>;
  constructor(map: Map<string, Value>) {
    this.map = map;
  }
  get(key: string): Value | undefined {
    return this.map.get(key);
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
}

export class Stream {
  readonly dict: Dict;
  /** The raw (still encoded) data. */
  readonly raw: Uint8Array;
  constructor(dict: Dict, raw: Uint8Array) {
    this.dict = dict;
    this.raw = raw;
  }
}

export type Value = null | boolean | number | Real | Name | Str | Ref | Value[] | Dict | Stream;

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (c: number | undefined) => c !== undefined && !WHITE.has(c) && !DELIM.has(c);

/** How deep arrays and dictionaries may nest; deeper is refused, never a stack overflow. */
const MAX_DEPTH = 64;

type Token =
  | { k: 'num'; v: number; int: boolean }
  | { k: 'name'; v: string }
  | { k: 'str'; v: Str }
  | { k: 'kw'; v: string }
  | { k: 'open'; v: '<<' | '[' }
  | { k: 'close'; v: '>>' | ']' };

/** A cursor over the bytes; `pos` only moves forward through `skipSpace`, `token` and `expect`. */
export class Lexer {
  pos: number;
  readonly buf: Uint8Array;
  /** File offset of buf[0] (object streams: -1, no positions). */
  readonly base: number;
  constructor(buf: Uint8Array, pos = 0, base = 0) {
    this.buf = buf;
    this.pos = pos;
    this.base = base;
  }

  skipSpace(): void {
    const b = this.buf;
    for (;;) {
      while (this.pos < b.length && WHITE.has(b[this.pos]!)) this.pos++;
      if (b[this.pos] !== 0x25) return;
      while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
    }
  }

  /** The next token, or null at the end of the bytes. */
  token(): Token | null {
    this.skipSpace();
    const b = this.buf;
    const at = this.pos;
    const c = b[at];
    if (c === undefined) return null;
    if (c === 0x2f) {
      this.pos++;
      let name = '';
      while (isRegular(b[this.pos])) {
        const ch = b[this.pos]!;
        if (ch === 0x23) {
          const hex = Buffer.from(b.subarray(this.pos + 1, this.pos + 3)).toString('latin1');
          if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new ReadError('bad #-escape in a name', at);
          name += String.fromCharCode(Number.parseInt(hex, 16));
          this.pos += 3;
        } else {
          name += String.fromCharCode(ch);
          this.pos++;
        }
      }
      return { k: 'name', v: name };
    }
    if (c === 0x28) return { k: 'str', v: this.literal() };
    if (c === 0x3c) {
      if (b[at + 1] === 0x3c) {
        this.pos += 2;
        return { k: 'open', v: '<<' };
      }
      return { k: 'str', v: this.hexString() };
    }
    if (c === 0x3e) {
      if (b[at + 1] !== 0x3e) throw new ReadError('lone >', at);
      this.pos += 2;
      return { k: 'close', v: '>>' };
    }
    if (c === 0x5b || c === 0x5d) {
      this.pos++;
      return c === 0x5b ? { k: 'open', v: '[' } : { k: 'close', v: ']' };
    }
    if (!isRegular(c))
      throw new ReadError(`unexpected character ${JSON.stringify(String.fromCharCode(c))}`, at);
    while (isRegular(b[this.pos])) this.pos++;
    const word = Buffer.from(b.subarray(at, this.pos)).toString('latin1');
    if (/^[+-]?\d+$/.test(word)) return { k: 'num', v: Number(word), int: true };
    if (/^[+-]?(\d+\.\d*|\.\d+)$/.test(word)) return { k: 'num', v: Number(word), int: false };
    if (/^[A-Za-z_'"]+$/.test(word)) return { k: 'kw', v: word };
    throw new ReadError(`unreadable token ${JSON.stringify(word.slice(0, 20))}`, at);
  }

  private literal(): Str {
    const b = this.buf;
    const start = this.pos;
    const out: number[] = [];
    let depth = 0;
    for (let i = start; i < b.length; i++) {
      const c = b[i]!;
      if (c === 0x5c) {
        const n = b[++i];
        if (n === undefined) break;
        const esc: Record<number, number> = {
          110: 10,
          114: 13,
          116: 9,
          98: 8,
          102: 12,
          40: 40,
          41: 41,
          92: 92,
        };
        if (esc[n] !== undefined) out.push(esc[n]!);
        else if (n >= 0x30 && n <= 0x37) {
          let v = n - 0x30;
          for (let k = 0; k < 2 && b[i + 1]! >= 0x30 && b[i + 1]! <= 0x37; k++) v = v * 8 + (b[++i]! - 0x30);
          out.push(v & 0xff);
        } else if (n === 0x0d) {
          if (b[i + 1] === 0x0a) i++;
        } else if (n !== 0x0a) out.push(n);
        continue;
      }
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) {
        this.pos = i + 1;
        return new Str(Uint8Array.from(out.slice(1)), false, this.offset(start), this.offset(i + 1));
      }
      out.push(c);
    }
    throw new ReadError('unterminated string', start);
  }

  private hexString(): Str {
    const b = this.buf;
    const start = this.pos;
    const end = b.indexOf(0x3e, start);
    if (end < 0) throw new ReadError('unterminated hex string', start);
    const text = Buffer.from(b.subarray(start + 1, end))
      .toString('latin1')
      .replace(/[\0\t\n\f\r ]+/g, '');
    if (!/^[0-9A-Fa-f]*$/.test(text)) throw new ReadError('bad hex string', start);
    this.pos = end + 1;
    const bytes = Buffer.from(text.length % 2 ? `${text}0` : text, 'hex');
    return new Str(new Uint8Array(bytes), true, this.offset(start), this.offset(end + 1));
  }

  private offset(i: number): number {
    return this.base < 0 ? -1 : this.base + i;
  }

  /** Reads one value (a reference `N G R` included). */
  value(depth = 0): Value {
    const at = this.pos;
    const t = this.token();
    if (!t) throw new ReadError('unexpected end', at);
    return this.valueFrom(t, at, depth);
  }

  private valueFrom(t: Token, at: number, depth: number): Value {
    switch (t.k) {
      case 'name':
        return new Name(t.v);
      case 'str':
        return t.v;
      case 'num': {
        if (!t.int) return new Real(t.v);
        if (t.v < 0) return t.v;
        // `N G R`: look ahead two tokens, go back if it is not a reference.
        const save = this.pos;
        const g = this.peekToken();
        if (g?.k === 'num' && g.int && g.v >= 0) {
          const r = this.peekToken();
          if (r?.k === 'kw' && r.v === 'R') return new Ref(t.v, g.v);
        }
        this.pos = save;
        return t.v;
      }
      case 'kw':
        if (t.v === 'true') return true;
        if (t.v === 'false') return false;
        if (t.v === 'null') return null;
        throw new ReadError(`unexpected keyword ${t.v}`, at);
      case 'open': {
        if (depth >= MAX_DEPTH) throw new ReadError('nesting too deep', at);
        if (t.v === '[') {
          const items: Value[] = [];
          for (;;) {
            const p = this.pos;
            const n = this.token();
            if (!n) throw new ReadError('unterminated array', at);
            if (n.k === 'close' && n.v === ']') return items;
            items.push(this.valueFrom(n, p, depth + 1));
          }
        }
        const map = new Map<string, Value>();
        for (;;) {
          const p = this.pos;
          const k = this.token();
          if (!k) throw new ReadError('unterminated dictionary', at);
          if (k.k === 'close' && k.v === '>>') return new Dict(map);
          if (k.k !== 'name') throw new ReadError('dictionary key is not a name', p);
          if (map.has(k.v)) throw new ReadError(`dictionary names /${k.v} twice`, p);
          const vAt = this.pos;
          const v = this.token();
          if (!v || v.k === 'close') throw new ReadError(`dictionary key /${k.v} has no value`, vAt);
          map.set(k.v, this.valueFrom(v, vAt, depth + 1));
        }
      }
      case 'close':
        throw new ReadError(`unexpected ${t.v}`, at);
    }
  }

  private peekToken(): Token | null {
    try {
      return this.token();
    } catch {
      return null;
    }
  }

  /** The keyword `word` must come next. */
  expect(word: string): void {
    const at = this.pos;
    const t = this.token();
    if (t?.k !== 'kw' || t.v !== word) throw new ReadError(`expected ${word}`, at);
  }

  /** A non-negative integer must come next. */
  int(): number {
    const at = this.pos;
    const t = this.token();
    if (t?.k !== 'num' || !t.int || t.v < 0) throw new ReadError('expected a whole number', at);
    return t.v;
  }
}

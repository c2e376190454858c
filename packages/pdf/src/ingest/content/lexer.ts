/**
 * A small, defensive tokenizer for PDF content streams and CMaps (ISO 32000-1 §7.2, §7.8.2).
 *
 * It yields one operation at a time (operands plus operator) with the byte range it covers, so a
 * caller can splice a rewritten operation back into the original bytes. It never throws on bad
 * input and always advances: unknown bytes are skipped, unbalanced delimiters are closed at the end.
 */

export type CsValue =
  | { t: 'num'; v: number }
  | { t: 'str'; v: Uint8Array }
  | { t: 'name'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' }
  | { t: 'arr'; v: CsValue[] }
  | { t: 'dict'; v: Map<string, CsValue> };

export interface CsOp {
  op: string;
  args: CsValue[];
  /** Offset of the first operand (or of the operator when there is none). */
  start: number;
  /** Offset just past the operator (for `BI`, just past the closing `EI`). */
  end: number;
}

const WS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WS[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIM[c.charCodeAt(0)] = 1;

const isRegular = (c: number) => WS[c] === 0 && DELIM[c] === 0;

/** Deepest array/dictionary nesting accepted; deeper input is flattened rather than recursed into. */
const MAX_DEPTH = 32;
/** Operands kept before an operator; a runaway operand list is truncated. */
const MAX_OPERANDS = 4096;

type Tok =
  | CsValue
  | { t: 'op'; v: string }
  | { t: 'open'; v: '[' | '<<' }
  | { t: 'close'; v: ']' | '>>' }
  | { t: 'eof' };

class ContentLexer {
  pos = 0;
  /** Start offset of the last token returned by `next()`. */
  tokStart = 0;

  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  private skipSpaceAndComments(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WS[c]) {
        this.pos++;
      } else if (c === 0x25 /* % */) {
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else {
        return;
      }
    }
  }

  next(): Tok {
    const b = this.bytes;
    for (;;) {
      this.skipSpaceAndComments();
      this.tokStart = this.pos;
      if (this.pos >= b.length) return { t: 'eof' };
      const c = b[this.pos]!;
      // PostScript procedure braces (Type 4 functions) and stray parens carry no meaning here.
      if (c === 0x7b || c === 0x7d || c === 0x29) {
        this.pos++;
        continue;
      }
      return this.readToken(c);
    }
  }

  private readToken(c: number): Tok {
    const b = this.bytes;
    switch (c) {
      case 0x28 /* ( */:
        return { t: 'str', v: this.readLiteralString() };
      case 0x3c /* < */:
        if (b[this.pos + 1] === 0x3c) {
          this.pos += 2;
          return { t: 'open', v: '<<' };
        }
        return { t: 'str', v: this.readHexString() };
      case 0x3e /* > */:
        this.pos += b[this.pos + 1] === 0x3e ? 2 : 1;
        return { t: 'close', v: '>>' };
      case 0x5b /* [ */:
        this.pos++;
        return { t: 'open', v: '[' };
      case 0x5d /* ] */:
        this.pos++;
        return { t: 'close', v: ']' };
      case 0x2f /* / */:
        return { t: 'name', v: this.readName() };
      default:
        return this.readRegular();
    }
  }

  private readRegular(): Tok {
    const b = this.bytes;
    const start = this.pos;
    while (this.pos < b.length && isRegular(b[this.pos]!)) this.pos++;
    let s = '';
    for (let i = start; i < this.pos; i++) s += String.fromCharCode(b[i]!);
    const first = s.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || first === 0x2b || first === 0x2d || first === 0x2e) {
      const n = parseLenientNumber(s);
      if (n !== null) return { t: 'num', v: n };
    }
    if (s === 'true') return { t: 'bool', v: true };
    if (s === 'false') return { t: 'bool', v: false };
    if (s === 'null') return { t: 'null' };
    return { t: 'op', v: s };
  }

  private readName(): string {
    const b = this.bytes;
    this.pos++; // '/'
    let s = '';
    while (this.pos < b.length && isRegular(b[this.pos]!)) {
      const c = b[this.pos]!;
      if (c === 0x23 /* # */ && this.pos + 2 < b.length) {
        const h = parseInt(String.fromCharCode(b[this.pos + 1]!, b[this.pos + 2]!), 16);
        if (!Number.isNaN(h)) {
          s += String.fromCharCode(h);
          this.pos += 3;
          continue;
        }
      }
      s += String.fromCharCode(c);
      this.pos++;
    }
    return s;
  }

  private readLiteralString(): Uint8Array {
    const b = this.bytes;
    this.pos++; // '('
    const out: number[] = [];
    let depth = 1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x28) {
        depth++;
        out.push(c);
      } else if (c === 0x29) {
        if (--depth === 0) break;
        out.push(c);
      } else if (c === 0x5c /* \ */) {
        if (this.pos >= b.length) break;
        const e = b[this.pos++]!;
        switch (e) {
          case 0x6e:
            out.push(0x0a);
            break;
          case 0x72:
            out.push(0x0d);
            break;
          case 0x74:
            out.push(0x09);
            break;
          case 0x62:
            out.push(0x08);
            break;
          case 0x66:
            out.push(0x0c);
            break;
          case 0x0d:
            if (b[this.pos] === 0x0a) this.pos++;
            break;
          case 0x0a:
            break;
          default:
            if (e >= 0x30 && e <= 0x37) {
              let v = e - 0x30;
              for (let k = 0; k < 2 && this.pos < b.length; k++) {
                const d = b[this.pos]!;
                if (d < 0x30 || d > 0x37) break;
                v = v * 8 + (d - 0x30);
                this.pos++;
              }
              out.push(v & 0xff);
            } else {
              out.push(e);
            }
        }
      } else if (c === 0x0d) {
        if (b[this.pos] === 0x0a) this.pos++;
        out.push(0x0a);
      } else {
        out.push(c);
      }
    }
    return Uint8Array.from(out);
  }

  private readHexString(): Uint8Array {
    const b = this.bytes;
    this.pos++; // '<'
    const out: number[] = [];
    let hi = -1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x3e) break;
      const v = hexValue(c);
      if (v < 0) continue;
      if (hi < 0) hi = v;
      else {
        out.push((hi << 4) | v);
        hi = -1;
      }
    }
    if (hi >= 0) out.push(hi << 4);
    return Uint8Array.from(out);
  }

  /**
   * Skips inline image data after the `ID` keyword. Uses `/L` (or `/Length`) when the image
   * dictionary gives it, else looks for `EI` delimited by white space, as PDF readers do.
   */
  skipInlineImageData(length: number | undefined): void {
    const b = this.bytes;
    if (WS[b[this.pos] ?? 0]) this.pos++;
    if (length !== undefined && length >= 0 && this.pos + length <= b.length) {
      const save = this.pos;
      this.pos += length;
      this.skipSpaceAndComments();
      if (b[this.pos] === 0x45 && b[this.pos + 1] === 0x49) {
        this.pos += 2;
        return;
      }
      this.pos = save;
    }
    for (let i = this.pos; i < b.length - 1; i++) {
      if (
        b[i] === 0x45 &&
        b[i + 1] === 0x49 &&
        (i === 0 || WS[b[i - 1]!]) &&
        (i + 2 >= b.length || WS[b[i + 2]!] || DELIM[b[i + 2]!])
      ) {
        this.pos = i + 2;
        return;
      }
    }
    this.pos = b.length;
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Numbers as PDF readers parse them: `--5`, `5.`, `.5`, `1.2.3` (→ 1.2) are all tolerated. */
function parseLenientNumber(s: string): number | null {
  const m = /^[+-]*(\d*\.?\d*)/.exec(s);
  if (!m || m[1] === '' || m[1] === '.') return null;
  const neg = (s.match(/^[+-]*/)?.[0] ?? '').includes('-');
  const v = Number.parseFloat(m[1]!);
  if (!Number.isFinite(v)) return null;
  return neg ? -v : v;
}

/** Reads one complete value starting from an already-read token (arrays and dictionaries recurse). */
function readValue(lx: ContentLexer, tok: Tok, depth: number): CsValue | null {
  if (tok.t === 'open') {
    if (tok.v === '[') {
      const items: CsValue[] = [];
      for (;;) {
        const t = lx.next();
        if (t.t === 'eof' || (t.t === 'close' && t.v === ']')) break;
        if (t.t === 'close') continue;
        if (t.t === 'op') continue; // operators inside arrays are invalid; drop them
        const v = depth < MAX_DEPTH ? readValue(lx, t, depth + 1) : null;
        if (v) items.push(v);
      }
      return { t: 'arr', v: items };
    }
    const map = new Map<string, CsValue>();
    let key: string | null = null;
    for (;;) {
      const t = lx.next();
      if (t.t === 'eof' || (t.t === 'close' && t.v === '>>')) break;
      if (t.t === 'close' || t.t === 'op') continue;
      const v = depth < MAX_DEPTH ? readValue(lx, t, depth + 1) : null;
      if (!v) continue;
      if (key === null) {
        if (v.t === 'name') key = v.v;
      } else {
        map.set(key, v);
        key = null;
      }
    }
    return { t: 'dict', v: map };
  }
  if (tok.t === 'close' || tok.t === 'op' || tok.t === 'eof') return null;
  return tok;
}

/**
 * Iterates over the operations of a content stream. Inline images (`BI … ID … EI`) come out as
 * a single `BI` operation whose only argument is the image dictionary.
 */
export function* parseOperations(bytes: Uint8Array): Generator<CsOp> {
  const lx = new ContentLexer(bytes);
  let args: CsValue[] = [];
  let start = -1;
  for (;;) {
    const tok = lx.next();
    if (tok.t === 'eof') return;
    if (start < 0) start = lx.tokStart;
    if (tok.t === 'op') {
      if (tok.v === 'BI') {
        const dict = new Map<string, CsValue>();
        let key: string | null = null;
        for (;;) {
          const t = lx.next();
          if (t.t === 'eof') break;
          if (t.t === 'op' && t.v === 'ID') break;
          const v = readValue(lx, t, 1);
          if (!v) continue;
          if (key === null) {
            if (v.t === 'name') key = v.v;
          } else {
            dict.set(key, v);
            key = null;
          }
        }
        const len = dict.get('L') ?? dict.get('Length');
        lx.skipInlineImageData(len?.t === 'num' ? len.v : undefined);
        yield { op: 'BI', args: [{ t: 'dict', v: dict }], start, end: lx.pos };
      } else {
        yield { op: tok.v, args, start, end: lx.pos };
      }
      args = [];
      start = -1;
      continue;
    }
    const v = readValue(lx, tok, 1);
    if (v && args.length < MAX_OPERANDS) args.push(v);
  }
}

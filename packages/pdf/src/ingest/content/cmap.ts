/**
 * CMap parsing for the two jobs text-tag detection needs (ISO 32000-1 §9.7.5, §9.10.3):
 * splitting a shown string into character codes (codespace ranges), mapping codes to CIDs
 * (embedded encoding CMaps) and mapping codes to Unicode (ToUnicode CMaps).
 * Ranges are kept as ranges and resolved on lookup, so `<0000> <FFFF>` costs nothing.
 */
import { glyphNameToUnicode } from './encodings.ts';
import { type CsValue, parseOperations } from './lexer.ts';

interface Codespace {
  lo: Uint8Array;
  hi: Uint8Array;
}

interface UniRange {
  lo: number;
  hi: number;
  /** Either a base string whose last UTF-16 unit is incremented, or one string per code. */
  base?: number[];
  list?: string[];
}

interface CidRange {
  lo: number;
  hi: number;
  cid: number;
}

export class CMap {
  readonly codespaces: Codespace[] = [];
  private readonly uniSingle = new Map<number, string>();
  private readonly uniRanges: UniRange[] = [];
  private readonly cidSingle = new Map<number, number>();
  private readonly cidRanges: CidRange[] = [];
  wmode = 0;
  useCMap: string | undefined;

  get hasCodespaces(): boolean {
    return this.codespaces.length > 0;
  }

  get hasCidMappings(): boolean {
    return this.cidSingle.size > 0 || this.cidRanges.length > 0;
  }

  /**
   * Reads the next character code at `pos`. Tries 1..4-byte codes against the codespace ranges
   * (byte-wise, as the spec defines them); falls back to the shortest codespace length.
   */
  readCode(bytes: Uint8Array, pos: number, fallbackLength: number): { code: number; len: number } {
    if (this.codespaces.length > 0) {
      for (let n = 1; n <= 4 && pos + n <= bytes.length; n++) {
        for (const cs of this.codespaces) {
          if (cs.lo.length !== n) continue;
          let ok = true;
          for (let i = 0; i < n; i++) {
            const b = bytes[pos + i]!;
            if (b < cs.lo[i]! || b > cs.hi[i]!) {
              ok = false;
              break;
            }
          }
          if (ok) return { code: bytesToInt(bytes, pos, n), len: n };
        }
      }
      fallbackLength = Math.min(...this.codespaces.map((c) => c.lo.length));
    }
    const len = Math.max(1, Math.min(fallbackLength, bytes.length - pos));
    return { code: bytesToInt(bytes, pos, len), len };
  }

  toUnicode(code: number): string | undefined {
    const s = this.uniSingle.get(code);
    if (s !== undefined) return s;
    for (const r of this.uniRanges) {
      if (code < r.lo || code > r.hi) continue;
      if (r.list) return r.list[code - r.lo];
      if (r.base && r.base.length > 0) {
        const units = r.base.slice();
        units[units.length - 1] = units[units.length - 1]! + (code - r.lo);
        return String.fromCharCode(...units);
      }
    }
    return undefined;
  }

  toCid(code: number): number | undefined {
    const s = this.cidSingle.get(code);
    if (s !== undefined) return s;
    for (const r of this.cidRanges) if (code >= r.lo && code <= r.hi) return r.cid + (code - r.lo);
    return undefined;
  }

  static parse(bytes: Uint8Array): CMap {
    const cmap = new CMap();
    for (const op of parseOperations(bytes)) {
      const a = op.args;
      switch (op.op) {
        case 'endcodespacerange':
          for (let i = 0; i + 1 < a.length; i += 2) {
            const lo = a[i]!;
            const hi = a[i + 1]!;
            if (
              lo.t === 'str' &&
              hi.t === 'str' &&
              lo.v.length === hi.v.length &&
              lo.v.length > 0 &&
              lo.v.length <= 4
            )
              cmap.codespaces.push({ lo: lo.v, hi: hi.v });
          }
          break;
        case 'endbfchar':
          for (let i = 0; i + 1 < a.length; i += 2) {
            const src = a[i]!;
            const dst = dstToString(a[i + 1]!);
            if (src.t === 'str' && src.v.length <= 4 && dst !== undefined)
              cmap.uniSingle.set(bytesToInt(src.v), dst);
          }
          break;
        case 'endbfrange':
          for (let i = 0; i + 2 < a.length; i += 3) {
            const lo = a[i]!;
            const hi = a[i + 1]!;
            const dst = a[i + 2]!;
            if (lo.t !== 'str' || hi.t !== 'str' || lo.v.length > 4) continue;
            const l = bytesToInt(lo.v);
            const h = bytesToInt(hi.v);
            if (h < l) continue;
            if (dst.t === 'arr') {
              cmap.uniRanges.push({ lo: l, hi: h, list: dst.v.map((d) => dstToString(d) ?? '') });
            } else if (dst.t === 'str') {
              cmap.uniRanges.push({ lo: l, hi: h, base: utf16Units(dst.v) });
            }
          }
          break;
        case 'endcidchar':
          for (let i = 0; i + 1 < a.length; i += 2) {
            const src = a[i]!;
            const cid = a[i + 1]!;
            if (src.t === 'str' && src.v.length <= 4 && cid.t === 'num')
              cmap.cidSingle.set(bytesToInt(src.v), cid.v);
          }
          break;
        case 'endcidrange':
          for (let i = 0; i + 2 < a.length; i += 3) {
            const lo = a[i]!;
            const hi = a[i + 1]!;
            const cid = a[i + 2]!;
            if (lo.t !== 'str' || hi.t !== 'str' || cid.t !== 'num' || lo.v.length > 4) continue;
            const l = bytesToInt(lo.v);
            const h = bytesToInt(hi.v);
            if (h >= l) cmap.cidRanges.push({ lo: l, hi: h, cid: cid.v });
          }
          break;
        case 'def': {
          const [k, v] = a;
          if (k?.t === 'name' && k.v === 'WMode' && v?.t === 'num') cmap.wmode = v.v;
          break;
        }
        case 'usecmap': {
          const n = a[0];
          if (n?.t === 'name') cmap.useCMap = n.v;
          break;
        }
      }
    }
    return cmap;
  }
}

function bytesToInt(b: Uint8Array, from = 0, len = b.length): number {
  let v = 0;
  for (let i = from; i < from + len; i++) v = v * 256 + b[i]!;
  return v;
}

function utf16Units(b: Uint8Array): number[] {
  if (b.length % 2 === 1) return Array.from(b);
  const units: number[] = [];
  for (let i = 0; i + 1 < b.length; i += 2) units.push((b[i]! << 8) | b[i + 1]!);
  return units;
}

function dstToString(v: CsValue): string | undefined {
  if (v.t === 'str') return String.fromCharCode(...utf16Units(v.v));
  if (v.t === 'name') return glyphNameToUnicode(v.v);
  return undefined;
}

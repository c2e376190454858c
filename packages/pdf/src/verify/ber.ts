// A strict, allocation-light BER reader for the CMS in a signature's /Contents. asn1js builds an
// object per node and refuses more than 10,000 nodes, which one embedded CRL of a public CA
// exceeds; this reader only locates elements (offsets into the caller's bytes), so a CRL of
// 100,000 entries is one element whose inside is never walked when its length is definite.
// Lenient about form (indefinite lengths, non-minimal lengths, as BER allows), strict about
// structure: every length must fit its parent exactly, an end-of-contents only closes an
// indefinite length, and nothing is silently cut or recovered.

export interface Element {
  /** Tag class: 0 universal, 1 application, 2 context-specific, 3 private. */
  cls: number;
  constructed: boolean;
  /** Tag number. */
  tag: number;
  /** Offset of the identifier octet. */
  start: number;
  /** Offset of the first content octet. */
  contentStart: number;
  /** Offset just after the content (before the end-of-contents octets of an indefinite length). */
  contentEnd: number;
  /** Offset just after the whole element. */
  end: number;
  indefinite: boolean;
}

const MAX_DEPTH = 64;

export class BerError extends Error {}

/** The element starting at `at`, which must end by `limit`. */
export function readElement(bytes: Uint8Array, at: number, limit = bytes.length, depth = 0): Element {
  if (depth > MAX_DEPTH) throw new BerError('ASN.1 nesting is too deep');
  let i = at;
  const byte = (): number => {
    if (i >= limit) throw new BerError('ASN.1 element runs past its end');
    return bytes[i++]!;
  };
  const id = byte();
  const cls = id >> 6;
  const constructed = (id & 0x20) !== 0;
  let tag = id & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    for (let b = byte(), n = 0; ; b = byte(), n++) {
      if (n > 3) throw new BerError('ASN.1 tag number is too large');
      tag = tag * 128 + (b & 0x7f);
      if (!(b & 0x80)) break;
    }
  }
  const first = byte();
  if (first === 0x80) {
    if (!constructed) throw new BerError('Indefinite length on a primitive ASN.1 element');
    const contentStart = i;
    let child = contentStart;
    for (;;) {
      if (child + 2 <= limit && bytes[child] === 0 && bytes[child + 1] === 0) {
        return {
          cls,
          constructed,
          tag,
          start: at,
          contentStart,
          contentEnd: child,
          end: child + 2,
          indefinite: true,
        };
      }
      child = readElement(bytes, child, limit, depth + 1).end;
    }
  }
  let length = first;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4 || count === 0x7f) throw new BerError('ASN.1 length is too large');
    length = 0;
    for (let k = 0; k < count; k++) length = length * 256 + byte();
  }
  const contentStart = i;
  const end = contentStart + length;
  if (end > limit) throw new BerError('ASN.1 element runs past its end');
  if (cls === 0 && tag === 0) throw new BerError('Unexpected end-of-contents in ASN.1');
  return { cls, constructed, tag, start: at, contentStart, contentEnd: end, end, indefinite: false };
}

/** The elements inside a constructed element, which must fill it exactly. */
export function children(bytes: Uint8Array, parent: Element, depth = 0): Element[] {
  if (!parent.constructed) throw new BerError('Expected a constructed ASN.1 element');
  const out: Element[] = [];
  for (let at = parent.contentStart; at < parent.contentEnd; ) {
    const child = readElement(bytes, at, parent.contentEnd, depth + 1);
    out.push(child);
    at = child.end;
  }
  return out;
}

/** Checks an element's tag: universal SEQUENCE is expect(e, 0, 16), [0] is expect(e, 2, 0). */
export function expectTag(e: Element | undefined, cls: number, tag: number, what: string): Element {
  if (!e || e.cls !== cls || e.tag !== tag) throw new BerError(`${what} is missing or malformed`);
  return e;
}

export const SEQUENCE = 16;
export const SET = 17;

/** The content octets of a primitive element, or the joined segments of a constructed string. */
export function contentOf(bytes: Uint8Array, e: Element, depth = 0): Uint8Array {
  if (!e.constructed) return bytes.subarray(e.contentStart, e.contentEnd);
  const parts = children(bytes, e, depth).map((c) => {
    if (c.cls !== 0 || c.tag !== e.tag) throw new BerError('Constructed string holds another type');
    return contentOf(bytes, c, depth + 1);
  });
  return Buffer.concat(parts);
}

/** The whole encoding of an element (identifier, length, content). */
export const encodingOf = (bytes: Uint8Array, e: Element): Uint8Array => bytes.subarray(e.start, e.end);

/** Dotted OID of a universal OBJECT IDENTIFIER element. */
export function oidOf(bytes: Uint8Array, e: Element | undefined, what: string): string {
  const el = expectTag(e, 0, 6, what);
  if (el.constructed || el.contentEnd === el.contentStart) throw new BerError(`${what} is malformed`);
  const arcs: number[] = [];
  let value = 0;
  for (let i = el.contentStart; i < el.contentEnd; i++) {
    const b = bytes[i]!;
    value = value * 128 + (b & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 256) throw new BerError(`${what} is malformed`);
    if (b & 0x80) continue;
    if (arcs.length === 0)
      arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
    else arcs.push(value);
    value = 0;
  }
  if (bytes[el.contentEnd - 1]! & 0x80) throw new BerError(`${what} is malformed`);
  return arcs.join('.');
}

/** A small non-negative INTEGER (versions). */
export function smallIntOf(bytes: Uint8Array, e: Element | undefined, what: string): number {
  const el = expectTag(e, 0, 2, what);
  const content = bytes.subarray(el.contentStart, el.contentEnd);
  if (el.constructed || content.length === 0 || content.length > 4 || content[0]! & 0x80)
    throw new BerError(`${what} is malformed`);
  return content.reduce((n, b) => n * 256 + b, 0);
}

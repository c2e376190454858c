/**
 * Removes glyphs from text-showing operations without moving anything else on the page.
 *
 * Each removed glyph is replaced by a TJ position adjustment equal to its advance
 * (ISO 32000-1 §9.4.4: tx = (w0·Tfs + Tc + Tw)·Th for a glyph, −(n/1000)·Tfs·Th for a number),
 * so the text after it stays exactly where it was, while the glyph itself is gone from the
 * content stream: nothing is drawn and nothing can be extracted or searched.
 */
import type { CsOp, CsValue } from './lexer.ts';
import type { Glyph } from './text-scan.ts';

/** Glyphs to remove from one operation, keyed by string element and byte offset. */
export interface OpRemoval {
  op: CsOp;
  removed: Map<number, Map<number, { len: number; adj: number }>>;
}

export function addRemoval(removals: Map<number, OpRemoval>, g: Glyph): void {
  let r = removals.get(g.site.op.start);
  if (!r) {
    r = { op: g.site.op, removed: new Map() };
    removals.set(g.site.op.start, r);
  }
  let el = r.removed.get(g.elem);
  if (!el) {
    el = new Map();
    r.removed.set(g.elem, el);
  }
  el.set(g.byteStart, { len: g.byteLen, adj: g.adj });
}

const fmt = (n: number): string => {
  const r = Math.round(n * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
};

const hex = (b: Uint8Array): string => {
  let s = '<';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return `${s}>`;
};

/** The TJ elements left after removing glyphs from one string. */
function cutString(
  bytes: Uint8Array,
  removed: Map<number, { len: number; adj: number }> | undefined,
): (Uint8Array | number)[] {
  if (!removed || removed.size === 0) return [bytes];
  const out: (Uint8Array | number)[] = [];
  const starts = [...removed.keys()].sort((a, b) => a - b);
  let pos = 0;
  for (const s of starts) {
    const { len, adj } = removed.get(s)!;
    if (s > pos) out.push(bytes.subarray(pos, s));
    out.push(adj);
    pos = Math.max(pos, s + len);
  }
  if (pos < bytes.length) out.push(bytes.subarray(pos));
  return out;
}

/** Replacement source text for one operation. */
function rewriteOp(r: OpRemoval): string {
  const { op } = r;
  let elements: CsValue[];
  let prefix = '';
  switch (op.op) {
    case 'TJ':
      elements = op.args[0]?.t === 'arr' ? op.args[0].v : [];
      break;
    case 'Tj':
      elements = op.args[0] ? [op.args[0]] : [];
      break;
    case "'":
      elements = op.args[0] ? [op.args[0]] : [];
      prefix = 'T* ';
      break;
    case '"': {
      const [aw, ac, str] = op.args;
      elements = str ? [str] : [];
      prefix = `${fmt(aw?.t === 'num' ? aw.v : 0)} Tw ${fmt(ac?.t === 'num' ? ac.v : 0)} Tc T* `;
      break;
    }
    default:
      return '';
  }
  const parts: (Uint8Array | number)[] = [];
  elements.forEach((el, i) => {
    if (el.t === 'num') parts.push(el.v);
    else if (el.t === 'str') parts.push(...cutString(el.v, r.removed.get(i)));
  });
  // Merge adjacent numbers and drop empty strings.
  const merged: (Uint8Array | number)[] = [];
  for (const p of parts) {
    const last = merged[merged.length - 1];
    if (typeof p === 'number') {
      if (typeof last === 'number') merged[merged.length - 1] = last + p;
      else merged.push(p);
    } else if (p.length > 0) {
      merged.push(p);
    }
  }
  const body = merged.map((p) => (typeof p === 'number' ? fmt(p) : hex(p))).join(' ');
  return ` ${prefix}[${body}] TJ `;
}

/** Applies non-overlapping operation rewrites to a content stream. */
export function applyRemovals(bytes: Uint8Array, removals: Iterable<OpRemoval>): Uint8Array {
  const sorted = [...removals].sort((a, b) => a.op.start - b.op.start);
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let pos = 0;
  let total = 0;
  for (const r of sorted) {
    if (r.op.start < pos) continue;
    const before = bytes.subarray(pos, r.op.start);
    const repl = enc.encode(rewriteOp(r));
    chunks.push(before, repl);
    total += before.length + repl.length;
    pos = r.op.end;
  }
  const tail = bytes.subarray(pos);
  chunks.push(tail);
  total += tail.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

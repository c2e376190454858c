import { deflateSync } from 'node:zlib';

// Incremental updates written byte by byte (ISO 32000-2 §7.5.6), for the verifier's corpus:
// nothing here goes through a PDF library, so an update can hold exactly what an attacker writes
// (an xref that frees objects, two /Root keys, no xref at all, an object stream, a hybrid xref).

const latin1 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

export interface TrailerInfo {
  /** Offset of the last cross-reference section (the last `startxref`). */
  startxref: number;
  size: number;
  root: string;
  info: string | null;
  id: string | null;
}

/** What the last revision's trailer says (the last occurrence of each key in the file). */
export function trailerOf(pdf: Uint8Array): TrailerInfo {
  const text = latin1(pdf);
  const last = (re: RegExp) => [...text.matchAll(re)].at(-1);
  const startxref = Number(last(/startxref\s+(\d+)/g)?.[1] ?? Number.NaN);
  const size = Number(last(/\/Size\s+(\d+)/g)?.[1] ?? Number.NaN);
  const root = last(/\/Root\s+(\d+\s+\d+\s+R)/g)?.[1];
  if (!root || Number.isNaN(size) || Number.isNaN(startxref)) throw new Error('no trailer found');
  return {
    startxref,
    size,
    root,
    info: last(/\/Info\s+(\d+\s+\d+\s+R)/g)?.[1] ?? null,
    id: last(/\/ID\s*(\[[^\]]*\])/g)?.[1] ?? null,
  };
}

export interface NewObject {
  num: number;
  gen?: number;
  /** Everything between `N G obj` and `endobj`. */
  body: string;
  /** The number written in the object's `N G obj` header when it is not `num` (the xref still lists `num`). */
  header?: number;
}

export interface UpdateOptions {
  objects?: NewObject[];
  /** Objects the update's xref marks free (with the generation they had). */
  free?: { num: number; gen?: number }[];
  /**
   * `table` (default): a classic xref section; `stream`: an xref stream (objects in `packed` go
   * into one object stream); `none`: objects and a trailer but no xref, the `startxref` still
   * pointing to the previous section; `hybrid`: a classic table that lists nothing new plus an
   * /XRefStm stream that lists the objects (ISO 32000-2 §7.5.8.4).
   */
  xref?: 'table' | 'stream' | 'none' | 'hybrid';
  /** Objects written inside an object stream (xref `stream` only). */
  packed?: NewObject[];
  /** Extra trailer entries, written as given (e.g. a second `/Root 40 0 R`). */
  trailerExtra?: string;
  /** Replaces `/Root N G R` (written first). */
  root?: string;
  /**
   * Classic xref: further one-entry subsections after the others (an object listed twice).
   * Hybrid xref: entries of the /XRefStm stream, which then lists `objects` in its table instead.
   */
  relisted?: { num: number; offset: number; gen?: number }[];
}

/** A stream object body with its /Length. */
export function stream(dict: string, data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? data : latin1(data);
  return `<< ${dict} /Length ${bytes.length} >>\nstream\n${bytes}\nendstream`;
}

/** A Flate-compressed stream object body. */
export function flateStream(dict: string, data: string): string {
  return stream(`${dict} /Filter /FlateDecode`, deflateSync(Buffer.from(data, 'latin1')));
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Appends one incremental update to `base` and returns the new file. */
export function appendUpdate(base: Uint8Array, opts: UpdateOptions): Uint8Array {
  const t = trailerOf(base);
  let out = latin1(base);
  if (!out.endsWith('\n') && !out.endsWith('\r')) out += '\n';
  const entries = new Map<number, string>();
  const objects = opts.objects ?? [];
  for (const o of objects) {
    entries.set(o.num, `${pad(out.length, 10)} ${pad(o.gen ?? 0, 5)} n`);
    out += `${o.header ?? o.num} ${o.gen ?? 0} obj\n${o.body}\nendobj\n`;
  }
  for (const f of opts.free ?? []) entries.set(f.num, `0000000000 ${pad((f.gen ?? 0) + 1, 5)} f`);
  const maxNum = Math.max(t.size - 1, ...objects.map((o) => o.num), ...(opts.packed ?? []).map((o) => o.num));
  const mode = opts.xref ?? 'table';
  const trailerKeys = (size: number) =>
    [
      `/Root ${opts.root ?? t.root}`,
      `/Size ${size}`,
      `/Prev ${t.startxref}`,
      t.info ? `/Info ${t.info}` : '',
      t.id ? `/ID ${t.id}` : '',
      opts.trailerExtra ?? '',
    ]
      .filter(Boolean)
      .join(' ');
  if (mode === 'none') {
    out += `trailer\n<< ${trailerKeys(maxNum + 1)} >>\nstartxref\n${t.startxref}\n%%EOF\n`;
    return new Uint8Array(Buffer.from(out, 'latin1'));
  }
  if (mode === 'table') {
    const xrefAt = out.length;
    const again = (opts.relisted ?? []).map(
      (r) => `${r.num} 1\n${pad(r.offset, 10)} ${pad(r.gen ?? 0, 5)} n\r\n`,
    );
    out += `xref\n${sections(entries)}${again.join('')}trailer\n<< ${trailerKeys(maxNum + 1)} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    return new Uint8Array(Buffer.from(out, 'latin1'));
  }
  // xref streams: type 1 (offset), type 2 (in object stream n, index i), type 0 (free).
  const rows = new Map<number, [number, number, number]>();
  for (const [num, entry] of entries) {
    const [off, gen, kind] = entry.split(' ');
    rows.set(num, kind === 'n' ? [1, Number(off), Number(gen)] : [0, 0, Number(gen)]);
  }
  // A hybrid update with `relisted`: the table lists the objects, the stream the relisted entries.
  const tableRows = mode === 'hybrid' && opts.relisted ? new Map(entries) : new Map<number, string>();
  if (tableRows.size > 0) {
    rows.clear();
    for (const r of opts.relisted!) rows.set(r.num, [1, r.offset, r.gen ?? 0]);
  }
  let size = maxNum + 1;
  const packed = opts.packed ?? [];
  if (packed.length > 0) {
    const objStmNum = size++;
    let header = '';
    let body = '';
    packed.forEach((o, i) => {
      header += `${o.header ?? o.num} ${body.length} `;
      body += `${o.body}\n`;
      rows.set(o.num, [2, objStmNum, i]);
    });
    rows.set(objStmNum, [1, out.length, 0]);
    out += `${objStmNum} 0 obj\n${stream(`/Type /ObjStm /N ${packed.length} /First ${header.length}`, header + body)}\nendobj\n`;
  }
  const xrefNum = size++;
  const xrefAt = out.length;
  rows.set(xrefNum, [1, xrefAt, 0]);
  const nums = [...rows.keys()].sort((a, b) => a - b);
  const data = Buffer.alloc(nums.length * 7);
  nums.forEach((n, i) => {
    const [type, f2, f3] = rows.get(n)!;
    data.writeUInt8(type, i * 7);
    data.writeUInt32BE(f2, i * 7 + 1);
    data.writeUInt16BE(f3, i * 7 + 5);
  });
  const index = nums.flatMap((n) => [n, 1]).join(' ');
  const xrefDict = `/Type /XRef /W [1 4 2] /Index [${index}] ${trailerKeys(size)}`;
  out += `${xrefNum} 0 obj\n${stream(xrefDict, data)}\nendobj\n`;
  if (mode === 'stream') {
    out += `startxref\n${xrefAt}\n%%EOF\n`;
    return new Uint8Array(Buffer.from(out, 'latin1'));
  }
  // hybrid: a classic table listing only the xref stream object, pointing to it with /XRefStm.
  const tableAt = out.length;
  const only = new Map([...tableRows, [xrefNum, `${pad(xrefAt, 10)} 00000 n`]]);
  out += `xref\n${sections(only)}trailer\n<< ${trailerKeys(size)} /XRefStm ${xrefAt} >>\nstartxref\n${tableAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** Classic xref subsections, one per run of consecutive object numbers. */
function sections(entries: Map<number, string>): string {
  const nums = [...entries.keys()].sort((a, b) => a - b);
  let text = '';
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    text += `${nums[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) text += `${entries.get(nums[k]!)!}\r\n`;
    i = j + 1;
  }
  return text;
}

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
  /** How the update is written byte by byte (issue 40's parser differentials); defaults as above. */
  layout?: Layout;
}

/**
 * The byte-level layout of an update. The defaults are what a careful writer produces: LF line
 * ends, 20-byte xref entries ending in CR LF, offsets at the object number, `startxref` within the
 * last bytes of the file, xref streams with /W [1 4 2] and no filter.
 */
export interface Layout {
  /** The line end of the update's own lines (object headers, xref, trailer, `startxref`, `%%EOF`). */
  newline?: '\n' | '\r\n' | '\r';
  /** What ends each classic xref entry after `n`/`f`: `\r\n` (default), ` \n`, ` \r`, or `\n` (a 19-byte entry). */
  entryEnd?: string;
  /** A comment line written inside the classic xref table, after the first subsection's header. */
  xrefComment?: string;
  /** Written between the `startxref` offset and `%%EOF` (a long comment pushes `startxref` back). */
  beforeEof?: string;
  /** No `startxref` and `%%EOF` after the trailer (a section another section of the update reaches by /Prev). */
  noEof?: boolean;
  /** Each xref offset points at the line end before `N G obj` instead of at N. */
  offsetAtBlank?: boolean;
  /** The trailer's /Prev (default: the previous `startxref`). */
  prev?: number;
  /** Field widths of an xref stream (default [1 4 2]). */
  w?: [number, number, number];
  /** The xref stream's data Flate-compressed, its filter written as an array `[/FlateDecode]`. */
  filterArray?: boolean;
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
  const layout = opts.layout ?? {};
  const nl = layout.newline ?? '\n';
  const eof = (at: number) =>
    layout.noEof ? '' : `startxref${nl}${at}${nl}${layout.beforeEof ?? ''}%%EOF${nl}`;
  let out = latin1(base);
  if (!out.endsWith('\n') && !out.endsWith('\r')) out += nl;
  const entries = new Map<number, string>();
  const objects = opts.objects ?? [];
  for (const o of objects) {
    const at = layout.offsetAtBlank ? out.length - 1 : out.length;
    entries.set(o.num, `${pad(at, 10)} ${pad(o.gen ?? 0, 5)} n`);
    out += `${o.header ?? o.num} ${o.gen ?? 0} obj${nl}${o.body}${nl}endobj${nl}`;
  }
  for (const f of opts.free ?? []) entries.set(f.num, `0000000000 ${pad((f.gen ?? 0) + 1, 5)} f`);
  const maxNum = Math.max(t.size - 1, ...objects.map((o) => o.num), ...(opts.packed ?? []).map((o) => o.num));
  const mode = opts.xref ?? 'table';
  const trailerKeys = (size: number) =>
    [
      `/Root ${opts.root ?? t.root}`,
      `/Size ${size}`,
      `/Prev ${layout.prev ?? t.startxref}`,
      t.info ? `/Info ${t.info}` : '',
      t.id ? `/ID ${t.id}` : '',
      opts.trailerExtra ?? '',
    ]
      .filter(Boolean)
      .join(' ');
  if (mode === 'none') {
    out += `trailer${nl}<< ${trailerKeys(maxNum + 1)} >>${nl}${eof(t.startxref)}`;
    return new Uint8Array(Buffer.from(out, 'latin1'));
  }
  if (mode === 'table') {
    const xrefAt = out.length;
    const again = (opts.relisted ?? []).map(
      (r) => `${r.num} 1${nl}${pad(r.offset, 10)} ${pad(r.gen ?? 0, 5)} n${layout.entryEnd ?? '\r\n'}`,
    );
    out += `xref${nl}${sections(entries, layout)}${again.join('')}trailer${nl}<< ${trailerKeys(maxNum + 1)} >>${nl}${eof(xrefAt)}`;
    return new Uint8Array(Buffer.from(out, 'latin1'));
  }
  // xref streams: type 1 (offset), type 2 (in object stream n, index i), type 0 (free).
  const rows = new Map<number, [number, number, number]>();
  for (const [num, entry] of entries) {
    const [off, gen, kind] = entry.split(' ');
    rows.set(num, kind === 'n' ? [1, Number(off), Number(gen)] : [0, 0, Number(gen)]);
  }
  // A hybrid update with `relisted`: the table lists the objects, the stream the relisted entries.
  // An xref stream with `relisted`: further one-entry subsections of /Index after the others.
  const tableRows = mode === 'hybrid' && opts.relisted ? new Map(entries) : new Map<number, string>();
  const again: [number, [number, number, number]][] = [];
  if (tableRows.size > 0) {
    rows.clear();
    for (const r of opts.relisted!) rows.set(r.num, [1, r.offset, r.gen ?? 0]);
  } else if (mode === 'stream')
    for (const r of opts.relisted ?? []) again.push([r.num, [1, r.offset, r.gen ?? 0]]);
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
    out += `${objStmNum} 0 obj${nl}${stream(`/Type /ObjStm /N ${packed.length} /First ${header.length}`, header + body)}${nl}endobj${nl}`;
  }
  const xrefNum = size++;
  const xrefAt = out.length;
  rows.set(xrefNum, [1, xrefAt, 0]);
  const listed = [...[...rows.entries()].sort((a, b) => a[0] - b[0]), ...again];
  const w = layout.w ?? [1, 4, 2];
  const rowLength = w[0] + w[1] + w[2];
  const data = Buffer.alloc(listed.length * rowLength);
  listed.forEach(([, fields], i) => {
    let at = i * rowLength;
    fields.forEach((value, f) => {
      if (w[f]! > 0) data.writeUIntBE(value, at + w[f]! - Math.min(w[f]!, 6), Math.min(w[f]!, 6));
      at += w[f]!;
    });
  });
  const index = listed.map(([n]) => `${n} 1`).join(' ');
  const xrefDict = `/Type /XRef /W [${w.join(' ')}] /Index [${index}] ${trailerKeys(size)}`;
  const xrefBody = layout.filterArray
    ? stream(`${xrefDict} /Filter [/FlateDecode]`, deflateSync(data))
    : stream(xrefDict, data);
  out += `${xrefNum} 0 obj${nl}${xrefBody}${nl}endobj${nl}`;
  if (mode === 'stream') {
    out += eof(xrefAt);
    return new Uint8Array(Buffer.from(out, 'latin1'));
  }
  // hybrid: a classic table listing only the xref stream object, pointing to it with /XRefStm.
  const tableAt = out.length;
  const only = new Map([...tableRows, [xrefNum, `${pad(xrefAt, 10)} 00000 n`]]);
  out += `xref${nl}${sections(only, layout)}trailer${nl}<< ${trailerKeys(size)} /XRefStm ${xrefAt} >>${nl}${eof(tableAt)}`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** Classic xref subsections, one per run of consecutive object numbers. */
function sections(entries: Map<number, string>, layout: Layout = {}): string {
  const nl = layout.newline ?? '\n';
  const nums = [...entries.keys()].sort((a, b) => a - b);
  let text = '';
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    text += `${nums[i]} ${j - i + 1}${nl}`;
    if (i === 0 && layout.xrefComment !== undefined) text += `${layout.xrefComment}${nl}`;
    for (let k = i; k <= j; k++) text += `${entries.get(nums[k]!)!}${layout.entryEnd ?? '\r\n'}`;
    i = j + 1;
  }
  return text;
}

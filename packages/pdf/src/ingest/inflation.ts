/**
 * Decompression bombs: how much a PDF decodes to, bounded per stream and per document before it
 * is stored (issue 29, item 4).
 *
 * A 1 MB file can hold a Flate stream that inflates to 1 GiB (deflate reaches about 1,000:1 on
 * zeros; LZW and RunLength bombs are alike). Ingest itself only decodes page content up to a cap,
 * so such a file used to be accepted, and every render of its page then ran into the worker's
 * memory limit. Here every stream reachable from the document catalog is measured once:
 *
 * - FlateDecode, LZWDecode, RunLengthDecode, ASCIIHexDecode and ASCII85Decode (and their
 *   abbreviations) are decoded and only counted: the output is thrown away as it comes, so
 *   measuring a 1 GiB stream needs no more memory than a chunk, and stops at the limit.
 * - An image codec (DCT, JPX, JBIG2, CCITT) ends the chain: what goes into it counts as is.
 * - Any other stream counts its stored length.
 * - An image XObject may also not have more samples (Width × Height × components × bits / 8) than
 *   `streamBytes`: that is what a renderer holds once it is decoded, whatever the codec (a small
 *   JPEG may declare 60,000 × 60,000 pixels). The document total counts what the filters decode
 *   to, not the samples of JPEGs (a 200-page scan at 300 dpi has 1.7 GB of them).
 *
 * Over `streamBytes` for one stream or `documentBytes` for all of them together, the document is
 * refused with `invalid_document`. A shared stream (one content stream on 500 pages) counts once.
 */
import { createInflate, inflateSync, constants as zlibConstants } from 'node:zlib';
import type { PdfDict, PdfObject, PdfStream } from '@libpdf/core';
import { DocumentInputError } from './errors.ts';
import type { InflationLimits } from './inflation-limits.ts';
import { asNumber, deref, type ObjCtx, refKey } from './pdf-objects.ts';

const IMAGE_CODECS = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode', 'CCF']);
const ABBREVIATIONS: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
};

const MiB = 1024 * 1024;
const mb = (n: number) => `${Math.round(n / MiB)} MB`;

/** Throws `invalid_document` when the document decodes to more than `limits` allow. */
export async function checkInflation(
  ctx: ObjCtx,
  roots: (PdfObject | undefined)[],
  limits: InflationLimits,
): Promise<void> {
  let total = 0;
  for (const stream of reachableStreams(ctx, roots)) {
    const size = await decodedSize(ctx, stream, limits.streamBytes);
    if (Math.max(size, imageSamples(ctx, stream)) > limits.streamBytes)
      throw new DocumentInputError(
        'invalid_document',
        `The PDF has a stream or image that decompresses to more than ${mb(limits.streamBytes)} (the limit for one stream); it is probably a decompression bomb`,
      );
    total += size;
    if (total > limits.documentBytes)
      throw new DocumentInputError(
        'invalid_document',
        `The PDF decompresses to more than ${mb(limits.documentBytes)} (the limit for one document); it is probably a decompression bomb`,
      );
  }
}

/** Every stream reachable from `roots` (the catalog, the document information), once each. */
function* reachableStreams(ctx: ObjCtx, roots: (PdfObject | undefined)[]): Generator<PdfStream> {
  const seenRefs = new Set<string>();
  const seenObjects = new WeakSet<object>();
  const stack: PdfObject[] = roots.filter((r): r is PdfObject => r !== undefined);
  while (stack.length > 0) {
    let o: PdfObject | undefined = stack.pop()!;
    if (o.type === 'ref') {
      const key = refKey(o);
      if (seenRefs.has(key)) continue;
      seenRefs.add(key);
      o = deref(ctx, o);
      if (!o) continue;
    }
    if (o.type !== 'dict' && o.type !== 'stream' && o.type !== 'array') continue;
    if (seenObjects.has(o)) continue;
    seenObjects.add(o);
    if (o.type === 'array') {
      for (const item of o) stack.push(item);
      continue;
    }
    for (const [, value] of o as PdfDict) stack.push(value);
    if (o.type === 'stream') yield o as PdfStream;
  }
}

function filterNames(ctx: ObjCtx, s: PdfStream): { names: string[]; parms: (PdfObject | undefined)[] } {
  const filter = deref(ctx, s.get('Filter'));
  const parms = deref(ctx, s.get('DecodeParms'));
  if (!filter) return { names: [], parms: [] };
  if (filter.type === 'name') return { names: [filter.value], parms: [parms] };
  if (filter.type !== 'array') return { names: ['?'], parms: [] };
  const list = filter.toArray().map((f) => {
    const d = deref(ctx, f);
    return d?.type === 'name' ? d.value : '?';
  });
  const plist = parms?.type === 'array' ? parms.toArray().map((p) => deref(ctx, p)) : [];
  return { names: list, parms: plist };
}

/** What the filters of `s` decode it to, in bytes; a number over `limit` once it is known to be over. */
async function decodedSize(ctx: ObjCtx, s: PdfStream, limit: number): Promise<number> {
  const { names, parms } = filterNames(ctx, s);
  let data = s.data;
  let size = data.length;
  for (const [i, raw] of names.entries()) {
    const name = ABBREVIATIONS[raw] ?? raw;
    if (IMAGE_CODECS.has(name) || !DECODERS.has(name)) break;
    const last = i === names.length - 1 || IMAGE_CODECS.has(ABBREVIATIONS[names[i + 1]!] ?? names[i + 1]!);
    if (last) {
      size = await countDecoded(name, data, parms[i], ctx, limit);
      break;
    }
    // An inner stage of a chain (ASCII85 around Flate, say): decoded for real, bounded by the limit.
    const decoded = decodeKept(name, data, parms[i], ctx, limit);
    if (decoded === undefined) return limit + 1;
    data = decoded;
    size = data.length;
  }
  return size;
}

/** The decoded samples of an image XObject, in bytes (0 for any other stream). */
function imageSamples(ctx: ObjCtx, s: PdfStream): number {
  const subtype = deref(ctx, s.get('Subtype'));
  if (subtype?.type !== 'name' || subtype.value !== 'Image') return 0;
  const width = asNumber(deref(ctx, s.get('Width'))) ?? 0;
  const height = asNumber(deref(ctx, s.get('Height'))) ?? 0;
  if (!(width > 0 && height > 0)) return 0;
  const mask = deref(ctx, s.get('ImageMask'));
  const bits =
    mask?.type === 'bool' && mask.value ? 1 : (asNumber(deref(ctx, s.get('BitsPerComponent'))) ?? 8);
  return Math.ceil((width * height * components(ctx, deref(ctx, s.get('ColorSpace'))) * bits) / 8);
}

function components(ctx: ObjCtx, cs: PdfObject | undefined): number {
  const name = cs?.type === 'name' ? cs.value : cs?.type === 'array' ? deref(ctx, cs.at(0)) : undefined;
  const n = typeof name === 'string' ? name : name?.type === 'name' ? name.value : undefined;
  if (
    n === 'DeviceGray' ||
    n === 'G' ||
    n === 'CalGray' ||
    n === 'Indexed' ||
    n === 'I' ||
    n === 'Separation'
  )
    return 1;
  if (n === 'DeviceCMYK' || n === 'CMYK') return 4;
  if (n === 'ICCBased' && cs?.type === 'array') {
    const profile = deref(ctx, cs.at(1));
    const count =
      profile && (profile.type === 'dict' || profile.type === 'stream')
        ? asNumber(deref(ctx, (profile as PdfDict).get('N')))
        : undefined;
    if (count && count >= 1 && count <= 4) return count;
  }
  return 3;
}

const DECODERS = new Set(['FlateDecode', 'LZWDecode', 'RunLengthDecode', 'ASCIIHexDecode', 'ASCII85Decode']);

/** Below this many input bytes, a Flate stream is inflated in one call (at most ~1,000× of it). */
const SMALL_FLATE = 64 * 1024;
const CHUNK = 1024 * 1024;

/** What the last stage of a chain decodes to, counted and never kept (at most `limit` + a chunk). */
async function countDecoded(
  name: string,
  data: Uint8Array,
  parm: PdfObject | undefined,
  ctx: ObjCtx,
  limit: number,
): Promise<number> {
  if (name === 'FlateDecode') return inflatedSize(data, limit);
  let n = 0;
  const sink = (chunk: Uint8Array | number) => {
    n += typeof chunk === 'number' ? chunk : chunk.length;
    return n <= limit;
  };
  if (name === 'LZWDecode') lzw(data, earlyChange(ctx, parm), sink, false);
  else if (name === 'RunLengthDecode') runLength(data, sink, false);
  else n = (decodeKept(name, data, parm, ctx, limit) ?? { length: limit + 1 }).length;
  return n;
}

/** A stage decoded into memory; undefined when it decodes to more than `limit`. */
function decodeKept(
  name: string,
  data: Uint8Array,
  parm: PdfObject | undefined,
  ctx: ObjCtx,
  limit: number,
): Uint8Array | undefined {
  if (name === 'ASCIIHexDecode') return asciiHex(data);
  if (name === 'ASCII85Decode') return ascii85(data);
  if (name === 'FlateDecode') {
    try {
      const out = inflateSync(data, { maxOutputLength: limit, finishFlush: zlibConstants.Z_SYNC_FLUSH });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (e) {
      if (e instanceof RangeError) return undefined;
      return new Uint8Array(0); // damaged data: readers decode nothing of it either
    }
  }
  const parts: Uint8Array[] = [];
  let n = 0;
  const sink = (chunk: Uint8Array | number) => {
    if (typeof chunk === 'number') throw new Error('unreachable: a kept decoder sends bytes');
    n += chunk.length;
    if (n > limit) return false;
    parts.push(chunk.slice());
    return true;
  };
  const complete =
    name === 'LZWDecode' ? lzw(data, earlyChange(ctx, parm), sink, true) : runLength(data, sink, true);
  if (!complete) return undefined;
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * How many bytes a zlib stream inflates to, up to just past `limit`: small inputs in one call, the
 * rest streamed in 1 MB chunks that are counted and dropped. Damaged data counts what inflated
 * before the damage (what readers show).
 */
function inflatedSize(data: Uint8Array, limit: number): Promise<number> | number {
  if (data.length <= SMALL_FLATE) {
    try {
      return inflateSync(data, {
        maxOutputLength: Math.min(limit + 1, 2 ** 31 - 1),
        finishFlush: zlibConstants.Z_SYNC_FLUSH,
      }).length;
    } catch (e) {
      if (e instanceof RangeError) return limit + 1;
      // Damaged: fall through to the streamed count, which keeps what came before the damage.
    }
  }
  return new Promise((resolve) => {
    const inflate = createInflate({ finishFlush: zlibConstants.Z_SYNC_FLUSH, chunkSize: CHUNK });
    let n = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(n);
    };
    inflate.on('data', (chunk: Buffer) => {
      n += chunk.length;
      if (n > limit) {
        finish();
        inflate.destroy();
      }
    });
    inflate.on('end', finish);
    inflate.on('error', finish);
    inflate.on('close', finish);
    inflate.end(data);
  });
}

function earlyChange(ctx: ObjCtx, parm: PdfObject | undefined): boolean {
  if (!parm || (parm.type !== 'dict' && parm.type !== 'stream')) return true;
  return asNumber(deref(ctx, (parm as PdfDict).get('EarlyChange'))) !== 0;
}

/**
 * LZWDecode (PDF 32000-1 7.4.4). `sink` gets each code's output (or only its length when `keep`
 * is false) and returns false to stop; the result says whether the data was decoded to its end.
 * The table keeps each entry's prefix code, last byte and length, so counting needs no strings.
 */
function lzw(
  data: Uint8Array,
  early: boolean,
  sink: (chunk: Uint8Array | number) => boolean,
  keep: boolean,
): boolean {
  const prefix = new Int32Array(4096);
  const last = new Uint8Array(4096);
  const length = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    last[i] = i;
    length[i] = 1;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  let at = 0;
  const out = new Uint8Array(4096);
  const firstByte = (code: number) => {
    let c = code;
    while (prefix[c]! >= 0) c = prefix[c]!;
    return last[c]!;
  };
  const emit = (code: number): boolean => {
    const len = length[code]!;
    if (!keep) return sink(len);
    let c = code;
    for (let i = len - 1; i >= 0; i--) {
      out[i] = last[c]!;
      c = prefix[c]!;
    }
    return sink(out.subarray(0, len));
  };
  for (;;) {
    while (bits < width) {
      if (at >= data.length) return true;
      buffer = ((buffer << 8) | data[at++]!) & 0xffffff;
      bits += 8;
    }
    const code = (buffer >> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    if (code === 256) {
      next = 258;
      width = 9;
      previous = -1;
      continue;
    }
    if (code === 257) return true;
    if (previous < 0) {
      if (code > 255) return true; // damaged: nothing to build on
      if (!emit(code)) return false;
      previous = code;
      continue;
    }
    let entry = code;
    if (code >= next) {
      if (code > next || next >= 4096) return true; // damaged
      entry = next;
    }
    if (next < 4096) {
      prefix[next] = previous;
      last[next] = code < next ? firstByte(code) : firstByte(previous);
      length[next] = length[previous]! + 1;
      next++;
    }
    if (!emit(entry)) return false;
    previous = code;
    if (next + (early ? 1 : 0) >= 1 << width && width < 12) width++;
  }
}

/** RunLengthDecode (7.4.5), with the same `sink` contract as `lzw`. */
function runLength(data: Uint8Array, sink: (chunk: Uint8Array | number) => boolean, keep: boolean): boolean {
  const run = new Uint8Array(128);
  let at = 0;
  while (at < data.length) {
    const n = data[at++]!;
    if (n === 128) return true;
    if (n < 128) {
      const chunk = data.subarray(at, at + n + 1);
      at += n + 1;
      if (!sink(keep ? chunk : chunk.length)) return false;
    } else {
      if (at >= data.length) return true;
      const count = 257 - n;
      if (keep) run.fill(data[at]!, 0, count);
      at++;
      if (!sink(keep ? run.subarray(0, count) : count)) return false;
    }
  }
  return true;
}

function asciiHex(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.length / 2));
  let n = 0;
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break; // '>'
    const v =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 87 : -1;
    if (v < 0) continue;
    if (high < 0) high = v;
    else {
      out[n++] = (high << 4) | v;
      high = -1;
    }
  }
  if (high >= 0) out[n++] = high << 4;
  return out.subarray(0, n);
}

function ascii85(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length * 4 + 4); // 'z' is four zero bytes
  let n = 0;
  let group = 0;
  let count = 0;
  let at = 0;
  if (data[0] === 0x3c && data[1] === 0x7e) at = 2; // '<~'
  for (; at < data.length; at++) {
    const c = data[at]!;
    if (c === 0x7e) break; // '~>'
    if (c === 0x7a && count === 0) {
      out.fill(0, n, n + 4);
      n += 4;
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group = group * 85 + (c - 0x21);
    if (++count === 5) {
      out[n++] = (group >>> 24) & 0xff;
      out[n++] = (group >>> 16) & 0xff;
      out[n++] = (group >>> 8) & 0xff;
      out[n++] = group & 0xff;
      group = 0;
      count = 0;
    }
  }
  if (count > 1) {
    for (let i = count; i < 5; i++) group = group * 85 + 84;
    for (let i = 0; i < count - 1; i++) out[n++] = (group >>> (24 - 8 * i)) & 0xff;
  }
  return out.subarray(0, n);
}

/**
 * Thin, null-safe accessors over @libpdf/core's object model. Every accessor tolerates missing
 * keys, wrong types and dangling references (malformed files are the norm, not the exception).
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import type { PdfArray, PdfDict, PdfObject, PdfRef, PdfStream } from '@libpdf/core';

type Resolve = (ref: PdfRef) => PdfObject | null;

export interface ObjCtx {
  resolve: Resolve;
}

/** Largest decoded content stream we interpret (guards against deflate bombs). */
const MAX_DECODED_STREAM_BYTES = 64 * 1024 * 1024;

export function deref(ctx: ObjCtx, o: PdfObject | undefined | null, depth = 0): PdfObject | undefined {
  let cur = o ?? undefined;
  for (let i = depth; cur && cur.type === 'ref' && i < 16; i++) cur = ctx.resolve(cur) ?? undefined;
  return cur && cur.type === 'ref' ? undefined : cur;
}

export function get(ctx: ObjCtx, d: PdfDict | undefined, key: string): PdfObject | undefined {
  if (!d) return undefined;
  return deref(ctx, d.get(key));
}

export function asDict(o: PdfObject | undefined): PdfDict | undefined {
  return o && (o.type === 'dict' || o.type === 'stream') ? (o as PdfDict) : undefined;
}

export function asStream(o: PdfObject | undefined): PdfStream | undefined {
  return o && o.type === 'stream' ? (o as PdfStream) : undefined;
}

export function asArray(o: PdfObject | undefined): PdfArray | undefined {
  return o && o.type === 'array' ? (o as PdfArray) : undefined;
}

export function asNumber(o: PdfObject | undefined): number | undefined {
  return o && o.type === 'number' && Number.isFinite(o.value) ? o.value : undefined;
}

export function asName(o: PdfObject | undefined): string | undefined {
  return o && o.type === 'name' ? o.value : undefined;
}

/** Text string (PDFDocEncoding or UTF-16BE with BOM). */
export function asText(o: PdfObject | undefined): string | undefined {
  return o && o.type === 'string' ? o.asString() : o && o.type === 'name' ? o.value : undefined;
}

export const getDict = (ctx: ObjCtx, d: PdfDict | undefined, key: string) => asDict(get(ctx, d, key));
export const getArray = (ctx: ObjCtx, d: PdfDict | undefined, key: string) => asArray(get(ctx, d, key));
export const getNumber = (ctx: ObjCtx, d: PdfDict | undefined, key: string) => asNumber(get(ctx, d, key));
export const getName = (ctx: ObjCtx, d: PdfDict | undefined, key: string) => asName(get(ctx, d, key));

/** Items of an array, each dereferenced. */
export function items(ctx: ObjCtx, a: PdfArray | undefined): (PdfObject | undefined)[] {
  if (!a) return [];
  const out: (PdfObject | undefined)[] = [];
  for (let i = 0; i < a.length; i++) out.push(deref(ctx, a.at(i)));
  return out;
}

export function numbers(ctx: ObjCtx, a: PdfArray | undefined): number[] | undefined {
  if (!a) return undefined;
  const out: number[] = [];
  for (const it of items(ctx, a)) {
    const n = asNumber(it);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

export const refKey = (r: PdfRef): string => `${r.objectNumber} ${r.generation}`;

/**
 * Decoded bytes of a stream. Plain FlateDecode (by far the most common content-stream filter) is
 * inflated here with an output cap and tolerance for truncated data; other filter chains go
 * through @libpdf/core. Throws when the stream cannot be decoded or is too large.
 */
export function decodeStream(s: PdfStream): Uint8Array {
  const filter = s.get('Filter');
  const parms = s.get('DecodeParms');
  const names =
    filter === undefined
      ? []
      : filter.type === 'name'
        ? [filter.value]
        : filter.type === 'array'
          ? filter.toArray().map((f) => (f.type === 'name' ? f.value : '?'))
          : ['?'];
  if (names.length === 0) return s.data;
  if (names.length === 1 && (names[0] === 'FlateDecode' || names[0] === 'Fl') && !hasPredictor(parms)) {
    const out = inflateSync(s.data, {
      maxOutputLength: MAX_DECODED_STREAM_BYTES,
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
    });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  const out = s.getDecodedData();
  if (out.length > MAX_DECODED_STREAM_BYTES) throw new RangeError('decoded stream too large');
  return out;
}

function hasPredictor(parms: PdfObject | undefined): boolean {
  if (!parms) return false;
  if (parms.type === 'array') return parms.toArray().some((p) => hasPredictor(p));
  if (parms.type !== 'dict') return parms.type === 'ref';
  const p = parms.get('Predictor');
  return p !== undefined && !(p.type === 'number' && p.value <= 1);
}

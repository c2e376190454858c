import { inflateSync } from 'node:zlib';
import { Dict, Name, type Stream, type Value } from './lexer.ts';

/** Decoded streams are refused past this size (a compression bomb must not take the process down). */
const MAX_DECODED = 64 << 20;

/**
 * A stream's data decoded, for the filters whose output the comparison and the xref need:
 * none, /FlateDecode (with PNG or no predictor). Null for any other filter (images in DCT, say):
 * such streams are compared by their raw bytes.
 */
export function decodeStream(stream: Stream): Uint8Array | null {
  const filter = stream.dict.get('Filter');
  const names = filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
  if (names.length === 0) return stream.raw;
  if (names.length !== 1 || !(names[0] instanceof Name) || names[0].name !== 'FlateDecode') return null;
  let parms = stream.dict.get('DecodeParms');
  if (Array.isArray(parms)) parms = parms[0];
  let data: Uint8Array;
  try {
    data = inflateSync(stream.raw, { maxOutputLength: MAX_DECODED });
  } catch {
    return null;
  }
  if (!(parms instanceof Dict)) return data;
  const predictor = num(parms.get('Predictor')) ?? 1;
  if (predictor < 10) return predictor === 1 ? data : null;
  const colors = num(parms.get('Colors')) ?? 1;
  const bits = num(parms.get('BitsPerComponent')) ?? 8;
  const columns = num(parms.get('Columns')) ?? 1;
  return unpredict(
    data,
    Math.ceil((colors * bits * columns) / 8),
    Math.max(1, Math.ceil((colors * bits) / 8)),
  );
}

const num = (v: Value | undefined) => (typeof v === 'number' ? v : undefined);

/** PNG predictors (ISO 32000-2 §7.4.4.4): each row starts with its filter type. */
function unpredict(data: Uint8Array, columns: number, bpp: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (columns + 1)]!;
    for (let c = 0; c < columns; c++) {
      const x = data[r * (columns + 1) + 1 + c]!;
      const left = c >= bpp ? out[r * columns + c - bpp]! : 0;
      const up = r > 0 ? out[(r - 1) * columns + c]! : 0;
      const upLeft = r > 0 && c >= bpp ? out[(r - 1) * columns + c - bpp]! : 0;
      let value = x;
      if (type === 1) value = x + left;
      else if (type === 2) value = x + up;
      else if (type === 3) value = x + Math.floor((left + up) / 2);
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value = x + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      }
      out[r * columns + c] = value & 0xff;
    }
  }
  return out;
}

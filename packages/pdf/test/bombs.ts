/**
 * Decompression bombs for tests (issue 29, item 4): PDFs whose streams inflate to far more than
 * the file's size, generated in milliseconds.
 *
 * `zerosDeflate(n)` is a zlib stream of `n` zero bytes built without compressing them: one MiB of
 * zeros is deflated once (a self-contained run of blocks ending in a full flush, about 1 kB) and
 * repeated, then closed with an empty final block and the Adler-32 of `n` zeros. 1 GiB is ~1 MB.
 */
import { deflateRawSync, deflateSync, constants as zlibConstants } from 'node:zlib';

const MiB = 1024 * 1024;

let segment: Buffer | undefined;

/** A zlib stream that inflates to `bytes` zeros (`bytes` a multiple of 1 MiB). */
export function zerosDeflate(bytes: number): Buffer {
  if (bytes % MiB !== 0) throw new RangeError('zerosDeflate takes whole MiB');
  segment ??= deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  const count = bytes / MiB;
  const out = Buffer.alloc(2 + segment.length * count + 2 + 4);
  out[0] = 0x78;
  out[1] = 0xda;
  for (let i = 0; i < count; i++) segment.copy(out, 2 + i * segment.length);
  const end = 2 + segment.length * count;
  out[end] = 0x03; // final fixed-Huffman block holding only its end code
  out[end + 1] = 0x00;
  // Adler-32 of `bytes` zeros: a stays 1, b adds 1 per byte.
  out.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0, end + 2);
  return out;
}

export interface BombStream {
  /** A zlib stream (see zerosDeflate), or any bytes. */
  data: Uint8Array;
  /** Its /Filter: FlateDecode unless said. */
  filter?: string;
  /** Extra dictionary entries, e.g. '/Type /XObject /Subtype /Image …'. */
  dict?: string;
}

/**
 * A one-page PDF whose page content is `streams` (one content stream each, drawn in order) after a
 * line of visible text, and whose resources hold `images` (image XObjects that are never drawn).
 */
export function makeBombPdf(streams: BombStream[], images: BombStream[] = []): Uint8Array {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let pos = 0;
  const push = (b: Uint8Array | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : Buffer.from(b);
    chunks.push(buf);
    pos += buf.length;
  };
  const obj = (n: number, ...body: (Uint8Array | string)[]) => {
    offsets[n] = pos;
    push(`${n} 0 obj\n`);
    for (const b of body) push(b);
    push('\nendobj\n');
  };
  const stream = (n: number, s: BombStream) =>
    obj(
      n,
      `<< /Length ${s.data.length}${s.filter === '' ? '' : ` /Filter /${s.filter ?? 'FlateDecode'}`} ${s.dict ?? ''} >>\nstream\n`,
      s.data,
      '\nendstream',
    );
  const text = deflateSync(Buffer.from('BT /F1 18 Tf 72 720 Td (A small PDF) Tj ET\n'));
  const first = 6;
  const imageFirst = first + streams.length;
  const contents = [5, ...streams.map((_, i) => first + i)].map((n) => `${n} 0 R`).join(' ');
  const xobjects = images.map((_, i) => `/Im${i} ${imageFirst + i} 0 R`).join(' ');
  push('%PDF-1.7\n');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, '<< /Type /Pages /Count 1 /Kids [3 0 R] >>');
  obj(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << ${xobjects} >> >> /Contents [${contents}] >>`,
  );
  obj(4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  stream(5, { data: text });
  for (const [i, s] of streams.entries()) stream(first + i, s);
  for (const [i, s] of images.entries()) stream(imageFirst + i, s);
  const count = imageFirst + images.length;
  const xref = pos;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let i = 1; i < count; i++) push(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(chunks));
}

/** A ~1 MB PDF whose one page content stream inflates to 1 GiB of zeros. */
export function makeGibBombPdf(): Uint8Array {
  return makeBombPdf([{ data: zerosDeflate(1024 * MiB) }]);
}

/**
 * A 120 kB PDF whose one page draws a 6,400 × 6,400 RGB image of zeros (117 MB of samples, under
 * the 128 MB per-stream limit): accepted at ingest, but drawing it needs more than a 480 MB
 * document worker, so its render fails on the memory limit.
 */
export function makeUnrenderableImagePdf(side = 6400): Uint8Array {
  const bytes = Math.ceil((side * side * 3) / MiB) * MiB;
  const image = {
    data: zerosDeflate(bytes),
    dict: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8`,
  };
  return makeBombPdf([{ data: Buffer.from('q 612 0 0 792 0 0 cm /Im0 Do Q'), filter: '' }], [image]);
}

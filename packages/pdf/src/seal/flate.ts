import { deflateSync } from 'node:zlib';
import { type PDF, PdfName, type PdfObject, type PdfRef } from '@libpdf/core';

/** Below this, @libpdf/core's writer leaves a stream uncompressed too. */
const MIN_BYTES = 512;

/**
 * zlib's state for a small input: a window no larger than the input (and a hash table to match)
 * compresses it as well, and setting up the default 32 kB window took longer than compressing a
 * 2 kB form: 61 µs against 25 µs. Any inflater reads such a stream.
 */
function small(length: number): { windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(length))));
  return { windowBits, memLevel: Math.min(8, windowBits - 5) };
}

/**
 * Creates a stream compressed with Node's zlib (FlateDecode). @libpdf/core compresses unfiltered
 * streams when it saves, with pako (a JavaScript zlib): for the forms, font subsets and ToUnicode
 * maps of a 10-page seal that was a quarter of the save (bench/README.md, Sealing). A stream that
 * does not get smaller is stored as is, as the library does.
 */
export function flateStream(pdf: PDF, dict: Record<string, PdfObject>, data: Uint8Array): PdfRef {
  if (data.length >= MIN_BYTES) {
    const packed = deflateSync(data, small(data.length));
    if (packed.length < data.length)
      return pdf.createStream(
        { ...dict, Filter: PdfName.of('FlateDecode') },
        new Uint8Array(packed.buffer, packed.byteOffset, packed.length),
      );
  }
  return pdf.createStream(dict, data);
}

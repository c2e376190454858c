import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DocumentInputError, ingestDocument } from '../src/ingest/index.ts';
import { makeBombPdf, makeGibBombPdf, zerosDeflate } from './bombs.ts';
import { makeLargePdf } from './ingest-fixtures.ts';

const MiB = 1024 * 1024;

async function refusal(p: Promise<unknown>): Promise<DocumentInputError | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof DocumentInputError) return e;
    throw e;
  }
}

/** LZW-encodes `data` (PDF LZWDecode, early change 1): enough of an encoder to test the decoder. */
function lzwEncode(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  let width = 9;
  const put = (code: number) => {
    buffer = (buffer << width) | code;
    bits += width;
    while (bits >= 8) {
      out.push((buffer >> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  };
  let table = new Map<string, number>();
  let next = 258;
  const reset = () => {
    table = new Map();
    for (let i = 0; i < 256; i++) table.set(String.fromCharCode(i), i);
    next = 258;
    width = 9;
  };
  reset();
  put(256);
  let w = '';
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    if (table.has(w + c)) {
      w += c;
      continue;
    }
    put(table.get(w)!);
    table.set(w + c, next++);
    if (next + 1 > 1 << width && width < 12) width++;
    if (next >= 4094) {
      put(256);
      reset();
    }
    w = c;
  }
  if (w) put(table.get(w)!);
  put(257);
  if (bits > 0) out.push((buffer << (8 - bits)) & 0xff);
  return Uint8Array.from(out);
}

const ingest = (pdf: Uint8Array, inflation?: { streamBytes?: number; documentBytes?: number }) =>
  ingestDocument({ bytes: pdf, isolate: false, inflation });

describe('issue 29 item 4: decompression bombs are refused at ingest (422 invalid_document)', () => {
  it('the test bomb is what it claims: a zlib stream of zeros that inflates to the size given', () => {
    const z = zerosDeflate(8 * MiB);
    const inflated = inflateSync(z);
    expect(inflated.length).toBe(8 * MiB);
    expect(inflated.every((b) => b === 0)).toBe(true);
    expect(zerosDeflate(1024 * MiB).length).toBeLessThan(1.1 * MiB);
  });

  it('a ~1 MB PDF whose page stream inflates to 1 GiB is invalid_document (per-stream limit), measured without holding it', async () => {
    const pdf = makeGibBombPdf();
    expect(pdf.length).toBeLessThan(1.1 * MiB);
    const started = performance.now();
    const err = await refusal(ingestDocument({ bytes: pdf, tenant: 'bomb' }));
    expect(err).toBeInstanceOf(DocumentInputError);
    expect((err as DocumentInputError).code).toBe('invalid_document');
    expect((err as DocumentInputError).message).toMatch(/decompresses to more than 128 MB.*one stream/);
    console.log(`1 GiB bomb refused in ${Math.round(performance.now() - started)} ms (worker)`);
  }, 60_000);

  it('many streams, each under the per-stream limit, over the per-document limit together: invalid_document', async () => {
    const pdf = makeBombPdf(Array.from({ length: 5 }, () => ({ data: zerosDeflate(4 * MiB) })));
    const err = await refusal(ingest(pdf, { streamBytes: 8 * MiB, documentBytes: 16 * MiB }));
    expect(err).toBeInstanceOf(DocumentInputError);
    expect((err as DocumentInputError).code).toBe('invalid_document');
    expect((err as DocumentInputError).message).toMatch(/more than 16 MB \(the limit for one document\)/);
    expect(await refusal(ingest(pdf, { streamBytes: 8 * MiB, documentBytes: 32 * MiB }))).toBe('ok');
  });

  it('each decoder counts exactly what the stream decodes to: Flate, LZW, RunLength, ASCII85 around Flate (limit = size passes, one byte less is refused)', async () => {
    const text = Buffer.from('BT /F1 12 Tf 72 700 Td (counted, never kept) Tj ET\n'.repeat(2_000));
    const a85 = (b: Uint8Array) => {
      let s = '';
      for (let i = 0; i < b.length; i += 4) {
        const chunk = [0, 1, 2, 3].map((k) => b[i + k] ?? 0);
        let n = ((chunk[0]! << 24) | (chunk[1]! << 16) | (chunk[2]! << 8) | chunk[3]!) >>> 0;
        const digits: string[] = [];
        for (let k = 0; k < 5; k++) {
          digits.unshift(String.fromCharCode(33 + (n % 85)));
          n = Math.floor(n / 85);
        }
        s += digits.slice(0, Math.min(5, b.length - i + 1)).join('');
      }
      return Buffer.from(`${s}~>`, 'latin1');
    };
    const runs = Buffer.alloc(2 * 4096);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 129; // 128 copies of the next byte
    const cases: [string, { data: Uint8Array; filter: string }, number][] = [
      ['Flate', { data: deflateSync(text), filter: 'FlateDecode' }, text.length],
      ['LZW', { data: lzwEncode(text), filter: 'LZWDecode' }, text.length],
      ['RunLength', { data: runs, filter: 'RunLengthDecode' }, 4096 * 128],
      [
        'ASCII85+Flate',
        { data: a85(deflateSync(text)), filter: '[/ASCII85Decode /FlateDecode]' },
        text.length,
      ],
    ];
    for (const [label, s, size] of cases) {
      const pdf = makeBombPdf([
        {
          data: s.data,
          filter: s.filter.startsWith('[') ? '' : s.filter,
          dict: s.filter.startsWith('[') ? `/Filter ${s.filter}` : '',
        },
      ]);
      expect(await refusal(ingest(pdf, { streamBytes: size })), label).toBe('ok');
      const err = await refusal(ingest(pdf, { streamBytes: size - 1 }));
      expect(err, label).toBeInstanceOf(DocumentInputError);
    }
  });

  it('an image counts its pixels whatever its codec: a small "JPEG" declaring 60,000 × 60,000 pixels is invalid_document', async () => {
    const image = {
      data: Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
      filter: 'DCTDecode',
      dict: '/Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceRGB /BitsPerComponent 8',
    };
    const err = await refusal(ingest(makeBombPdf([], [image])));
    expect(err).toBeInstanceOf(DocumentInputError);
    expect((err as DocumentInputError).message).toMatch(/stream or image that decompresses/);
    expect(
      await refusal(ingest(makeBombPdf([], [{ ...image, dict: image.dict.replaceAll('60000', '2000') }]))),
    ).toBe('ok');
  });

  it('the default limits let a 200-page document of images through', async () => {
    const doc = await ingest(await makeLargePdf(200));
    expect(doc.pages).toHaveLength(200);
  }, 120_000);
});

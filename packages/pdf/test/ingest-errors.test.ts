import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { DocumentInputError, ingestDocument, sniffFileType } from '../src/ingest/index.ts';
import {
  concat,
  makeAvifImage,
  makeBmpImage,
  makeCorruptPdf,
  makeGifImage,
  makeHandWrittenTagPdf,
  makeJpegImage,
  makePlainPdf,
  makePngImage,
  makeTaggedPdf,
  makeWebpImage,
} from './ingest-fixtures.ts';

const text = (s: string) => new TextEncoder().encode(s);

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (e instanceof DocumentInputError) return e.code;
    throw e;
  }
}

describe('file type sniffing (spec Errors: invalid_file_type)', () => {
  it('recognises PDFs (header within the first 1024 bytes) and common images by their bytes', async () => {
    expect(sniffFileType(await makePlainPdf(1))).toEqual({ kind: 'pdf', mimeType: 'application/pdf' });
    expect(sniffFileType(concat(text('junk before the header\n'), await makePlainPdf(1))).kind).toBe('pdf');
    expect(sniffFileType(await makePngImage(4, 4)).mimeType).toBe('image/png');
    expect(sniffFileType(await makeJpegImage(4, 4)).mimeType).toBe('image/jpeg');
    expect(sniffFileType(await makeWebpImage(4, 4)).mimeType).toBe('image/webp');
    expect(sniffFileType(makeGifImage(4, 4)).mimeType).toBe('image/gif');
    expect(sniffFileType(makeBmpImage(4, 4)).mimeType).toBe('image/bmp');
    expect(sniffFileType(await makeAvifImage(8, 8)).mimeType).toBe('image/avif');
    expect(sniffFileType(Uint8Array.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8])).mimeType).toBe('image/tiff');
  });

  it('anything else is unknown: text, SVG, ZIP/DOCX, a text that merely starts with "BM"', () => {
    for (const s of [
      'hello',
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'PK\x03\x04 docx',
      'BMW owners manual, 2024 edition.',
    ])
      expect(sniffFileType(text(s))).toEqual({ kind: 'unknown', mimeType: 'application/octet-stream' });
    expect(sniffFileType(new Uint8Array(0)).kind).toBe('unknown');
  });
});

describe('invalid documents (spec Errors: invalid_document, invalid_file_type)', () => {
  it('an empty document is invalid_document', async () => {
    const err = await ingestDocument({ bytes: new Uint8Array(0) }).catch((e: DocumentInputError) => e);
    expect(err).toBeInstanceOf(DocumentInputError);
    expect(err).toMatchObject({ code: 'invalid_document', message: 'The document is empty' });
  });

  it('a file that is neither PDF nor image is invalid_file_type', async () => {
    const err = await ingestDocument({ bytes: text('name,email\nJane,jane@example.com\n') }).catch((e) => e);
    expect(err).toMatchObject({
      code: 'invalid_file_type',
      message: expect.stringContaining('neither a PDF nor'),
    });
  });

  it('a PDF header followed by garbage is invalid_document', async () => {
    const err = await ingestDocument({ bytes: makeCorruptPdf() }).catch((e) => e);
    expect(err).toBeInstanceOf(DocumentInputError);
    expect(err.code).toBe('invalid_document');
  });

  it('a PDF without pages is invalid_document', async () => {
    const empty = await (await PDFDocument.create()).save({ addDefaultPage: false });
    const err = await ingestDocument({ bytes: empty }).catch((e) => e);
    expect(err).toMatchObject({ code: 'invalid_document', message: 'The PDF has no pages' });
  });

  it('a PDF with a broken cross-reference table is repaired (with a warning) and stored rewritten', async () => {
    // Without object streams, so every object can be found by scanning the file.
    const pdf = await (await PDFDocument.load(await makeTaggedPdf())).save({ useObjectStreams: false });
    const broken = new Uint8Array(
      Buffer.from(
        Buffer.from(pdf)
          .toString('latin1')
          .replace(/startxref\s+\d+/, 'startxref\n999999'),
        'latin1',
      ),
    );
    const doc = await ingestDocument({ bytes: broken });
    expect(doc.pages).toHaveLength(2);
    expect(doc.fields.length).toBeGreaterThan(0);
    expect(doc.warnings).toContain('The PDF was damaged; its structure was rebuilt');
  });

  it('truncated PDFs either recover or fail with invalid_document', async () => {
    const pdf = await makeTaggedPdf();
    for (const fraction of [0.1, 0.5, 0.9]) {
      const code = await codeOf(
        ingestDocument({ bytes: pdf.subarray(0, Math.floor(pdf.length * fraction)) }),
      );
      expect(['ok', 'invalid_document']).toContain(code);
    }
  });

  it('never crashes on mutated input: every outcome is a result or a DocumentInputError', {
    timeout: 60_000,
  }, async () => {
    // Uncompressed content streams, so mutations reach the content-stream tokenizer too.
    const bases = [await makeHandWrittenTagPdf(), await makeTaggedPdf()];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const outcomes = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const base = bases[i % bases.length]!;
      const mutated = base.slice();
      const edits = 1 + rand(8);
      for (let k = 0; k < edits; k++) {
        const pos = 10 + rand(mutated.length - 10);
        mutated[pos] = rand(3) === 0 ? '{[(<>)]}/%\\'.charCodeAt(rand(11)) : rand(256);
      }
      // Tight limits: one of these mutations sends @libpdf/core's recovery parser into an endless,
      // allocating loop; the worker is stopped at its heap limit instead of the process dying.
      outcomes.add(
        await codeOf(ingestDocument({ bytes: mutated, limits: { maxHeapMb: 256, timeoutMs: 2000 } })),
      );
    }
    expect([...outcomes].every((c) => ['ok', 'invalid_document', 'pdf_encrypted'].includes(c))).toBe(true);
  });
});

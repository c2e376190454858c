/**
 * Document ingest pipeline: a pure library (no database, no HTTP) that turns an uploaded file
 * into the PDF a template stores, plus its page sizes and the fields found in it.
 *
 * - `sniffFileType` identifies PDFs and images by their bytes.
 * - `ingestDocument` opens (and decrypts) a PDF or converts an image to a one-page PDF (image.ts),
 *   reads page sizes as displayed, turns text tags (grammar in tags.ts) and AcroForm fields
 *   (mapping in acroform.ts) into fields, and removes the tags' text from the page content
 *   (content/rewrite.ts). It runs in a worker thread with memory and time limits (isolate.ts).
 * - `renderPagePng` and `getPageCount` work on stored (unencrypted) PDFs.
 *
 * Errors the caller must fix are `DocumentInputError`s carrying the spec's code:
 * `invalid_document` (empty, damaged, not a readable PDF or image, image too large, too slow or
 * too memory-hungry to process), `invalid_file_type` (neither PDF nor a supported image),
 * `pdf_encrypted` (no password, a wrong password, or only the user password for a file whose
 * permissions forbid changes) and `invalid_field` (malformed text tag, with `tagErrors: 'error'`).
 */
import { DocumentInputError } from './errors.ts';
import { ingestInProcess } from './ingest-core.ts';
import { IsolationUnavailableError, ingestIsolated } from './isolate.ts';
import { sniffFileType } from './sniff.ts';
import type { IngestedDocument, IngestInput } from './types.ts';

export { DocumentInputError, type DocumentInputErrorCode } from './errors.ts';
export { imagePageSize } from './image.ts';
export type { IsolationLimits } from './isolate.ts';
export { getPageCount, type RenderOptions, renderPagePng } from './render.ts';
export { type SniffedKind, type SniffResult, sniffFileType } from './sniff.ts';
export { parseTag, type TagParseResult, type TagSpec } from './tags.ts';
export {
  type DetectedField,
  FIELD_TYPES,
  type FieldArea,
  type FieldType,
  type IngestedDocument,
  type IngestInput,
  type PageInfo,
} from './types.ts';

let isolationAvailable = true;

/**
 * Ingests one uploaded document. Rejects only with `DocumentInputError` for bad input. The
 * returned `pdf` is the input itself (no copy) when nothing had to change.
 */
export async function ingestDocument(input: IngestInput): Promise<IngestedDocument> {
  const { bytes } = input ?? {};
  if (!(bytes instanceof Uint8Array) || bytes.length === 0)
    throw new DocumentInputError('invalid_document', 'The document is empty');
  // Cheap rejections stay in this thread; everything that parses the file goes to the worker.
  if (sniffFileType(bytes).kind === 'unknown' || input.isolate === false || !isolationAvailable)
    return ingestInProcess(input);
  try {
    return await ingestIsolated(input, input.limits);
  } catch (e) {
    if (!(e instanceof IsolationUnavailableError)) throw e;
    isolationAvailable = false;
    return ingestInProcess(input);
  }
}

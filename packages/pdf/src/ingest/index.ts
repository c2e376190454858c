/**
 * Document ingest pipeline: a pure library (no database, no HTTP) that turns an uploaded file
 * into the PDF a template stores, plus its page sizes and the fields found in it.
 *
 * - `sniffFileType` identifies PDFs and images by their bytes.
 * - `ingestDocument` opens (and decrypts) a PDF or converts an image to a one-page PDF (image.ts),
 *   reads page sizes as displayed, turns text tags (grammar in tags.ts) and AcroForm fields
 *   (mapping in acroform.ts) into fields, and removes the tags' text from the page content
 *   (content/rewrite.ts). It runs in a worker process with memory and time limits (isolate.ts).
 * - `renderPagePng`, `renderPagesPng` (in the same pool) and `getPageCount` work on stored
 *   (unencrypted) PDFs; `sealInPool`, `auditTrailInPool` and `combineInPool` seal in the same pool.
 * - The pool of worker processes is shared by the process: `configureDocumentPool` sets its size and
 *   per-document limits, and `tenant` gives each account a fair share of it (isolate-pool.ts).
 *
 * Errors the caller must fix are `DocumentInputError`s carrying the spec's code:
 * `invalid_document` (empty, damaged, not a readable PDF or image, image too large, too slow or
 * too memory-hungry to process), `invalid_file_type` (neither PDF nor a supported image),
 * `pdf_encrypted` (no password, a wrong password, or only the user password for a file whose
 * permissions forbid changes) and `invalid_field` (malformed text tag, with `tagErrors: 'error'`).
 */

// What a process needs to hand documents to the pool is the `@esign/pdf/pool` entry (pool.ts);
// this entry has all of it plus the libraries that do the work.
export * from '../pool.ts';
export { imagePageSize } from './image.ts';
export { getPageCount } from './render.ts';
export { type SniffedKind, type SniffResult, sniffFileType } from './sniff.ts';
export {
  parseTag,
  TAG_DEFAULT_SIZES,
  TAG_MIN_HEIGHTS,
  type TagParseResult,
  type TagSpec,
} from './tags.ts';
export {
  type DetectedField,
  type DetectedRole,
  FIELD_TYPES,
  type FieldArea,
  type FieldType,
  type IngestedDocument,
  type IngestInput,
  type PageInfo,
} from './types.ts';

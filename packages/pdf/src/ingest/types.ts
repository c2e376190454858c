/** Public types of the ingest pipeline (see index.ts for the functions). */

import { FIELD_TYPES, type FieldType, OPTION_FIELD_TYPES } from '@esign/domain';

/** Field types of the spec's template field (`type`); @esign/domain owns the list. */
export { FIELD_TYPES, type FieldType };

/** Field types whose definition needs `options` (spec: field definition `options`). */
export const TYPES_WITH_OPTIONS: readonly FieldType[] = OPTION_FIELD_TYPES;

export interface FieldArea {
  /** 1-based page number. */
  page: number;
  /** Fractions 0..1 of the page as displayed (rotation applied), origin top-left. */
  x: number;
  y: number;
  w: number;
  h: number;
  /**
   * Text tags of fields holding text: the font size (points) the tag is written at, so the seal
   * draws the value at the size of the text around it (issue 33 item 2).
   */
  fontSize?: number;
}

export interface DetectedField {
  name?: string;
  type: FieldType;
  role?: string;
  required: boolean;
  options?: string[];
  areas: FieldArea[];
  source: 'text_tag' | 'form';
  /** Issue 46: a text tag's conditions, formula, format and validation (tag-logic.ts) */
  logic?: Record<string, unknown>;
}

/**
 * Issue 47: a role tag (`{{role=Manager;kind=approver}}`, tags.ts): the part its role plays, and
 * how many of the document's fields came before it (where the role stands among the roles).
 */
export interface DetectedRole {
  role: string;
  kind: 'signer' | 'approver' | 'viewer';
  fieldsBefore: number;
}

export interface PageInfo {
  /** Points, as displayed (CropBox, rotation applied). */
  width: number;
  height: number;
}

export interface IngestedDocument {
  /** The PDF to store: decrypted copy when a password was given, image converted to a PDF page, text tags removed. */
  pdf: Uint8Array;
  kind: 'pdf' | 'image';
  /** Sniffed type of the input (application/pdf, image/png, ...). */
  mimeType: string;
  pages: PageInfo[];
  /** From text tags and fillable AcroForm fields. */
  fields: DetectedField[];
  /** Issue 47: the role tags, in the order they are written (absent: none). */
  roles?: DetectedRole[];
  /** Non-fatal problems, e.g. a malformed tag that was skipped. */
  warnings: string[];
  /**
   * SHA-256 (hex) of the uploaded bytes and of `pdf`, computed where the document is processed (a
   * worker of the pool): hashing a 25 MB file takes ~13 ms that the caller's event loop is spared.
   */
  inputSha256: string;
  sha256: string;
}

export interface IngestInput {
  bytes: Uint8Array;
  /** Password for an encrypted PDF (user or owner password). */
  password?: string;
  /**
   * How malformed text tags are reported: `'warn'` (default) skips them with a warning and leaves
   * their text on the page; `'error'` throws `DocumentInputError('invalid_field')`.
   */
  tagErrors?: 'warn' | 'error';
  /**
   * Run in a worker thread with memory and time limits (default true). `false` runs in the
   * calling thread: faster for tiny files, but a pathological file can then exhaust the process.
   */
  isolate?: boolean;
  /** Limits for the worker thread (default: the pool's, see `configureDocumentPool`). */
  limits?: { timeoutMs?: number; maxHeapMb?: number };
  /**
   * The most (bytes) one stream and all streams of a PDF may decompress to; beyond it the document
   * is `invalid_document` (a decompression bomb, inflation.ts). Default: the pool's, see
   * `configureDocumentPool` (128 MB per stream, 2 GB per document).
   */
  inflation?: { streamBytes?: number; documentBytes?: number };
  /**
   * Whose document this is (an account id): the shared pool runs only a few documents of one
   * tenant at once, so one tenant's slow documents never hold every worker. Unset: a key of its own.
   */
  tenant?: string;
}

/**
 * Error thrown by the ingest pipeline for input the caller must fix. `code` is one of the spec's
 * error codes (Errors table) so an adapter can map it to `422 <code>` without parsing the message.
 */
export type DocumentInputErrorCode =
  | 'invalid_document'
  | 'invalid_file_type'
  | 'pdf_encrypted'
  | 'invalid_field';

export class DocumentInputError extends Error {
  override readonly name = 'DocumentInputError';
  // A declared field rather than a parameter property, so the module also loads under Node's
  // type stripping (the ingest worker thread runs this code without a TypeScript loader).
  readonly code: DocumentInputErrorCode;

  constructor(code: DocumentInputErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The bytes given to seal are not the document that was sent: their SHA-256 (`actualSha256`)
 * differs from the one the caller expected. Checked in the worker before anything parses them.
 */
export class SealInputMismatchError extends Error {
  override readonly name = 'SealInputMismatchError';
  readonly actualSha256: string;

  constructor(actualSha256: string) {
    super(`the bytes given to seal have SHA-256 ${actualSha256}, not the one expected`);
    this.actualSha256 = actualSha256;
  }
}

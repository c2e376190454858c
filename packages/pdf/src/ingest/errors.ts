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

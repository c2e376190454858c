import type { MessageKey } from '@esign/i18n';

/** Every error code of the specification's Errors table, with its HTTP status. */
export const ERROR_STATUS = {
  invalid_json: 400,
  unauthenticated: 401,
  api_key_expired: 401,
  insufficient_credits: 402,
  read_only_api_key: 403,
  insufficient_scope: 403,
  not_available: 403,
  forbidden: 403,
  not_found: 404,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  missing_parameter: 422,
  invalid_parameter: 422,
  invalid_request: 422,
  missing_documents: 422,
  too_many_documents: 422,
  document_too_large: 422,
  invalid_document: 422,
  invalid_file_type: 422,
  invalid_field: 422,
  template_has_no_fields: 422,
  template_archived: 422,
  pdf_encrypted: 422,
  missing_signers: 422,
  invalid_signer: 422,
  already_completed: 422,
  not_open: 422,
  nothing_to_remind: 422,
  signer_finished: 422,
  invalid_discount_code: 422,
  already_purchased: 422,
  billing_details_required: 422,
  rate_limited: 429,
  remind_too_soon: 429,
  internal_error: 500,
  payment_provider_error: 502,
} as const satisfies Record<string, number>;

/**
 * Codes this service answers beyond the specification's table (README, "Errors"): `507
 * storage_full` when the disk (DATA_DIR) has no space left for what a call must write; the call
 * can be retried once space is back (`Retry-After`), and everything else keeps being served.
 */
const EXTENSION_ERROR_STATUS = { storage_full: 507 } as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS | keyof typeof EXTENSION_ERROR_STATUS;

const STATUS_OF: Record<ErrorCode, number> = { ...ERROR_STATUS, ...EXTENSION_ERROR_STATUS };

/** The HTTP status of any code the service answers (the specification's or an extension). */
export const errorStatus = (code: ErrorCode): number => STATUS_OF[code];

/** The system error codes of a full disk (or an exhausted quota). */
const STORAGE_FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);

/** Whether `err` (or an error it wraps) is a write refused for lack of space. */
export function isStorageFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && STORAGE_FULL_ERRNO.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** `507 storage_full`: what a call that must write answers while the disk is full. */
export function storageFull(): CoreError {
  return new CoreError(
    'storage_full',
    'The server has no storage space left for this right now; nothing was changed. Retry later.',
    { retryAfterSeconds: 60 },
  );
}

/**
 * What an error may carry beside its English message: the wait a `rate_limited` answer asks for,
 * and, for refusals a signer reads on the signing page (issue 32), the catalogue message saying
 * the same in the signer's language (@esign/i18n; tRPC `data.messageKey` and `data.messageValues`,
 * which the page formats in its language; the REST and MCP answers keep the English message).
 */
export interface CoreErrorDetails {
  retryAfterSeconds?: number;
  /**
   * The service cannot answer now (its database does not): HTTP 503 instead of the code's status.
   * The specification's Errors table has no code of its own for it; such an error keeps the
   * retryable `internal_error` ("server-side failure; retry") and says when in `Retry-After`.
   */
  unavailable?: true;
  messageKey?: MessageKey;
  messageValues?: Record<string, string | number>;
  /** Issue 44: the request's brand, for the page a finished or closed signing link shows. */
  brand?: {
    name: string;
    logo: string | null;
    primary_color: string;
    accent_color: string;
    support_email: string | null;
    support_url: string | null;
  };
}

/** The one error type services throw. Adapters map it: REST envelope, MCP isError, tRPC data.code. */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  readonly code: ErrorCode;
  readonly details: CoreErrorDetails;
  constructor(code: ErrorCode, message: string, details: CoreErrorDetails = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return this.details.unavailable ? 503 : STATUS_OF[this.code];
  }
}

export const INTERNAL_ERROR_MESSAGE =
  'Something went wrong on our side. Retry the request (reuse the same Idempotency-Key for POST requests).';

/** How long a client is asked to wait when the database did not answer in time (Retry-After). */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** A request the database did not answer in time (DATABASE_*_TIMEOUT_SECONDS): 503, retry. */
export function databaseUnavailable(): CoreError {
  return new CoreError(
    'internal_error',
    'The database did not answer in time. Retry the request after Retry-After seconds (reuse the same Idempotency-Key for POST requests).',
    { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS, unavailable: true },
  );
}

export function notFound(what: string, id: number | string): CoreError {
  return new CoreError('not_found', `${what} ${id} was not found`);
}

/** How error messages name a field of the input: `signers[0].email`. */
export function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc ? `${acc}.${String(key)}` : String(key);
  }, '');
}

import type { AddressClass } from './address.ts';

/**
 * Every failure of an outbound request (webhook delivery, document URL download) is one of these
 * classes, each with a stable `code`, so callers branch on the code, never on a message.
 */
export type OutboundErrorCode =
  | 'blocked'
  | 'too_large'
  | 'timeout'
  | 'dns_error'
  | 'connection_error'
  | 'too_many_redirects'
  | 'invalid_redirect'
  | 'bad_status';

export abstract class OutboundError extends Error {
  abstract readonly code: OutboundErrorCode;
}

/** Why a URL or address was refused before any connection was made. */
export type BlockedReason = 'invalid_url' | 'protocol' | 'credentials' | 'private_address';

/** The URL is malformed, uses a refused protocol, or resolves to a non-public address. */
export class OutboundBlockedError extends OutboundError {
  readonly code = 'blocked' as const;
  override readonly name = 'OutboundBlockedError';
  readonly reason: BlockedReason;
  /** The refused address, when `reason` is `private_address`. */
  readonly address: string | undefined;
  readonly addressClass: AddressClass | undefined;

  constructor(
    reason: BlockedReason,
    message: string,
    details: { address?: string; addressClass?: AddressClass } = {},
  ) {
    super(message);
    this.reason = reason;
    this.address = details.address;
    this.addressClass = details.addressClass;
  }
}

/** The response body (or its declared Content-Length) exceeded `maxBytes`; the transfer was aborted. */
export class OutboundTooLargeError extends OutboundError {
  readonly code = 'too_large' as const;
  override readonly name = 'OutboundTooLargeError';
  readonly maxBytes: number;

  constructor(maxBytes: number, message = `Response body exceeds ${maxBytes} bytes`) {
    super(message);
    this.maxBytes = maxBytes;
  }
}

/** The whole exchange (every redirect hop, headers and body) did not finish within `timeoutMs`. */
export class OutboundTimeoutError extends OutboundError {
  readonly code = 'timeout' as const;
  override readonly name = 'OutboundTimeoutError';
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`No complete response within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

export type OutboundHttpErrorCode =
  | 'dns_error'
  | 'connection_error'
  | 'too_many_redirects'
  | 'invalid_redirect'
  | 'bad_status';

/**
 * The HTTP exchange itself failed: the name did not resolve, the connection or TLS handshake
 * failed, redirects went wrong, or (with `requireOk`) the final status was not 2xx.
 */
export class OutboundHttpError extends OutboundError {
  override readonly name = 'OutboundHttpError';
  readonly code: OutboundHttpErrorCode;
  /** The response status, for `bad_status`, `too_many_redirects` and `invalid_redirect`. */
  readonly status: number | null;

  constructor(
    code: OutboundHttpErrorCode,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? null;
  }
}

import type { AppRouter } from '@esign/core';
import { en } from '@esign/i18n/catalogues/en';
import type { MessageKey, MessageValues } from '@esign/i18n/core';
import { TRPCClientError } from '@trpc/client';
import { tr } from './i18n.ts';
import type { OpenResult } from './types.ts';

/**
 * A failed call as the page sees it: the API's stable error code (or `network` when the server
 * could not be reached), the server's message, and the wait a `rate_limited` answer asks for.
 *
 * This file is the one place where failures become what the page shows: toApiError() reads every
 * kind of failure, CLOSED and NEEDS_CODE decide where the page goes next, and status.ts holds the
 * full-page texts per code. Change the words a signer sees for an error here or in status.ts.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly retryAfterSeconds: number | null;
  /** The catalogue key of the server's refusal, when it named one (which input it is about). */
  readonly messageKey: string | null;
  /** Issue 44: the request's brand, which the page of a finished or closed link still shows. */
  brand: OpenResult['brand'] | undefined;
  constructor(
    code: string,
    message: string,
    retryAfterSeconds: number | null = null,
    messageKey: string | null = null,
  ) {
    super(message);
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
    this.messageKey = messageKey;
  }
}

/** Codes after which this link cannot be used any more: the page shows why instead. */
export const CLOSED: ReadonlySet<string> = new Set([
  'not_found',
  'not_open',
  'signer_finished',
  'template_archived',
  'expired',
  'canceled',
]);

/** The email-code session is missing or has lapsed: show the code gate again. */
export const NEEDS_CODE: ReadonlySet<string> = new Set(['unauthenticated', 'forbidden']);

/** Errors the HTTP layer answers before tRPC runs (a body over the size limit) use the REST envelope. */
function fromRestEnvelope(json: unknown): ApiError | null {
  const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error.code !== 'string') return null;
  return new ApiError(
    error.code,
    typeof error.message === 'string' ? error.message : tr('problem.request_failed'),
  );
}

/** What core adds to a refusal a signer reads (CoreErrorDetails): the catalogue's words for it. */
interface SignerMessage {
  messageKey?: string;
  messageValues?: MessageValues;
}

/** The server's refusal in the page's language (issue 32), or null when it names no known message. */
function inPageLanguage(data: SignerMessage): string | null {
  const key = data.messageKey;
  return key && key in en ? tr(key as MessageKey, data.messageValues) : null;
}

/** Any error a signing call throws, as an ApiError. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof TRPCClientError) {
    const err = e as TRPCClientError<AppRouter>;
    // Failures api.ts's transport raised itself (network down, an answer that is not JSON).
    if (err.cause instanceof ApiError) return err.cause;
    // The procedure's own error: core's error formatter puts the API code in data.code.
    if (err.data) {
      const message = inPageLanguage(err.data as SignerMessage) ?? err.message;
      const key = (err.data as SignerMessage).messageKey ?? null;
      const apiError = new ApiError(err.data.code, message, err.data.retryAfterSeconds ?? null, key);
      apiError.brand = (err.data as { brand?: OpenResult['brand'] }).brand;
      return apiError;
    }
    const rest = fromRestEnvelope(err.meta?.responseJSON);
    if (rest) return rest;
  }
  return new ApiError('internal_error', tr('problem.something_wrong'));
}

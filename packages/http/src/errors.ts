import { CoreError, databaseUnavailable, type ErrorCode } from '@esign/core';
import { isDatabaseUnavailable } from '@esign/db';
import type { FastifyReply } from 'fastify';

export function envelope(code: ErrorCode, message: string) {
  return { error: { code, message } };
}

/** Sends the spec's error envelope with the code's status (and Retry-After when known). */
export function sendError(reply: FastifyReply, error: CoreError) {
  if (error.details.retryAfterSeconds !== undefined)
    reply.header('Retry-After', String(error.details.retryAfterSeconds));
  return reply.code(error.status).type('application/json').send(envelope(error.code, error.message));
}

/**
 * Errors a body parser or Fastify itself raised before our code ran. A request the client must
 * fix is never a 500 (a 500 tells clients to retry).
 */
export function fromFastifyError(err: { code?: string; statusCode?: number; message: string }): CoreError {
  if (err instanceof CoreError) return err;
  // The database did not answer in time under a hook (authentication, the idempotency claim).
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
    return new CoreError(
      'invalid_request',
      'Unsupported Content-Type: send application/json (or multipart/form-data where allowed)',
    );
  }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413)
    return new CoreError('invalid_request', 'The request body is too large');
  if (err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    return new CoreError('invalid_request', 'The request body does not match its Content-Length');
  if (err.statusCode === 400) return new CoreError('invalid_json', 'The request body is not valid JSON');
  if (err.statusCode !== undefined && err.statusCode > 400 && err.statusCode < 500)
    return new CoreError('invalid_request', 'The request could not be processed');
  return new CoreError('internal_error', 'Internal error');
}

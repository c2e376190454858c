import { CoreError, ERROR_STATUS, type ErrorCode } from '@esign/core';
import type { FastifyReply } from 'fastify';

export function envelope(code: ErrorCode, message: string) {
  return { error: { code, message } };
}

/** Sends the spec's error envelope with the code's status (and Retry-After when known). */
export function sendError(reply: FastifyReply, error: CoreError) {
  if (error.details.retryAfterSeconds !== undefined)
    reply.header('Retry-After', String(error.details.retryAfterSeconds));
  return reply
    .code(ERROR_STATUS[error.code])
    .type('application/json')
    .send(envelope(error.code, error.message));
}

/** Errors a body parser or Fastify itself raised before our code ran. */
export function fromFastifyError(err: { code?: string; statusCode?: number; message: string }): CoreError {
  if (err instanceof CoreError) return err;
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new CoreError(
      'invalid_request',
      'Unsupported Content-Type: send application/json (or multipart/form-data where allowed)',
    );
  }
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new CoreError('invalid_request', 'The request body is too large');
  if (err.statusCode === 400) return new CoreError('invalid_json', 'The request body is not valid JSON');
  return new CoreError('internal_error', 'Internal error');
}

/** RateLimit-* on every authenticated response (REST and MCP). */
export function setRateLimitHeaders(
  reply: FastifyReply,
  limit: { limit: number; remaining: number; resetSeconds: number },
) {
  reply.header('RateLimit-Limit', String(limit.limit));
  reply.header('RateLimit-Remaining', String(limit.remaining));
  reply.header('RateLimit-Reset', String(limit.resetSeconds));
}

import type { components } from './openapi.ts';

/** Every error code the API documents (the spec's Errors table, from the OpenAPI document). */
export type ErrorCode = components['schemas']['Error']['error']['code'];

/**
 * A refused request: the HTTP status and the API's `{ error: { code, message } }`. Branch on
 * `code`, never on the message (spec, Errors). `retryAfter` is the `Retry-After` header in seconds.
 */
export class EsignApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'unexpected_response';
  readonly requestId: string | null;
  readonly retryAfter: number | null;

  constructor(o: {
    status: number;
    code: ErrorCode | 'unexpected_response';
    message: string;
    requestId: string | null;
    retryAfter: number | null;
  }) {
    super(o.message);
    this.name = 'EsignApiError';
    this.status = o.status;
    this.code = o.code;
    this.requestId = o.requestId;
    this.retryAfter = o.retryAfter;
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(response: Response, nowMs = Date.now()): number | null {
  const value = response.headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** The error a non-2xx response stands for (its body read once, here). */
export async function errorFromResponse(response: Response): Promise<EsignApiError> {
  const text = await response.text();
  type Envelope = { error?: { code?: unknown; message?: unknown } } | null;
  let parsed: Envelope = null;
  try {
    parsed = JSON.parse(text) as Envelope;
  } catch {
    parsed = null;
  }
  const code = parsed?.error?.code;
  const message = parsed?.error?.message;
  const known = typeof code === 'string' && typeof message === 'string';
  return new EsignApiError({
    status: response.status,
    code: known ? (code as ErrorCode) : 'unexpected_response',
    message: known ? message : `HTTP ${response.status}: ${text.slice(0, 200)}`,
    requestId: response.headers.get('x-request-id'),
    retryAfter: retryAfterSeconds(response),
  });
}

import { OutboundError } from './errors.ts';
import { guardedFetch } from './outbound.ts';
import type { ResolveHost } from './outbound-policy.ts';

/** The receiver must answer any 2xx within 30 seconds (spec, Events, Delivery rules; `WEBHOOK_TIMEOUT_SECONDS`). */
export const WEBHOOK_TIMEOUT_MS = 30_000;

/** Characters of the response body kept on the delivery record. */
export const RESPONSE_EXCERPT_CHARS = 500;

// Enough bytes for RESPONSE_EXCERPT_CHARS characters of any UTF-8 text; the rest is never read.
const RESPONSE_READ_BYTES = RESPONSE_EXCERPT_CHARS * 4;

export interface DeliverWebhookInput {
  /** The endpoint URL. */
  url: string;
  /** Exactly as returned by buildDeliveryRequest: the signed body and its headers. */
  body: string;
  headers: Record<string, string>;
  /** Default 30 000 ms. */
  timeoutMs?: number;
  /** `WEBHOOK_ALLOW_PRIVATE`; default false. */
  allowPrivate?: boolean;
  allowedAddresses?: readonly string[];
  lookup?: ResolveHost;
}

export interface DeliveryAttemptResult {
  /** A 2xx arrived within the time limit. */
  ok: boolean;
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, readable; null when ok. */
  error: string | null;
  /** Stable failure code: an OutboundError code, `http_status` for a non-2xx answer, or `request_error`. */
  errorCode: string | null;
  /** The first 500 characters of the response body. */
  responseExcerpt: string;
}

/**
 * Performs one delivery attempt: POSTs the signed body through guardedFetch (address checks again
 * at delivery time, DNS pinning, time limit) and reports the outcome instead of throwing. Redirects
 * are not followed: the signed request goes to the configured URL or nowhere, and a 3xx counts as
 * a failed attempt, retried like any other non-2xx answer. Scheduling the retry is the caller's job
 * (nextRetryDelaySeconds).
 */
export async function deliverWebhook(input: DeliverWebhookInput): Promise<DeliveryAttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await guardedFetch(input.url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      timeoutMs: input.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      maxBytes: RESPONSE_READ_BYTES,
      onTooLarge: 'truncate',
      maxRedirects: 0,
      ...(input.allowPrivate === undefined ? {} : { allowPrivate: input.allowPrivate }),
      ...(input.allowedAddresses === undefined ? {} : { allowedAddresses: input.allowedAddresses }),
      ...(input.lookup === undefined ? {} : { lookup: input.lookup }),
    });
    const ok = response.status >= 200 && response.status <= 299;
    return {
      ok,
      status: response.status,
      durationMs: elapsed(),
      error: ok ? null : `Endpoint answered HTTP ${response.status}`,
      errorCode: ok ? null : 'http_status',
      responseExcerpt: excerpt(response.body),
    };
  } catch (error) {
    const known = error instanceof OutboundError;
    return {
      ok: false,
      status: null,
      durationMs: elapsed(),
      error: error instanceof Error ? error.message : String(error),
      errorCode: known ? error.code : 'request_error',
      responseExcerpt: '',
    };
  }
}

function excerpt(body: Uint8Array): string {
  if (body.length === 0) return '';
  // ASCII (most answers): the same characters as the UTF-8 decoding, without a decoder.
  const text = isAscii(body)
    ? Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1')
    : new TextDecoder('utf-8', { fatal: false }).decode(body, { stream: true });
  // No more UTF-16 units than the limit: no more characters either.
  return text.length <= RESPONSE_EXCERPT_CHARS
    ? text
    : Array.from(text).slice(0, RESPONSE_EXCERPT_CHARS).join('');
}

function isAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b > 0x7f) return false;
  return true;
}

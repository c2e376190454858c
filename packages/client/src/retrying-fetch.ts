import { retryAfterSeconds } from './errors.ts';

export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  maxRetries?: number;
  /** The first back-off when the server names no `Retry-After` (default 500 ms, doubled each time). */
  baseDelayMs?: number;
  /** The longest wait, `Retry-After` included (default 60 s); a longer one is not waited for. */
  maxDelayMs?: number;
  /** How to wait (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Statuses worth the same request again (spec, Errors, retry guidance): 429 after `Retry-After`,
 * 409 `idempotency_key_in_use` after a short wait with the same key, 500/502/503/504.
 */
const RETRIED = new Set([409, 429, 500, 502, 503, 504]);

function withIdempotencyKey(request: Request): Request {
  if (request.method !== 'POST' || request.headers.has('idempotency-key')) return request;
  // One key per logical request, kept across its retries: a retry of a POST that did happen is
  // answered with the first result instead of doing it twice (spec, Idempotency rules).
  const headers = new Headers(request.headers);
  headers.set('Idempotency-Key', crypto.randomUUID());
  return new Request(request, { headers });
}

/**
 * A fetch that adds an `Idempotency-Key` to every POST that has none and retries refused or failed
 * attempts (429 and 5xx; 409 only for a POST with its key), honouring `Retry-After`.
 */
export function retryingFetch(base: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const maxRetries = options.maxRetries ?? 3;
  const baseDelay = options.baseDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? sleepFor;
  return async (input, init) => {
    const request = withIdempotencyKey(new Request(input, init));
    for (let attempt = 0; ; attempt++) {
      const response = await base(request.clone());
      const retried = RETRIED.has(response.status) && (response.status !== 409 || request.method === 'POST');
      if (!retried || attempt >= maxRetries) return response;
      const named = retryAfterSeconds(response);
      const delay = named === null ? baseDelay * 2 ** attempt : named * 1000;
      if (delay > maxDelay) return response;
      // The refused answer's body is not needed: released before waiting.
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}

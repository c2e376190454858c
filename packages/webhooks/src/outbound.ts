import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { OutboundError, OutboundHttpError, OutboundTimeoutError, OutboundTooLargeError } from './errors.ts';
import { type CheckedUrl, checkUrl, type OutboundPolicy } from './outbound-policy.ts';

// The project's single outbound-fetch guard. Webhook deliveries and document URL downloads both go
// through `guardedFetch`, which connects only to addresses the policy (outbound-policy.ts) allows.

export interface GuardedFetchOptions extends OutboundPolicy {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Total time for everything: DNS, connects, every redirect hop, headers and body. */
  timeoutMs: number;
  /** Largest response body accepted; checked against Content-Length and while streaming. */
  maxBytes: number;
  /**
   * `throw` (default): a larger body aborts the transfer with OutboundTooLargeError.
   * `truncate`: keep the first `maxBytes` bytes, stop reading, and return with `truncated: true`.
   */
  onTooLarge?: 'throw' | 'truncate';
  /**
   * Redirect hops followed, each checked like the first URL. Default 5. With 0 a redirect
   * response is returned as it is; beyond a positive limit OutboundHttpError `too_many_redirects`.
   */
  maxRedirects?: number;
  /** Throw OutboundHttpError `bad_status` when the final status is not 2xx. Default false. */
  requireOk?: boolean;
  /** Extra trusted CA certificates (PEM) for https, on top of the system store. */
  ca?: string | string[];
}

export interface GuardedFetchResult {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** The final URL after redirects. */
  url: string;
  /** True when `onTooLarge: 'truncate'` cut the body at `maxBytes`. */
  truncated: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Set by this module from the URL and the body, or hop-by-hop: never taken from callers.
const FORBIDDEN_REQUEST_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);
// Dropped when a redirect changes origin (fetch standard: Authorization; plus cookies).
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
// Dropped when a redirect turns the request into a body-less GET.
const BODY_HEADERS = new Set(['content-type', 'content-encoding', 'content-language', 'content-location']);

function validateRequestHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw new TypeError(`Invalid header name ${JSON.stringify(name)}`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) {
      throw new TypeError(`Invalid value for header ${name}`);
    }
    if (FORBIDDEN_REQUEST_HEADERS.has(name.toLowerCase())) {
      throw new TypeError(`Header ${name} is set by guardedFetch and cannot be passed`);
    }
  }
}

function assertLimit(name: string, value: number, min: number): void {
  if (!Number.isFinite(value) || value < min) throw new RangeError(`${name} must be a number >= ${min}`);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `net.connect` lookup that never asks DNS: it answers with the addresses that were checked, so
 * a second resolution (DNS rebinding) cannot send the connection elsewhere. TLS still receives the
 * host name for SNI and certificate validation, because undici passes it as `host`/`servername`.
 */
function pinnedLookup(expectedHost: string, addresses: string[]) {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ) => {
    const { family } = options;
    const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
    const usable = entries.filter((e) => wanted === 0 || e.family === wanted);
    if (hostname.toLowerCase() !== expectedHost || usable.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`No checked address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '');
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, v);
      } catch {
        // A header value the Fetch Headers class refuses is dropped rather than failing the request.
      }
    }
  }
  return headers;
}

function undiciCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** Stops reading a response body; the 'error' undici emits for the abort is expected and ignored. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {});
  body.destroy();
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk.subarray(0, length - offset), offset);
    offset += Math.min(chunk.length, length - offset);
    if (offset >= length) break;
  }
  return out;
}

// Connections are kept alive and reused per checked destination: one undici Agent per (origin,
// checked addresses, limits), whose lookup answers only with those addresses. A later request to the
// same origin is checked again (DNS and policy) and reuses the agent only when it resolved to the
// same addresses, so a DNS change can never reach an unchecked address through a pooled socket.
const MAX_AGENTS = 256;
const agents = new Map<string, Agent>();

function agentKey(checked: CheckedUrl, opts: GuardedFetchOptions): string {
  const ca =
    opts.ca === undefined ? '' : createHash('sha256').update([opts.ca].flat().join('\n')).digest('hex');
  const limit = opts.onTooLarge === 'truncate' ? 'truncate' : String(opts.maxBytes);
  return [checked.url.origin, checked.addresses.join(','), opts.timeoutMs, limit, ca].join('|');
}

/** The keep-alive agent pinned to a checked destination, made on first use (least recently used go). */
function agentFor(checked: CheckedUrl, opts: GuardedFetchOptions): Agent {
  const key = agentKey(checked, opts);
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // re-inserted below: the map's order is the use order
  } else {
    agent = new Agent({
      connect: {
        lookup: pinnedLookup(checked.url.hostname.toLowerCase(), checked.addresses),
        timeout: opts.timeoutMs,
        // Node's `ca` replaces the default store; keep the public roots and add the extra ones.
        ...(opts.ca === undefined ? {} : { ca: [...rootCertificates, ...[opts.ca].flat()] }),
      },
      allowH2: false,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      // Second line of defence below the streaming check (not in truncate mode, which stops
      // reading by itself and must keep the bytes it already has).
      ...(opts.onTooLarge === 'truncate' ? {} : { maxResponseSize: opts.maxBytes }),
    });
  }
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value as [string, Agent];
    agents.delete(oldestKey);
    oldest.close().catch(() => {}); // closing an unused pool: nothing to do if it fails
  }
  return agent;
}

/** Closes every kept-alive connection (tests and shutdown); the next request opens new ones. */
export async function closeOutboundConnections(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close().catch(() => {})));
}

/** What is sent on the next hop; a redirect may change all three. */
interface Hop {
  method: string;
  body: string | Uint8Array | undefined;
  headers: Record<string, string>;
}

type UndiciResponse = Awaited<ReturnType<Agent['request']>>;

/**
 * The next hop of a redirect response, or null when the response is the answer (not a redirect, or
 * redirects are not followed). Throws `too_many_redirects` / `invalid_redirect`.
 */
function redirectHop(
  response: UndiciResponse,
  target: URL,
  hop: Hop,
  hopIndex: number,
  maxRedirects: number,
): { url: URL; hop: Hop } | null {
  const location = response.headers.location;
  if (!REDIRECT_STATUSES.has(response.statusCode) || typeof location !== 'string' || maxRedirects === 0) {
    return null;
  }
  discard(response.body);
  if (hopIndex >= maxRedirects) {
    throw new OutboundHttpError('too_many_redirects', `More than ${maxRedirects} redirects`, {
      status: response.statusCode,
    });
  }
  let next: URL;
  try {
    next = new URL(location, target);
  } catch {
    throw new OutboundHttpError('invalid_redirect', 'Redirect Location is not a valid URL', {
      status: response.statusCode,
    });
  }
  const toGet =
    response.statusCode === 303
      ? hop.method !== 'HEAD'
      : (response.statusCode === 301 || response.statusCode === 302) && hop.method === 'POST';
  let { method, body, headers } = hop;
  if (toGet) {
    method = 'GET';
    body = undefined;
    headers = Object.fromEntries(Object.entries(headers).filter(([n]) => !BODY_HEADERS.has(n.toLowerCase())));
  }
  if (next.origin !== target.origin) {
    headers = Object.fromEntries(
      Object.entries(headers).filter(([n]) => !CREDENTIAL_HEADERS.has(n.toLowerCase())),
    );
  }
  return { url: next, hop: { method, body, headers } };
}

/** Reads the answer's body within `maxBytes` (throwing, or cutting it in truncate mode). */
async function readBody(
  response: UndiciResponse,
  method: string,
  opts: GuardedFetchOptions,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const declared = Number(response.headers['content-length']);
  const truncate = opts.onTooLarge === 'truncate';
  if (!truncate && Number.isFinite(declared) && declared > opts.maxBytes) {
    discard(response.body);
    throw new OutboundTooLargeError(
      opts.maxBytes,
      `Declared Content-Length ${declared} exceeds ${opts.maxBytes} bytes`,
    );
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  let truncated = false;
  if (method !== 'HEAD') {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      received += chunk.length;
      chunks.push(chunk);
      if (received > opts.maxBytes) {
        discard(response.body);
        if (!truncate) throw new OutboundTooLargeError(opts.maxBytes);
        truncated = true;
        break;
      }
    }
  }
  return { body: concat(chunks, Math.min(received, opts.maxBytes)), truncated };
}

/** The answer as guardedFetch returns it, `bad_status` when `requireOk` and not 2xx. */
async function finalResult(
  response: UndiciResponse,
  target: URL,
  method: string,
  opts: GuardedFetchOptions,
): Promise<GuardedFetchResult> {
  const { body, truncated } = await readBody(response, method, opts);
  let headers: Headers | undefined;
  const result: GuardedFetchResult = {
    status: response.statusCode,
    // Built when read (a webhook delivery never reads them).
    get headers() {
      headers ??= toHeaders(response.headers);
      return headers;
    },
    body,
    url: target.href,
    truncated,
  };
  if (opts.requireOk === true && (result.status < 200 || result.status > 299)) {
    throw new OutboundHttpError('bad_status', `HTTP ${result.status} from ${target.host}`, {
      status: result.status,
    });
  }
  return result;
}

/** Checks the limits and the caller's headers; returns maxRedirects. */
function validateOptions(opts: GuardedFetchOptions): number {
  assertLimit('timeoutMs', opts.timeoutMs, 1);
  assertLimit('maxBytes', opts.maxBytes, 0);
  const maxRedirects = opts.maxRedirects ?? 5;
  assertLimit('maxRedirects', maxRedirects, 0);
  validateRequestHeaders(opts.headers ?? {});
  return maxRedirects;
}

/**
 * Fetches a URL on a customer's behalf without letting it reach the service's own network
 * (spec, Events, Delivery rules; also used for `https://` document URLs of POST /templates).
 *
 * - Every hop's host is resolved and every address must pass the policy (`assertPublicUrl` rules).
 * - The socket connects to exactly the checked addresses (no second DNS lookup), while TLS uses
 *   the host name for SNI and certificate validation. Connections are kept alive per checked
 *   destination (agentFor) and reused only for the same origin resolving to the same addresses.
 * - Redirects are followed by hand, up to `maxRedirects`, each re-checked, protocol rules included;
 *   credentials are dropped when the origin changes; 303 (and 301/302 after POST) become GET.
 * - `timeoutMs` caps the whole exchange; `maxBytes` is enforced while streaming and the transfer
 *   is aborted as soon as it is exceeded, so an unbounded body is never buffered.
 * - No proxy from the environment, no compression negotiated, HTTP/1.1.
 */
export async function guardedFetch(url: string, opts: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const maxRedirects = validateOptions(opts);
  const controller = new AbortController();
  // Made only when the time runs out (an Error captures a stack: not free on every request).
  const timeout: { error: OutboundTimeoutError | null } = { error: null };
  const timer = setTimeout(() => {
    timeout.error = new OutboundTimeoutError(opts.timeoutMs);
    controller.abort(timeout.error);
  }, opts.timeoutMs);
  const { signal } = controller;
  let hop: Hop = {
    method: (opts.method ?? 'GET').toUpperCase(),
    body: opts.body,
    headers: { ...(opts.headers ?? {}) },
  };
  let current: string | URL = url;
  try {
    for (let hopIndex = 0; ; hopIndex++) {
      const checked = await checkUrl(current, opts, signal);
      const target = checked.url;
      const response = await agentFor(checked, opts).request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: hop.method,
        headers: hop.headers,
        body: hop.body ?? null,
        signal,
      });
      const next = redirectHop(response, target, hop, hopIndex, maxRedirects);
      if (!next) return await finalResult(response, target, hop.method, opts);
      ({ url: current, hop } = next);
    }
  } catch (error) {
    throw translateError(error, signal, timeout, opts.timeoutMs, opts.maxBytes);
  } finally {
    clearTimeout(timer);
  }
}

function translateError(
  error: unknown,
  signal: AbortSignal,
  timeout: { error: OutboundTimeoutError | null },
  timeoutMs: number,
  maxBytes: number,
): unknown {
  if (error instanceof OutboundError) return error;
  if (signal.aborted && timeout.error && signal.reason === timeout.error) return timeout.error;
  const timeoutError = () => timeout.error ?? new OutboundTimeoutError(timeoutMs);
  if (error instanceof TypeError || error instanceof RangeError) return error;
  const code = undiciCode(error);
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return timeoutError();
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return new OutboundTooLargeError(maxBytes);
  if (code === 'UND_ERR_INVALID_ARG') {
    return new TypeError(error instanceof Error ? error.message : 'Invalid request', { cause: error });
  }
  const detail = error instanceof Error ? `${code ? `${code}: ` : ''}${error.message}` : String(error);
  return new OutboundHttpError('connection_error', `Request failed: ${detail}`, { cause: error });
}

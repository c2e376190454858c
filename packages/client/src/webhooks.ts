import type { webhooks } from './openapi.ts';

/** The header carrying the signature (`t=<unix seconds>,v1=<hex>[,v1=<hex>...]`). */
export const SIGNATURE_HEADER = 'x-esign-signature';

/** The reference verifier's tolerance (spec, Signature verification, step 4). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Every event type the API sends (the OpenAPI document's webhooks). */
export type WebhookEventType = keyof webhooks;

/** A delivery's body (spec, Delivery): `data` has the shape of the matching API response. */
export interface WebhookEvent<T extends string = WebhookEventType> {
  id: string;
  type: T;
  created_at: string;
  data: Record<string, unknown>;
}

export type WebhookRefusal = 'malformed_header' | 'timestamp_outside_tolerance' | 'no_matching_signature';

export class WebhookVerificationError extends Error {
  readonly reason: WebhookRefusal;
  constructor(reason: WebhookRefusal, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export interface VerifyOptions {
  /** The body exactly as received (string or bytes): re-serialized JSON does not match. */
  payload: string | Uint8Array;
  /** The `X-Esign-Signature` header's value. */
  header: string | null | undefined;
  /** The endpoint's signing secret, or several while a secret is being rotated (any may match). */
  secrets: string | readonly string[];
  /** How far `t` may be from now, in seconds, either way (default 300). */
  toleranceSeconds?: number;
  /** Now in Unix seconds (default: the clock). */
  nowSeconds?: number;
}

const encoder = new TextEncoder();

function parseHeader(header: string | null | undefined): { t: number; v1: string[] } | null {
  if (typeof header !== 'string' || header.length === 0 || header.length > 4096) return null;
  let t: number | null = null;
  const v1: string[] = [];
  for (const element of header.split(',')) {
    const eq = element.indexOf('=');
    if (eq === -1) return null;
    const key = element.slice(0, eq).trim();
    const value = element.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,15}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

async function hmacHex(secret: string, t: number, payload: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const signed = new Uint8Array(encoder.encode(`${t}.`).length + body.length);
  signed.set(encoder.encode(`${t}.`));
  signed.set(body, signed.length - body.length);
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Equal in time independent of where two same-length hex strings differ. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a delivery's signature (spec, Signature verification; docs/webhooks.md): HMAC-SHA256 of
 * `<t>.<raw body>` with the secret, hex, against every `v1`, and `t` within the tolerance. Throws
 * WebhookVerificationError saying why a delivery is refused. Web Crypto: Node 20+, Deno, Bun,
 * edge runtimes.
 */
export async function verifyWebhookSignature(options: VerifyOptions): Promise<void> {
  const parsed = parseHeader(options.header);
  if (!parsed)
    throw new WebhookVerificationError('malformed_header', `Missing or malformed ${SIGNATURE_HEADER}`);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.t) > tolerance)
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `The signature's timestamp is ${now - parsed.t} s from now (at most ${tolerance} s)`,
    );
  const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
  let matched = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = await hmacHex(secret, parsed.t, options.payload);
    // Every candidate is compared (no early exit), so timing does not say which one matched.
    for (const candidate of parsed.v1) if (sameHex(candidate, expected)) matched = true;
  }
  if (!matched)
    throw new WebhookVerificationError(
      'no_matching_signature',
      'No signature matches the body and the secrets',
    );
}

/** Verifies a delivery (see verifyWebhookSignature) and returns its parsed body. */
export async function parseWebhook(options: VerifyOptions): Promise<WebhookEvent> {
  await verifyWebhookSignature(options);
  const text =
    typeof options.payload === 'string' ? options.payload : new TextDecoder().decode(options.payload);
  return JSON.parse(text) as WebhookEvent;
}

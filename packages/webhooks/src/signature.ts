import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';

/** The reference verifier's tolerance (spec, Events, Signature verification, step 4). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Prefix of generated endpoint signing secrets; the whole string, prefix included, is the HMAC key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

// A signature header carrying more than this is not ours; refuse before doing any work.
const MAX_SIGNATURE_HEADER_LENGTH = 4096;

// A sender signs with few secrets many times: each one's key is prepared once (bounded).
const signingKeys = new Map<string, KeyObject>();
const SIGNING_KEY_ENTRIES = 1_000;

function signingKey(secret: string): KeyObject {
  let key = signingKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    if (signingKeys.size >= SIGNING_KEY_ENTRIES) signingKeys.clear();
    signingKeys.set(secret, key);
  }
  return key;
}

function hmacDigest(
  secret: string | KeyObject,
  timestampSeconds: number,
  rawBody: string | Uint8Array,
): Buffer {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestampSeconds}.`, 'utf8');
  if (typeof rawBody === 'string') hmac.update(rawBody, 'utf8');
  else hmac.update(rawBody);
  return hmac.digest();
}

function assertTimestamp(timestampSeconds: number): void {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`timestampSeconds must be a non-negative integer, got ${timestampSeconds}`);
  }
}

/**
 * Signs a webhook body (spec, Events, Signature verification): HMAC-SHA256 with the endpoint's
 * secret over `<t>.<raw body>`, hex-encoded, returned as the header value `t=<t>,v1=<hex>`.
 * The secret string is the key exactly as configured (UTF-8), `whsec_` prefix included.
 */
export function signWebhook(secret: string, rawBody: string, timestampSeconds: number): string {
  if (secret === '') throw new TypeError('secret must not be empty');
  assertTimestamp(timestampSeconds);
  return `t=${timestampSeconds},v1=${hmacDigest(signingKey(secret), timestampSeconds, rawBody).toString('hex')}`;
}

export interface ParsedSignatureHeader {
  timestamp: number;
  /** Every `v1` value, as 32-byte digests. */
  signatures: Buffer[];
}

/**
 * Parses `t=<unix>,v1=<hex>[,v1=<hex>...]`. Unknown schemes (`v0=`, `v2=`) are ignored so the
 * format can grow. Returns null for anything malformed: no `t` or more than one, a `t` that is not
 * a plain integer, no well-formed `v1`, or an element without `=`.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader | null {
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_SIGNATURE_HEADER_LENGTH) {
    return null;
  }
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const element of header.split(',')) {
    const eq = element.indexOf('=');
    if (eq === -1) return null;
    const key = element.slice(0, eq).trim();
    const value = element.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== null || !/^\d{1,15}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      // A wrong-length or non-hex v1 can never match; skip it rather than fail the others.
      if (/^[0-9a-fA-F]{64}$/.test(value)) signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/**
 * Verifies a webhook signature header (spec, Events, Signature verification): recomputes the
 * HMAC over `<t>.<raw body>`, compares it with every `v1` in constant time (any match passes, so
 * a sender may sign with two secrets during rotation), and rejects a `t` more than `tolerance`
 * seconds away from `nowSeconds` in either direction. Never throws for bad input; returns false.
 * Pass the raw body bytes as received: re-serialized JSON will not match.
 */
export function verifyWebhook(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  tolerance: number = SIGNATURE_TOLERANCE_SECONDS,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  if (typeof secret !== 'string' || secret === '') return false;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) return false;
  const parsed = parseSignatureHeader(header);
  if (parsed === null) return false;
  if (!(tolerance >= 0) || Math.abs(nowSeconds - parsed.timestamp) > tolerance) return false;
  const expected = hmacDigest(secret, parsed.timestamp, rawBody);
  let matched = false;
  for (const candidate of parsed.signatures) {
    // Check every candidate (no early exit) so timing does not reveal which one matched.
    if (timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched;
}

/** A new endpoint signing secret: `whsec_` followed by 32 random bytes in base64url (43 characters). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

// Issue 30, item 5: a timestamp raises a signature's level only when what it claims is possible.
// RFC 3161 §2.3 and ETSI EN 319 102-1 §5.6.2.4 (signature time-stamp) / §5.6.2.5 (document time
// stamps): the token's signer is a time-stamping unit (extendedKeyUsage id-kp-timeStamping) whose
// certificate was valid at the time it certifies; a signature time-stamp lies within the signing
// certificate's validity and not before the signing time the signature claims; a document
// timestamp follows the signature it protects. Whether the TSA's chain reaches a root of the
// trust store (Node's bundled Mozilla roots) is reported, not required: the service's own tests
// and private deployments run their own TSA, and the level is computed from the file alone.

const OID_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
/** Clock difference allowed between a signer's claimed signing time and the TSA's time. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface TimestampJudgement {
  /** Subject of the TSA certificate, null when the token names none. */
  authority: string | null;
  /** The TSA certificate chains (with the token's certificates) to a trusted root. */
  trusted: boolean;
  /** Why the timestamp cannot count, naming it; null when it counts. */
  problem: string | null;
}

export interface TimestampClaim {
  /** What it is, for messages: "signature timestamp", "document timestamp". */
  label: string;
  time: string;
  authority: string | null;
  /** The token's certificates (DER), the TSA's first. */
  certificates: Uint8Array[];
}

export interface TimeOrder {
  /** The signing certificate (DER) the timestamp must fall within the validity of. */
  signer: Uint8Array | null;
  /** Whether the time must also be before the signing certificate expired (signature timestamps). */
  beforeExpiry: boolean;
  /** The timestamp must not be earlier than this (less CLOCK_SKEW_MS). */
  notBefore: { time: string; what: string } | null;
}

export function judgeTimestamp(claim: TimestampClaim, order: TimeOrder): TimestampJudgement {
  const tsa = x509(claim.certificates[0]);
  const authority = claim.authority && claim.authority.trim() !== '' ? claim.authority : null;
  const trusted = tsa ? chainsToTrustedRoot(tsa, claim.certificates) : false;
  const name = `the ${claim.label} by ${authority ?? 'an unnamed authority'} dated ${claim.time}`;
  const problem = (() => {
    if (!tsa || !authority) return `${name} names no time-stamping authority`;
    if (!(tsa.keyUsage ?? []).includes(OID_TIME_STAMPING))
      return `${name} is signed by a certificate that is not a time-stamping certificate`;
    const time = Date.parse(claim.time);
    if (time < Date.parse(tsa.validFrom) || time > Date.parse(tsa.validTo))
      return `${name} lies outside its own certificate's validity (${iso(tsa.validFrom)} to ${iso(tsa.validTo)})`;
    const signer = x509(order.signer ?? undefined);
    if (signer && time < Date.parse(signer.validFrom))
      return `${name} is earlier than the signing certificate's validity (from ${iso(signer.validFrom)})`;
    if (signer && order.beforeExpiry && time > Date.parse(signer.validTo))
      return `${name} is later than the signing certificate's expiry (${iso(signer.validTo)})`;
    if (order.notBefore && time < Date.parse(order.notBefore.time) - CLOCK_SKEW_MS)
      return `${name} is earlier than ${order.notBefore.what} (${order.notBefore.time})`;
    return null;
  })();
  return { authority, trusted, problem };
}

const iso = (date: string) => new Date(date).toISOString();

function x509(der: Uint8Array | undefined): X509Certificate | null {
  if (!der) return null;
  try {
    return new X509Certificate(der);
  } catch {
    return null;
  }
}

let roots: X509Certificate[] | null = null;

/** The certificate chains, through the token's certificates, to a root of Node's trust store. */
function chainsToTrustedRoot(leaf: X509Certificate, pool: Uint8Array[]): boolean {
  roots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  const intermediates = pool.map((der) => x509(der)).filter((c): c is X509Certificate => c !== null);
  let cert = leaf;
  for (let depth = 0; depth < 8; depth++) {
    if (roots.some((root) => root.fingerprint256 === cert.fingerprint256)) return true;
    const byRoot = roots.find((root) => cert.checkIssued(root) && cert.verify(root.publicKey));
    if (byRoot) return true;
    const next = intermediates.find((c) => c !== cert && cert.checkIssued(c) && cert.verify(c.publicKey));
    if (!next || next.fingerprint256 === cert.fingerprint256) return false;
    cert = next;
  }
  return false;
}

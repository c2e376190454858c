import { X509Certificate } from 'node:crypto';
import { PDF, type TimestampAuthority } from '@libpdf/core';
import type { Canvas } from './canvas.ts';
import { certifyPdf } from './certify.ts';
import type { SigningIdentity } from './identity.ts';
import { shapeLine } from './text.ts';
import { type TrackedRevocationProvider, TrustServiceError } from './trust.ts';

export const TEST_MARK_TEXT = 'TEST DOCUMENT - NOT LEGALLY BINDING';

/**
 * Draws the test-mode mark on a page (display coordinates): a translucent diagonal band across
 * the page and an opaque line at the top edge, so it survives cropping and shows on every page.
 */
export function drawTestMark(canvas: Canvas, width: number, height: number): void {
  const line = shapeLine(TEST_MARK_TEXT, 'bold');
  const diagonal = Math.hypot(width, height);
  const size = Math.min((diagonal * 0.75) / line.width, Math.min(width, height) * 0.12);
  const angle = Math.atan2(height, width);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  canvas
    .save()
    .opacity(0.28)
    .transform(cos, sin, -sin, cos, width / 2, height / 2)
    .text(line, (-line.width * size) / 2, -size * 0.35, size, [0.85, 0.05, 0.05])
    .restore();
  const top = Math.min(10, Math.max(5, width / 60));
  canvas
    .save()
    .fillColor([1, 0.93, 0.93])
    .rect(0, height - top * 1.9, width, top * 1.9)
    .raw('f')
    .text(line, (width - line.width * top) / 2, height - top * 1.35, top, [0.8, 0, 0])
    .restore();
}

export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/** The trust services a seal uses; without a TSA the seal is PAdES B-B. */
export interface SealTrust {
  timestampAuthority?: TimestampAuthority & { lastTime?: Date | null };
  revocationProvider?: TrackedRevocationProvider;
}

export interface SignPdfOptions {
  reason?: string;
  location?: string;
  /** The signature's /ContactInfo: where a recipient checks it (the public verify page). */
  contactInfo?: string;
  signingTime?: Date;
  fieldName?: string;
  trust?: SealTrust;
}

export interface SignPdfResult {
  bytes: Uint8Array;
  level: PadesLevel;
  /** The time the TSA certified for the signature (B-T and above), else null. */
  timestampTime: Date | null;
}

/**
 * Adds the final seal: a certification signature (DocMDP P=1) covering every byte, PAdES B-B.
 * With a TSA: its RFC 3161 timestamp on the signature value (B-T), then a DSS with every
 * certificate of the signer's and the TSA's chains and the OCSP responses / CRLs they name
 * (B-LT), then a document timestamp over all of it with the TSA's own validation data (B-LTA).
 */
export async function signPdf(
  pdf: PDF,
  identity: SigningIdentity,
  opts: SignPdfOptions,
): Promise<SignPdfResult> {
  const certBytes = [identity.signer.certificate, ...(identity.signer.certificateChain ?? [])].reduce(
    (n, c) => n + c.length,
    0,
  );
  const tsa = opts.trust?.timestampAuthority;
  if (tsa) assertChainToRoot(identity);
  const bytes = await certifyPdf(pdf, {
    signer: identity.signer,
    signingTime: opts.signingTime ?? new Date(),
    reason: opts.reason === undefined ? undefined : dictText(opts.reason),
    location: opts.location === undefined ? undefined : dictText(opts.location),
    contactInfo: opts.contactInfo === undefined ? undefined : dictText(opts.contactInfo),
    fieldName: opts.fieldName,
    reservedBytes: 6144 + certBytes + (tsa ? 8192 : 0),
    timestampAuthority: tsa,
  });
  if (!tsa) return { bytes, level: 'B-B', timestampTime: null };
  const timestampTime = tsa.lastTime ?? null;
  const signed = await PDF.load(bytes);
  const revocationProvider = opts.trust?.revocationProvider ?? NO_REVOCATION;
  const dss = await signed.addValidationData({ revocationProvider });
  const archived = await signed.addTimestamp({
    timestampAuthority: tsa,
    longTermValidation: true,
    revocationProvider,
    estimatedSize: 16384,
  });
  assertComplete([...dss.warnings, ...archived.warnings], revocationProvider.missing());
  return { bytes: archived.bytes, level: 'B-LTA', timestampTime };
}

/**
 * Long-term validation needs every certificate up to a self-signed root in the PKCS#12: checked
 * before anything is sent, because @libpdf/core would otherwise try to download missing issuers
 * itself (outside the outbound guard).
 */
function assertChainToRoot(identity: SigningIdentity): void {
  const ders = [identity.signer.certificate, ...(identity.signer.certificateChain ?? [])];
  const certs = ders.map((der) => new X509Certificate(der));
  const root = certs[certs.length - 1]!;
  const linked = certs.every((c, i) => i === certs.length - 1 || c.checkIssued(certs[i + 1]!));
  if (!linked || !root.checkIssued(root) || !root.verify(root.publicKey)) {
    throw new TrustServiceError(
      'The sealing certificate (SIGNING_CERT_P12) must hold its whole chain, leaf first, up to a self-signed root, for long-term validation',
    );
  }
}

/**
 * The long-term validation data must be complete: every chain up to its root, and revocation
 * data for every certificate that names where to get it. Otherwise the seal fails (the sealing
 * job retries) instead of claiming a level the file does not reach.
 */
function assertComplete(warnings: { code: string; message: string }[], missing: string[]): void {
  const problems = warnings.filter((w) => w.code !== 'MDP_VIOLATION').map((w) => `${w.code}: ${w.message}`);
  for (const subject of missing) problems.push(`no OCSP response or CRL could be fetched for ${subject}`);
  if (problems.length > 0) {
    throw new TrustServiceError(`Long-term validation data incomplete: ${problems.join('; ')}`);
  }
}

/** Certificates without OCSP/CRL locations (the generated self-signed one) have nothing to fetch. */
const NO_REVOCATION: TrackedRevocationProvider = {
  getOCSP: async () => null,
  getCRL: async () => null,
  missing: () => [],
};

/**
 * @libpdf/core 0.4 escapes /Reason and /Location twice (a `(` ends up as `\\(` in the viewer), so
 * the characters it escapes are replaced before they reach it.
 */
function dictText(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/\(/g, '[')
    .replace(/\)/g, ']')
    .replace(/\\/g, '/');
}

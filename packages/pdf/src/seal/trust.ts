import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import type { RevocationProvider, TimestampAuthority } from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha256Hex } from '../ingest/hash.ts';
import { encapsulatedContent, OID_TST_INFO, verifySigner } from './cms.ts';
import { TrustServiceError } from './trust-error.ts';

export { TrustServiceError };

// The trust services a seal asks for (PAdES B-T, B-LT, B-LTA): an RFC 3161 time-stamping
// authority and the OCSP responders / CRL locations a certificate names. Every request goes
// through the `TrustFetch` the caller gives (the service passes its guarded outbound fetch), so
// this package opens no connection of its own.

/** One HTTP exchange; the service's guardedFetch fits (status, body). */
export type TrustFetch = (
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: Uint8Array },
) => Promise<{ status: number; body: Uint8Array }>;

export interface TimestampAuthorityOptions {
  url: string;
  /** HTTP Basic credentials, when the TSA demands them. */
  username?: string;
  password?: string;
  fetch: TrustFetch;
}

const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const DIGEST_OIDS: Record<string, string> = {
  'SHA-256': OID_SHA256,
  'SHA-384': '2.16.840.1.101.3.4.2.2',
  'SHA-512': '2.16.840.1.101.3.4.2.3',
};

const ab = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/**
 * An RFC 3161 client: sends a TimeStampReq (with a nonce, asking for the TSA certificate) and
 * returns the TimeStampToken only when the answer is `granted`, imprints the digest that was
 * asked for, echoes the nonce and its signature verifies. Anything else throws TrustServiceError:
 * a configured TSA that does not answer fails the seal (the job is retried), it is never skipped.
 */
export function createTimestampAuthority(opts: TimestampAuthorityOptions): TimestampAuthority & {
  lastTime: Date | null;
} {
  const tsa = {
    lastTime: null as Date | null,
    async timestamp(digest: Uint8Array, algorithm: string): Promise<Uint8Array> {
      const oid = DIGEST_OIDS[algorithm];
      if (!oid) throw new TrustServiceError(`Unsupported timestamp digest ${algorithm}`);
      const nonce = randomBytes(8);
      // A positive INTEGER in minimal DER: a first byte of 0x01–0x7f (a 0x00 first byte followed by
      // a byte under 0x80 is not minimal, and TSAs such as `openssl ts` refuse the request).
      nonce[0] = ((nonce[0] ?? 0) & 0x7f) | 0x01;
      const request = new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: oid }),
          hashedMessage: new asn1js.OctetString({ valueHex: ab(digest) }),
        }),
        nonce: new asn1js.Integer({ valueHex: ab(nonce) }),
        certReq: true,
      });
      const headers: Record<string, string> = { 'content-type': 'application/timestamp-query' };
      if (opts.username !== undefined) {
        const basic = Buffer.from(`${opts.username}:${opts.password ?? ''}`).toString('base64');
        headers.authorization = `Basic ${basic}`;
      }
      const body = new Uint8Array(request.toSchema().toBER(false));
      const res = await callService(
        opts.fetch,
        opts.url,
        { method: 'POST', headers, body },
        'time-stamping authority',
      );
      const token = await readTimestampResponse(res, digest, nonce);
      tsa.lastTime = token.time;
      return token.der;
    },
  };
  return tsa;
}

async function callService(
  fetch: TrustFetch,
  url: string,
  init: Parameters<TrustFetch>[1],
  what: string,
): Promise<Uint8Array> {
  let res: Awaited<ReturnType<TrustFetch>>;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new TrustServiceError(`The ${what} at ${url} could not be reached: ${(err as Error).message}`);
  }
  if (res.status < 200 || res.status > 299) {
    throw new TrustServiceError(`The ${what} at ${url} answered HTTP ${res.status}`);
  }
  return res.body;
}

async function readTimestampResponse(
  body: Uint8Array,
  digest: Uint8Array,
  nonce: Buffer,
): Promise<{ der: Uint8Array; time: Date }> {
  const asn = asn1js.fromBER(ab(body));
  if (asn.offset === -1) throw new TrustServiceError('The time-stamping authority answered no DER');
  const response = new pkijs.TimeStampResp({ schema: asn.result });
  const status = response.status.status;
  if (status !== 0 && status !== 1) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    throw new TrustServiceError(
      `The time-stamping authority refused the request (status ${status}) ${text}`.trim(),
    );
  }
  if (!response.timeStampToken) throw new TrustServiceError('The time-stamping authority sent no token');
  const signed = new pkijs.SignedData({ schema: response.timeStampToken.content });
  const info = tstInfo(signed);
  if (!Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView).equals(Buffer.from(digest))) {
    throw new TrustServiceError('The timestamp token imprints another digest than the one requested');
  }
  const echoed = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : null;
  if (!echoed || BigInt(`0x${echoed.toString('hex')}`) !== BigInt(`0x${nonce.toString('hex')}`)) {
    throw new TrustServiceError('The timestamp token does not echo the request nonce');
  }
  let tsaCert: X509Certificate;
  try {
    tsaCert = checkTimestampToken(signed).signer.x509;
  } catch (err) {
    throw new TrustServiceError(`The timestamp token does not verify: ${(err as Error).message}`);
  }
  assertTokenChain(signed, tsaCert);
  return { der: new Uint8Array(response.timeStampToken.toSchema().toBER(false)), time: info.genTime };
}

/**
 * The token must carry the TSA's chain up to a self-signed root: long-term validation embeds it,
 * and @libpdf/core would otherwise download missing issuers itself, outside the outbound guard.
 */
function assertTokenChain(signed: pkijs.SignedData, tsaCert: X509Certificate): void {
  const pool = (signed.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => new X509Certificate(new Uint8Array(c.toSchema().toBER(false))));
  let cert = tsaCert;
  for (let depth = 0; depth < 8; depth++) {
    if (cert.checkIssued(cert) && cert.verify(cert.publicKey)) return;
    const issuer = pool.find((c) => cert.checkIssued(c) && cert.verify(c.publicKey));
    if (!issuer) break;
    cert = issuer;
  }
  throw new TrustServiceError(
    'The time-stamping authority sent a token without its certificate chain up to the root; long-term validation needs it (choose a TSA that includes its chain)',
  );
}

/** The TSTInfo inside a TimeStampToken's SignedData. */
function tstInfo(signed: pkijs.SignedData): pkijs.TSTInfo {
  const content = encapsulatedContent(signed);
  if (!content) throw new TrustServiceError('The timestamp token holds no TSTInfo');
  return pkijs.TSTInfo.fromBER(ab(content));
}

/**
 * A TimeStampToken's own signature: its signer attributes sign the TSTInfo (content type
 * id-ct-TSTInfo, message digest of the TSTInfo DER). Returns the TSTInfo and the TSA certificate.
 */
function checkTimestampToken(signed: pkijs.SignedData) {
  const content = encapsulatedContent(signed);
  if (!content) throw new Error('The timestamp token holds no TSTInfo');
  const signer = verifySigner(signed, OID_TST_INFO);
  if (!signer.messageDigest.equals(createHash(signer.digestAlg).update(content).digest())) {
    throw new Error('The timestamp token signs another TSTInfo');
  }
  return { info: pkijs.TSTInfo.fromBER(ab(content)), signer };
}

// ---------------------------------------------------------------------------------------------
// Revocation data
// ---------------------------------------------------------------------------------------------

const OID_AIA = '1.3.6.1.5.5.7.1.1';
const OID_OCSP = '1.3.6.1.5.5.7.48.1';
const OID_CRL_DP = '2.5.29.31';

// pkijs parsing is slow (schema comparison); the same few certificates (the sealing chain, the
// TSA's) are asked about again and again, so parsed certificates are kept by their SHA-256.
const parsedCerts = new Map<string, pkijs.Certificate>();

function parseCert(der: Uint8Array): pkijs.Certificate {
  const key = sha256Hex(der);
  let cert = parsedCerts.get(key);
  if (!cert) {
    cert = pkijs.Certificate.fromBER(ab(der));
    if (parsedCerts.size >= 64) parsedCerts.delete(parsedCerts.keys().next().value!);
    parsedCerts.set(key, cert);
  }
  return cert;
}

/** The http(s) OCSP responder URLs a certificate names (Authority Information Access). */
function ocspUrls(cert: pkijs.Certificate): string[] {
  const ext = cert.extensions?.find((e) => e.extnID === OID_AIA)?.parsedValue as pkijs.InfoAccess | undefined;
  return (ext?.accessDescriptions ?? [])
    .filter((d) => d.accessMethod === OID_OCSP && d.accessLocation.type === 6)
    .map((d) => String(d.accessLocation.value))
    .filter((u) => /^https?:\/\//i.test(u));
}

/** The http(s) CRL distribution point URLs a certificate names. */
function crlUrls(cert: pkijs.Certificate): string[] {
  const ext = cert.extensions?.find((e) => e.extnID === OID_CRL_DP)?.parsedValue as
    | pkijs.CRLDistributionPoints
    | undefined;
  const urls: string[] = [];
  for (const point of ext?.distributionPoints ?? []) {
    const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
    for (const name of names) if (name.type === 6) urls.push(String(name.value));
  }
  return urls.filter((u) => /^https?:\/\//i.test(u));
}

/** True when a certificate names somewhere to ask about its revocation. */
export function namesRevocation(der: Uint8Array): boolean {
  const cert = parseCert(der);
  return ocspUrls(cert).length > 0 || crlUrls(cert).length > 0;
}

/** A RevocationProvider that remembers which certificates still lack the data they name. */
export interface TrackedRevocationProvider extends RevocationProvider {
  /** Subjects of certificates that name an OCSP responder or CRL but got no usable answer. */
  missing(): string[];
}

/**
 * OCSP and CRL retrieval for the LTV data, through the caller's fetch. @libpdf/core swallows a
 * provider's failures, so this one keeps count: a certificate that names an OCSP responder or a
 * CRL and got neither is reported by `missing()`, and the seal fails (and is retried) rather
 * than claiming B-LT without the revocation data.
 */
export function createRevocationProvider(fetch: TrustFetch): TrackedRevocationProvider {
  const named = new Map<string, string>();
  const answered = new Set<string>();
  const note = (der: Uint8Array) => {
    const key = sha256Hex(der);
    const cert = parseCert(der);
    if (ocspUrls(cert).length + crlUrls(cert).length > 0) named.set(key, subjectOf(cert));
    return key;
  };
  return {
    missing: () => [...named].filter(([key]) => !answered.has(key)).map(([, subject]) => subject),
    async getOCSP(certDer, issuerDer) {
      const key = note(certDer);
      const urls = ocspUrls(parseCert(certDer));
      if (urls.length === 0) return null;
      const answer = await fetchOcsp(fetch, urls[0]!, certDer, issuerDer);
      answered.add(key);
      return answer;
    },
    async getCRL(certDer) {
      const key = note(certDer);
      const urls = crlUrls(parseCert(certDer));
      if (urls.length === 0) return null;
      const answer = await callService(
        fetch,
        urls[0]!,
        { method: 'GET', headers: {} },
        'CRL distribution point',
      );
      pkijs.CertificateRevocationList.fromBER(ab(answer));
      answered.add(key);
      return answer;
    },
  };
}

async function fetchOcsp(fetch: TrustFetch, url: string, certDer: Uint8Array, issuerDer: Uint8Array) {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(parseCert(certDer), {
    hashAlgorithm: 'SHA-1',
    issuerCertificate: parseCert(issuerDer),
  });
  const body = new Uint8Array(request.toSchema(true).toBER(false));
  const headers = { 'content-type': 'application/ocsp-request' };
  const answer = await callService(fetch, url, { method: 'POST', headers, body }, 'OCSP responder');
  const status = pkijs.OCSPResponse.fromBER(ab(answer)).responseStatus.valueBlock.valueDec;
  if (status !== 0) throw new TrustServiceError(`The OCSP responder at ${url} answered status ${status}`);
  return answer;
}

function subjectOf(cert: pkijs.Certificate): string {
  return cert.subject.typesAndValues.map((t) => String(t.value.valueBlock.value)).join(', ');
}
/** SHA-256 of bytes, lowercase hex (the pool's helper). */

import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { formatName } from '../seal/identity.ts';
import {
  BerError,
  children,
  contentOf,
  type Element,
  encodingOf,
  expectTag,
  oidOf,
  readElement,
  SEQUENCE,
} from './ber.ts';
import {
  checkSigningCertificate,
  DIGESTS,
  isNull,
  verifySignatureValue,
  weakHash,
} from './cms-algorithms.ts';
import {
  algorithmOf,
  attributeValue,
  copyOf,
  parseSignedData,
  range,
  type SignedData,
  type SignerInfo,
} from './cms-signed-data.ts';

// The CMS of one PDF signature, checked from its bytes alone (RFC 5652, RFC 3161, ISO 32000-1
// §12.8.3.3, ETSI EN 319 142-1), in the forms real signed PDFs use:
// - adbe.pkcs7.detached / ETSI.CAdES.detached: a detached id-data SignedData over the byte ranges,
//   with signed attributes (message-digest of the ranges) or without (the signature is over the
//   ranges themselves);
// - adbe.pkcs7.sha1: the encapsulated id-data content is the SHA-1 digest of the ranges, and the
//   SignerInfo signs that content (with or without signed attributes);
// - a document timestamp (ETSI.RFC3161, whatever its dictionary's /Type): a TimeStampToken whose
//   imprint is the ranges' digest.
// Every SignerInfo must verify over the same content; the first one is reported as the signer.
// The CMS is the first BER element of /Contents: what follows it (zero padding, or anything a
// tool left) is outside every signature and ignored. Digests SHA-1 (reported weak), SHA-2 and
// SHA-3; RSA PKCS #1 v1.5, RSASSA-PSS, ECDSA (named with or without its hash), Ed25519.
// weakAlgorithms names SHA-1 (a digest, a signature hash or a timestamp imprint) and RSA keys
// under 2,048 bits ('RSA-1024').
// CRLs and OCSP responses are located, never parsed, so an archived CRL of any size is returned.

export interface CmsInput {
  /** The bytes of the signature dictionary's /Contents string (DER, possibly followed by zero padding or other bytes). */
  contents: Uint8Array;
  /** The dictionary's /SubFilter without the slash: 'adbe.pkcs7.detached', 'ETSI.CAdES.detached', 'adbe.pkcs7.sha1', 'ETSI.RFC3161', ... */
  subFilter: string;
  /** True for a document timestamp (/Type /DocTimeStamp or SubFilter ETSI.RFC3161). */
  documentTimestamp: boolean;
  /** The byte ranges the /ByteRange covers, in order. */
  signed: Uint8Array[];
}

export interface CmsResult {
  valid: boolean;
  /** Why not valid (English, one sentence). */
  error?: string;
  signerSubject: string | null;
  signerCertificateSha256: string | null;
  /** Every certificate the CMS carries (DER), the signer's first. */
  certificates: Uint8Array[];
  /** ISO 8601 from the signing-time signed attribute; null when none (the dictionary's /M is the caller's business). */
  signingTime: string | null;
  /** ISO 8601 genTime of the signature timestamp (unsigned attr) or of the document timestamp; null when none. */
  timestampTime: string | null;
  timestampAuthority: string | null;
  /** The timestamp token's certificates (DER), the TSA's first. */
  timestampCertificates: Uint8Array[];
  /** Algorithms that verified but are weak, e.g. ['SHA-1'] (reported as a warning, still valid). */
  weakAlgorithms: string[];
  /** CRLs and OCSP responses (DER) the CMS carries (signed attribute adbe-revocationInfoArchival 1.2.840.113583.1.1.8, and SignedData crls), for the lead's long-term-validation level; may be empty. */
  revocation: { crls: Uint8Array[]; ocsps: Uint8Array[] };
}

const OID_DATA = '1.2.840.113549.1.7.1';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_SIGNING_CERT_V1 = '1.2.840.113549.1.9.16.2.12';
const OID_SIGNING_CERT_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';
const OID_REVOCATION_ARCHIVAL = '1.2.840.113583.1.1.8';
const OID_SUBJECT_KEY_ID = '2.5.29.14';

/**
 * Checks one signature's CMS against the bytes its /ByteRange covers. Never throws: what went
 * wrong is `error`, and whatever was read before it (the signer, the certificates) is reported.
 */
export function checkCms(input: CmsInput): CmsResult {
  const key = createHash('sha256')
    .update(input.contents)
    .update(`\0${input.subFilter}\0${input.documentTimestamp}\0`)
    .update(rangesDigest(input.signed))
    .digest('hex');
  let result = cache.get(key);
  if (!result) {
    result = check(input);
    if (cache.size >= 64) cache.delete(cache.keys().next().value!);
    cache.set(key, result);
  }
  return copy(result);
}

// Re-checking the same document (or many variants of one) stays cheap: results are kept for a
// few recent inputs, keyed by the CMS, the subfilter and a digest of the signed bytes.
const cache = new Map<string, CmsResult>();

const rangesDigest = (ranges: Uint8Array[]) => {
  const hash = createHash('sha256');
  for (const range of ranges) hash.update(`${range.length}:`).update(range);
  return hash.digest();
};

const copy = (r: CmsResult): CmsResult => ({
  ...r,
  certificates: [...r.certificates],
  timestampCertificates: [...r.timestampCertificates],
  weakAlgorithms: [...r.weakAlgorithms],
  revocation: { crls: [...r.revocation.crls], ocsps: [...r.revocation.ocsps] },
});

function check(input: CmsInput): CmsResult {
  const result: CmsResult = {
    valid: false,
    signerSubject: null,
    signerCertificateSha256: null,
    certificates: [],
    signingTime: null,
    timestampTime: null,
    timestampAuthority: null,
    timestampCertificates: [],
    weakAlgorithms: [],
    revocation: { crls: [], ocsps: [] },
  };
  const weak = new Set<string>();
  try {
    const signed = parseSignedData(input.contents);
    result.certificates = signed.certificates;
    result.revocation = { crls: [...signed.crls], ocsps: [...signed.ocsps] };
    identify(signed, result);
    if (input.documentTimestamp) checkDocumentTimestamp(signed, input, result, weak);
    else checkSignature(signed, input, result, weak);
    result.valid = true;
  } catch (err) {
    result.error = sentence(err instanceof BerError ? `The CMS is not valid BER: ${err.message}` : err);
  }
  result.weakAlgorithms = [...weak].sort();
  return result;
}

const sentence = (err: unknown): string => {
  const text = err instanceof Error ? err.message : String(err);
  return /[.!?]$/.test(text) ? text : `${text}.`;
};

// ---------------------------------------------------------------------------------------------
// Checking signers
// ---------------------------------------------------------------------------------------------

interface VerifiedSigner {
  certDer: Uint8Array;
  subject: string;
  signingTime: string | null;
}

/**
 * Verifies one SignerInfo over `message` (the encapsulated content, or the detached data): the
 * message digest (with signed attributes) or the signature itself (without), the content-type and
 * signing-certificate attributes, and the version numbers RFC 5652 fixes (outside what was signed,
 * a wrong one is the only sign of a change there).
 */
function verifySigner(
  sd: SignedData,
  si: SignerInfo,
  message: Uint8Array[],
  weak: Set<string>,
  opts: { requireEss: boolean },
): VerifiedSigner {
  checkVersions(sd, si);
  const digest = DIGESTS[si.digest.oid];
  if (!digest) throw new Error(`Unsupported digest ${si.digest.oid}`);
  if (si.digest.params && !isNull(si.digest.params))
    throw new Error('Unexpected digest algorithm parameters');
  if (!sd.digestAlgorithms.includes(si.digest.oid))
    throw new Error("The CMS does not list its signer's digest algorithm");
  const certDer = findCertificate(sd, si);
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(certDer);
  } catch {
    throw new Error('The signer certificate cannot be read');
  }
  let signingTime: string | null = null;
  let toVerify = message;
  if (si.signedAttrs) {
    const type = attributeValue(si.signed, OID_CONTENT_TYPE);
    if (!(type instanceof asn1js.ObjectIdentifier) || type.valueBlock.toString() !== sd.contentType)
      throw new Error(`content-type attribute missing or not ${sd.contentType}`);
    const md = attributeValue(si.signed, OID_MESSAGE_DIGEST);
    if (!(md instanceof asn1js.OctetString)) throw new Error('message-digest attribute missing');
    const actual = createHash(digest);
    for (const part of message) actual.update(part);
    if (!Buffer.from(md.valueBlock.valueHexView).equals(actual.digest()))
      throw new Error('Document digest does not match the signed message digest');
    const time = attributeValue(si.signed, OID_SIGNING_TIME);
    if (time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime)
      signingTime = time.toDate().toISOString();
    const v2 = attributeValue(si.signed, OID_SIGNING_CERT_V2);
    const ess = v2 ?? attributeValue(si.signed, OID_SIGNING_CERT_V1);
    if (ess) checkSigningCertificate(ess, certDer, v2 !== undefined);
    else if (opts.requireEss) throw new Error('The CAdES signature lacks its signing-certificate attribute');
    const der = Uint8Array.from(si.signedAttrs);
    der[0] = 0x31; // [0] IMPLICIT → SET OF, as signed
    toVerify = [der];
  } else if (sd.contentType !== OID_DATA) {
    throw new Error('A SignerInfo without signed attributes must sign id-data content');
  } else if (opts.requireEss) {
    throw new Error('The CAdES signature has no signed attributes');
  }
  const hash = verifySignatureValue(si.signatureAlgorithm, digest, toVerify, si.signature, x509);
  if (!hash) throw new Error('CMS signature does not verify with the signer certificate');
  for (const used of [digest, hash]) {
    const name = weakHash(used);
    if (name) weak.add(name);
  }
  const bits = x509.publicKey.asymmetricKeyDetails?.modulusLength;
  if (x509.publicKey.asymmetricKeyType === 'rsa' && bits && bits < 2048) weak.add(`RSA-${bits}`);
  return { certDer, subject: formatName(x509.subject), signingTime };
}

/** RFC 5652 §5.1 and §5.3 versions. */
function checkVersions(sd: SignedData, si: SignerInfo): void {
  const bySubjectKey = 'keyId' in si.sid;
  if (si.version !== (bySubjectKey ? 3 : 1))
    throw new Error(`SignerInfo version ${si.version} does not match its signer identifier`);
  if (sd.otherCertificates) {
    if (sd.version < 3 || sd.version > 5) throw new Error(`SignedData version ${sd.version}`);
    return;
  }
  const expected = sd.otherRevocation
    ? 5
    : sd.signerInfos.some((s) => s.version === 3) || sd.contentType !== OID_DATA
      ? 3
      : 1;
  if (sd.version !== expected)
    throw new Error(`SignedData version ${sd.version}; RFC 5652 gives ${expected} for this content`);
}

function findCertificate(sd: SignedData, si: SignerInfo): Uint8Array {
  const found = sd.certificates.find((der) => {
    const tbs = tbsFields(der);
    if (!tbs) return false;
    if ('keyId' in si.sid) {
      const keyId = subjectKeyId(der, tbs);
      return !!keyId && Buffer.from(keyId).equals(si.sid.keyId);
    }
    // tbsCertificate: [0] version, serialNumber, signature, issuer, …
    const at = tbs[0]?.cls === 2 ? 1 : 0;
    const serial = tbs[at];
    const issuer = tbs[at + 2];
    return (
      !!serial &&
      !!issuer &&
      Buffer.from(der.subarray(...range(serial))).equals(si.sid.serial) &&
      Buffer.from(encodingOf(der, issuer)).equals(si.sid.issuer)
    );
  });
  if (!found) throw new Error('Signer certificate not found in the CMS');
  return found;
}

function tbsFields(der: Uint8Array): Element[] | null {
  try {
    const cert = readElement(der, 0);
    return children(der, expectTag(children(der, cert)[0], 0, SEQUENCE, 'tbsCertificate'));
  } catch {
    return null;
  }
}

function subjectKeyId(der: Uint8Array, tbs: Element[]): Uint8Array | null {
  const extensions = tbs.find((e) => e.cls === 2 && e.tag === 3);
  if (!extensions) return null;
  const [list] = children(der, extensions);
  for (const ext of children(der, expectTag(list, 0, SEQUENCE, 'extensions'))) {
    const parts = children(der, ext);
    if (oidOf(der, parts[0], 'extnID') !== OID_SUBJECT_KEY_ID) continue;
    const value = contentOf(der, parts[parts.length - 1]!);
    const inner = readElement(value, 0);
    return value.subarray(inner.contentStart, inner.contentEnd);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Signatures and timestamps
// ---------------------------------------------------------------------------------------------

function checkSignature(sd: SignedData, input: CmsInput, result: CmsResult, weak: Set<string>): void {
  if (sd.contentType !== OID_DATA) throw new Error('CMS content is not id-data');
  let message = input.signed;
  if (input.subFilter === 'adbe.pkcs7.sha1') {
    if (!sd.content) throw new Error('An adbe.pkcs7.sha1 signature must encapsulate the digest it signs');
    const digest = createHash('sha1');
    for (const part of input.signed) digest.update(part);
    if (!Buffer.from(sd.content).equals(digest.digest()))
      throw new Error('Document digest does not match the SHA-1 digest the signature encapsulates');
    weak.add('SHA-1');
    message = [sd.content];
  } else if (sd.content) {
    throw new Error('CMS is not detached');
  }
  const requireEss = input.subFilter === 'ETSI.CAdES.detached';
  sd.signerInfos.forEach((si, index) => {
    const signer = verifySigner(sd, si, message, weak, { requireEss });
    collectArchival(si, result);
    if (index === 0) {
      describeSigner(result, signer);
      result.signingTime = signer.signingTime;
    }
    const token = si.unsigned.get(OID_SIGNATURE_TIMESTAMP);
    if (!token) return;
    try {
      if (token.length !== 1) throw new Error('it must be one token');
      const { info, tsa, certificates } = checkToken(token[0]!, weak);
      const imprint = createHash(info.imprintHash).update(si.signature).digest();
      if (!imprint.equals(info.imprint)) throw new Error('it imprints another value than the signature');
      if (index === 0) {
        result.timestampTime = info.genTime;
        result.timestampAuthority = tsa.subject;
        result.timestampCertificates = certificates;
      }
    } catch (err) {
      throw new Error(`Signature timestamp does not verify: ${(err as Error).message}`);
    }
  });
}

function checkDocumentTimestamp(sd: SignedData, input: CmsInput, result: CmsResult, weak: Set<string>): void {
  const { info, tsa, certificates } = checkTimestampSignedData(sd, weak);
  describeSigner(result, tsa);
  result.timestampTime = info.genTime;
  result.timestampAuthority = tsa.subject;
  result.timestampCertificates = certificates;
  const digest = createHash(info.imprintHash);
  for (const part of input.signed) digest.update(part);
  if (!info.imprint.equals(digest.digest()))
    throw new Error('Document digest does not match the timestamp message imprint');
}

/** Names the first signer before anything is verified, so a signature that fails still says whose it is. */
function identify(sd: SignedData, result: CmsResult): void {
  try {
    const certDer = findCertificate(sd, sd.signerInfos[0]!);
    describeSigner(result, {
      certDer,
      subject: formatName(new X509Certificate(certDer).subject),
      signingTime: null,
    });
  } catch {
    // The check that follows says why.
  }
}

function describeSigner(result: CmsResult, signer: VerifiedSigner): void {
  result.signerSubject = signer.subject;
  result.signerCertificateSha256 = createHash('sha256').update(signer.certDer).digest('hex');
  const others = result.certificates.filter((c) => !Buffer.from(c).equals(signer.certDer));
  result.certificates = [signer.certDer, ...others];
}

interface TimestampInfo {
  genTime: string;
  imprintHash: string;
  imprint: Buffer;
}

/** A TimeStampToken (a ContentInfo's encoding) checked on its own: its TSTInfo and signer. */
function checkToken(token: Uint8Array, weak: Set<string>) {
  return checkTimestampSignedData(parseSignedData(token), weak);
}

function checkTimestampSignedData(sd: SignedData, weak: Set<string>) {
  if (sd.contentType !== OID_TST_INFO || !sd.content) throw new Error('The timestamp token holds no TSTInfo');
  if (sd.signerInfos.length !== 1) throw new Error('A timestamp token must have exactly one SignerInfo');
  const tsa = verifySigner(sd, sd.signerInfos[0]!, [sd.content], weak, { requireEss: false });
  const info = readTstInfo(sd.content);
  const imprintWeak = weakHash(info.imprintHash);
  if (imprintWeak) weak.add(imprintWeak);
  const others = sd.certificates.filter((c) => !Buffer.from(c).equals(tsa.certDer));
  return { info, tsa, certificates: [tsa.certDer, ...others] };
}

/** TSTInfo (RFC 3161 §2.4.2): version, policy, messageImprint, serialNumber, genTime, … */
function readTstInfo(der: Uint8Array): TimestampInfo {
  const fields = children(der, expectTag(readElement(der, 0), 0, SEQUENCE, 'TSTInfo'));
  const [algorithm, hashed] = children(der, expectTag(fields[2], 0, SEQUENCE, 'TSTInfo messageImprint'));
  const oid = algorithmOf(der, algorithm, 'messageImprint hashAlgorithm').oid;
  const imprintHash = DIGESTS[oid];
  if (!imprintHash) throw new Error(`Unsupported timestamp digest ${oid}`);
  const time = asn1js.fromBER(encodingOf(der, expectTag(fields[4], 0, 24, 'TSTInfo genTime')));
  if (!(time.result instanceof asn1js.GeneralizedTime)) throw new Error('TSTInfo genTime is malformed');
  const date = time.result.toDate();
  if (Number.isNaN(date.getTime())) throw new Error('TSTInfo genTime is malformed');
  return {
    genTime: date.toISOString(),
    imprintHash,
    imprint: Buffer.from(contentOf(der, expectTag(hashed, 0, 4, 'messageImprint hashedMessage'))),
  };
}

/**
 * adbe-revocationInfoArchival (ISO 32000-1 §12.8.3.3.2): RevocationInfoArchival ::= SEQUENCE {
 * crl [0] EXPLICIT SEQUENCE OF CRLs, ocsp [1] EXPLICIT SEQUENCE OF OCSPResponse, otherRevInfo [2] }.
 */
function collectArchival(si: SignerInfo, result: CmsResult): void {
  const values = si.signed.get(OID_REVOCATION_ARCHIVAL);
  for (const value of values ?? []) {
    const archival = expectTag(readElement(value, 0), 0, SEQUENCE, 'adbe-revocationInfoArchival');
    for (const part of children(value, archival)) {
      if (part.cls !== 2 || (part.tag !== 0 && part.tag !== 1)) continue;
      const [list] = children(value, part);
      const items = children(value, expectTag(list, 0, SEQUENCE, 'adbe-revocationInfoArchival list'));
      const target = part.tag === 0 ? result.revocation.crls : result.revocation.ocsps;
      for (const item of items) target.push(copyOf(value, item));
    }
  }
}

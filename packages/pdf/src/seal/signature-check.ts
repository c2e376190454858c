import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import { encapsulatedContent, OID_DATA, parseSignedData, verifySigner } from './cms.ts';
import { formatName } from './identity.ts';
import { checkTimestampToken } from './trust.ts';

// One signature checked straight from the file's bytes (a tampered file need not parse as a PDF):
// the gap its /ByteRange leaves must hold exactly the /Contents hex string, the ranges hash to the
// CMS message digest (for a document timestamp: to the TSTInfo's message imprint), the CMS
// signature verifies, and the padding after the CMS is zeros. A signature-time-stamp in the CMS
// unsigned attributes (PAdES B-T) must imprint the signature value and verify too.

const OID_SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

export interface ParsedCms {
  signerSubject: string | null;
  signerCertificateSha256: string | null;
  certificates: Uint8Array[];
  signingTime: string | null;
  timestampTime: string | null;
  timestampAuthority: string | null;
  timestampCertificates: Uint8Array[];
  digestAlg: string;
  /** What the signed byte ranges must hash to. */
  messageDigest: Buffer;
  /** Set when the CMS is unusable or its signature does not verify. */
  error?: string;
}

// The CMS checks do not depend on the rest of the file, so they are kept for a few recent
// signature values (re-checking the same document, or many variants of it, stays cheap).
const cmsCache = new Map<string, ParsedCms>();

export function parseCmsCached(hex: string, documentTimestamp: boolean): ParsedCms {
  const key = createHash('sha256').update(hex).update(String(documentTimestamp)).digest('hex');
  let parsed = cmsCache.get(key);
  if (!parsed) {
    parsed = parseCms(hex, documentTimestamp);
    if (cmsCache.size >= 64) cmsCache.delete(cmsCache.keys().next().value!);
    cmsCache.set(key, parsed);
  }
  return parsed;
}

function parseCms(hex: string, documentTimestamp: boolean): ParsedCms {
  const parsed: ParsedCms = {
    signerSubject: null,
    signerCertificateSha256: null,
    certificates: [],
    signingTime: null,
    timestampTime: null,
    timestampAuthority: null,
    timestampCertificates: [],
    digestAlg: 'sha256',
    messageDigest: Buffer.alloc(0),
  };
  try {
    const { signed, length } = parseSignedData(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
    if (/[^0]/.test(hex.slice(length * 2))) throw new Error('Data after the CMS in /Contents');
    parsed.certificates = (signed.certificates ?? [])
      .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
      .map((c) => new Uint8Array(c.toSchema().toBER(false)));
    if (documentTimestamp) readDocumentTimestamp(signed, parsed);
    else readSignature(signed, parsed);
  } catch (err) {
    parsed.error = err instanceof Error ? err.message : String(err);
  }
  return parsed;
}

function describeSigner(parsed: ParsedCms, certDer: Uint8Array, subject: string): void {
  parsed.signerSubject = formatName(subject);
  parsed.signerCertificateSha256 = createHash('sha256').update(certDer).digest('hex');
  parsed.certificates = [certDer, ...parsed.certificates.filter((c) => !Buffer.from(c).equals(certDer))];
}

/** ETSI.CAdES.detached / adbe.pkcs7.detached: detached id-data CMS over the byte ranges. */
function readSignature(signed: pkijs.SignedData, parsed: ParsedCms): void {
  if (signed.encapContentInfo.eContent) throw new Error('CMS is not detached');
  if (signed.encapContentInfo.eContentType !== OID_DATA) throw new Error('CMS content is not id-data');
  const signer = verifySigner(signed, OID_DATA);
  const digestAlgorithm = signer.signerInfo.digestAlgorithm.algorithmId;
  if (!signed.digestAlgorithms.some((a) => a.algorithmId === digestAlgorithm))
    throw new Error("The CMS does not list its signer's digest algorithm");
  describeSigner(parsed, signer.certDer, signer.x509.subject);
  parsed.signingTime = signer.signingTime;
  parsed.digestAlg = signer.digestAlg;
  parsed.messageDigest = signer.messageDigest;
  const token = signer.signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID_SIGNATURE_TIMESTAMP)
    ?.values[0];
  if (!token) return;
  try {
    const tokenSigned = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: token }).content });
    const { info, signer: tsa } = checkTimestampToken(tokenSigned);
    const alg = imprintAlgorithm(info);
    const value = new Uint8Array(signer.signerInfo.signature.valueBlock.valueHexView);
    const imprint = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
    if (!imprint.equals(createHash(alg).update(value).digest())) {
      throw new Error('it imprints another value than the signature');
    }
    parsed.timestampTime = info.genTime.toISOString();
    parsed.timestampAuthority = formatName(tsa.x509.subject);
    parsed.timestampCertificates = [tsa.certDer, ...tokenCertificates(tokenSigned, tsa.certDer)];
  } catch (err) {
    throw new Error(`Signature timestamp does not verify: ${(err as Error).message}`);
  }
}

/** ETSI.RFC3161 document timestamp: a TimeStampToken whose imprint is the byte ranges' hash. */
function readDocumentTimestamp(signed: pkijs.SignedData, parsed: ParsedCms): void {
  if (!encapsulatedContent(signed)) throw new Error('Document timestamp holds no TSTInfo');
  const { info, signer } = checkTimestampToken(signed);
  describeSigner(parsed, signer.certDer, signer.x509.subject);
  parsed.timestampTime = info.genTime.toISOString();
  parsed.timestampAuthority = parsed.signerSubject;
  parsed.timestampCertificates = parsed.certificates;
  parsed.digestAlg = imprintAlgorithm(info);
  parsed.messageDigest = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
}

/** The certificates a SignedData carries (DER), but `skip`. */
function tokenCertificates(signed: pkijs.SignedData, skip: Uint8Array): Uint8Array[] {
  return (signed.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => new Uint8Array(c.toSchema().toBER(false)))
    .filter((c) => !Buffer.from(c).equals(skip));
}

function imprintAlgorithm(info: pkijs.TSTInfo): string {
  const oid = info.messageImprint.hashAlgorithm.algorithmId;
  const alg = {
    '2.16.840.1.101.3.4.2.1': 'sha256',
    '2.16.840.1.101.3.4.2.2': 'sha384',
    '2.16.840.1.101.3.4.2.3': 'sha512',
  }[oid];
  if (!alg) throw new Error(`Unsupported timestamp digest ${oid}`);
  return alg;
}


import { createHash, verify as cryptoVerify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

// CMS SignedData checks shared by the verifier and the TSA client: find the signer certificate,
// check the ESS signing-certificate attribute, verify the signature over the signed attributes.

export const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
export const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_SIGNING_CERT_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_SIGNING_CERT_V1 = '1.2.840.113549.1.9.16.2.12';

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export interface VerifiedSigner {
  certDer: Uint8Array;
  x509: X509Certificate;
  digestAlg: string;
  /** The message-digest signed attribute. */
  messageDigest: Buffer;
  /** The signing-time attribute, when present (ISO 8601). */
  signingTime: string | null;
  signerInfo: pkijs.SignerInfo;
}

/**
 * Checks the one SignerInfo of a SignedData: content-type attribute equal to `contentType`, a
 * message-digest, a signing-certificate(-v2) matching the certificate, and the signature over the
 * signed attributes. Throws with the reason; the caller compares `messageDigest` with its data.
 */
export function verifySigner(signed: pkijs.SignedData, contentType: string): VerifiedSigner {
  const signerInfo = signed.signerInfos[0];
  if (!signerInfo || signed.signerInfos.length !== 1) throw new Error('CMS must hold exactly one SignerInfo');
  checkVersions(signed, signerInfo);
  const cert = findCertificate(signed, signerInfo);
  const certDer = new Uint8Array(cert.toSchema().toBER(false));
  const x509 = new X509Certificate(certDer);
  const digestAlg = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  if (!digestAlg) throw new Error(`Unsupported digest ${signerInfo.digestAlgorithm.algorithmId}`);
  const attrs = signerInfo.signedAttrs;
  if (!attrs) throw new Error('CMS has no signed attributes');
  const attr = (oid: string) => attrs.attributes.find((a) => a.type === oid)?.values[0];
  const type = attr(OID_CONTENT_TYPE);
  if (!(type instanceof asn1js.ObjectIdentifier) || type.valueBlock.toString() !== contentType) {
    throw new Error(`content-type attribute missing or not ${contentType}`);
  }
  const md = attr(OID_MESSAGE_DIGEST);
  if (!(md instanceof asn1js.OctetString)) throw new Error('message-digest attribute missing');
  const time = attr(OID_SIGNING_TIME);
  const signingTime =
    time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime
      ? time.toDate().toISOString()
      : null;
  checkSigningCertificate(attr(OID_SIGNING_CERT_V2) ?? attr(OID_SIGNING_CERT_V1), certDer);
  const signedAttrsDer = new Uint8Array(attrs.encodedValue);
  signedAttrsDer[0] = 0x31; // [0] IMPLICIT → SET OF, as signed
  const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
  if (!verifySignature(signerInfo.signatureAlgorithm, digestAlg, signedAttrsDer, signature, x509)) {
    throw new Error('CMS signature does not verify with the signer certificate');
  }
  return {
    certDer,
    x509,
    digestAlg,
    messageDigest: Buffer.from(md.valueBlock.valueHexView),
    signingTime,
    signerInfo,
  };
}

/** Parses DER ContentInfo → SignedData; `rest` is the hex after the DER (must be zero padding). */
export function parseSignedData(der: Uint8Array): { signed: pkijs.SignedData; length: number } {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1) throw new Error('Signature value is not DER');
  // asn1js reads leniently: a length that overruns its content, say, is cut to what is there. The
  // value must be exactly its own encoding, or a changed byte of the CMS could go unnoticed.
  const encoded = Buffer.from(asn.result.toBER(false));
  if (!encoded.equals(der.subarray(0, asn.offset)))
    throw new Error('Signature value is not DER (its encoding is not canonical, or it was changed)');
  // ContentInfo is two elements; a length grown over the zero padding would add more.
  if (!(asn.result instanceof asn1js.Sequence) || asn.result.valueBlock.value.length !== 2)
    throw new Error('Signature value is not a CMS ContentInfo');
  const contentInfo = new pkijs.ContentInfo({ schema: asn.result });
  if (contentInfo.contentType !== OID_SIGNED_DATA) throw new Error('CMS is not SignedData');
  return { signed: new pkijs.SignedData({ schema: contentInfo.content }), length: asn.offset };
}

/** The encapsulated content of a SignedData (e.g. a TSTInfo), as its DER bytes. */
export function encapsulatedContent(signed: pkijs.SignedData): Uint8Array | null {
  const content = signed.encapContentInfo.eContent;
  if (!content) return null;
  if (content.idBlock.isConstructed) {
    const parts = content.valueBlock.value.map(
      (p) => new Uint8Array((p as asn1js.OctetString).valueBlock.valueHexView),
    );
    return Buffer.concat(parts);
  }
  return new Uint8Array(content.valueBlock.valueHexView);
}

function findCertificate(signed: pkijs.SignedData, signerInfo: pkijs.SignerInfo): pkijs.Certificate {
  const certs = (signed.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const sid = signerInfo.sid;
  const match = certs.find((c) => {
    if (sid instanceof pkijs.IssuerAndSerialNumber) {
      return c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber);
    }
    const ski = c.extensions?.find((e) => e.extnID === '2.5.29.14')?.parsedValue;
    return ski instanceof asn1js.OctetString && sid instanceof asn1js.Primitive && ski.isEqual(sid);
  });
  if (!match) throw new Error('Signer certificate not found in the CMS');
  return match;
}

/** ESS signing-certificate(-v2): the first ESSCertID's hash must be the signer certificate's. */
function checkSigningCertificate(value: unknown, certDer: Uint8Array): void {
  if (!(value instanceof asn1js.Sequence)) return;
  const certs = value.valueBlock.value[0];
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
  if (!(first instanceof asn1js.Sequence)) throw new Error('Malformed signing-certificate attribute');
  const parts = first.valueBlock.value;
  let alg = 'sha256';
  let hashPart = parts[0];
  if (parts[0] instanceof asn1js.Sequence) {
    const oid = parts[0].valueBlock.value[0];
    alg = (oid instanceof asn1js.ObjectIdentifier && DIGESTS[oid.valueBlock.toString()]) || 'unknown';
    hashPart = parts[1];
  } else if (parts[0] instanceof asn1js.OctetString && parts[0].valueBlock.valueHexView.length === 20) {
    alg = 'sha1'; // v1 ESSCertID
  }
  if (!(hashPart instanceof asn1js.OctetString) || alg === 'unknown') {
    throw new Error('Malformed signing-certificate attribute');
  }
  const expected = createHash(alg).update(certDer).digest();
  if (!Buffer.from(hashPart.valueBlock.valueHexView).equals(expected)) {
    throw new Error('signing-certificate attribute does not match the signer certificate');
  }
}

/**
 * The version numbers RFC 5652 fixes (5.1, 5.3). They are outside what the signer signed, so a
 * wrong one is the only sign that they were changed.
 */
function checkVersions(signed: pkijs.SignedData, signerInfo: pkijs.SignerInfo): void {
  const bySubjectKey = !(signerInfo.sid instanceof pkijs.IssuerAndSerialNumber);
  if (signerInfo.version !== (bySubjectKey ? 3 : 1))
    throw new Error(`SignerInfo version ${signerInfo.version} does not match its signer identifier`);
  const otherCertificates = (signed.certificates ?? []).some((c) => !(c instanceof pkijs.Certificate));
  if (otherCertificates) {
    if (signed.version < 3 || signed.version > 5) throw new Error(`SignedData version ${signed.version}`);
    return;
  }
  const expected = bySubjectKey || signed.encapContentInfo.eContentType !== OID_DATA ? 3 : 1;
  if (signed.version !== expected)
    throw new Error(`SignedData version ${signed.version}; RFC 5652 gives ${expected} for this content`);
}

/** RSA PKCS #1 v1.5 takes NULL parameters (or none), ECDSA none: anything else was not made so. */
function checkAlgorithmParameters(algorithm: pkijs.AlgorithmIdentifier, ecdsa: boolean): void {
  const params = algorithm.algorithmParams as asn1js.AsnType | undefined;
  if (params === undefined) return;
  if (ecdsa || !(params instanceof asn1js.Null))
    throw new Error(`Unexpected parameters for signature algorithm ${algorithm.algorithmId}`);
}

function verifySignature(
  algorithm: pkijs.AlgorithmIdentifier,
  digestAlg: string,
  data: Uint8Array,
  signature: Uint8Array,
  cert: X509Certificate,
): boolean {
  const key = cert.publicKey;
  const oid = algorithm.algorithmId;
  if (oid === '1.2.840.113549.1.1.10') {
    const params = pssParams(algorithm);
    return cryptoVerify(params.hash, data, { key, padding: 6, saltLength: params.saltLength }, signature);
  }
  const rsaByOid: Record<string, string> = {
    '1.2.840.113549.1.1.5': 'sha1',
    '1.2.840.113549.1.1.11': 'sha256',
    '1.2.840.113549.1.1.12': 'sha384',
    '1.2.840.113549.1.1.13': 'sha512',
  };
  const ecByOid: Record<string, string> = {
    '1.2.840.10045.4.1': 'sha1',
    '1.2.840.10045.4.3.2': 'sha256',
    '1.2.840.10045.4.3.3': 'sha384',
    '1.2.840.10045.4.3.4': 'sha512',
  };
  if (oid === '1.2.840.113549.1.1.1' || rsaByOid[oid]) checkAlgorithmParameters(algorithm, false);
  if (ecByOid[oid]) checkAlgorithmParameters(algorithm, true);
  if (oid === '1.2.840.113549.1.1.1') return cryptoVerify(digestAlg, data, key, signature);
  if (rsaByOid[oid]) return cryptoVerify(rsaByOid[oid], data, key, signature);
  if (oid === '1.2.840.10045.2.1')
    return cryptoVerify(digestAlg, data, { key, dsaEncoding: 'der' }, signature);
  if (ecByOid[oid]) return cryptoVerify(ecByOid[oid], data, { key, dsaEncoding: 'der' }, signature);
  throw new Error(`Unsupported signature algorithm ${oid}`);
}

function pssParams(algorithm: pkijs.AlgorithmIdentifier): { hash: string; saltLength: number } {
  const params = new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams });
  return {
    hash: DIGESTS[params.hashAlgorithm.algorithmId] ?? 'sha1',
    saltLength: params.saltLength,
  };
}

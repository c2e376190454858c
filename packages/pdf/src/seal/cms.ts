import { X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { checkSigningCertificate, DIGESTS, verifySignatureValue } from '../verify/cms-algorithms.ts';

// CMS SignedData checks for the TSA client (the verifier reads CMS with verify/cms-check.ts): find the signer certificate,
// check the ESS signing-certificate attribute, verify the signature over the signed attributes.

const OID_DATA = '1.2.840.113549.1.7.1';
export const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_SIGNING_CERT_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_SIGNING_CERT_V1 = '1.2.840.113549.1.9.16.2.12';

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
  const v2 = attr(OID_SIGNING_CERT_V2);
  const ess = v2 ?? attr(OID_SIGNING_CERT_V1);
  if (ess) checkSigningCertificate(ess, certDer, v2 !== undefined);
  const signedAttrsDer = new Uint8Array(attrs.encodedValue);
  signedAttrsDer[0] = 0x31; // [0] IMPLICIT → SET OF, as signed
  const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
  const algorithm = signerInfo.signatureAlgorithm;
  const params = algorithm.algorithmParams as asn1js.AsnType | undefined;
  const id = {
    oid: algorithm.algorithmId,
    params: params === undefined ? null : new Uint8Array(params.toBER(false)),
  };
  if (!verifySignatureValue(id, digestAlg, [signedAttrsDer], signature, x509)) {
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

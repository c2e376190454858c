import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { TrustFetch } from '../../src/seal/index.ts';

// A self-made RFC 3161 time-stamping authority for the verifier's corpus (issue 30): its own
// RSA key and self-signed certificate (extendedKeyUsage timeStamping, critical), tokens built
// with pkijs/asn1js and signed with node:crypto. It answers TimeStampReq bodies through a
// TrustFetch (so `createTimestampAuthority` seals B-LTA files with it, in process), and makes
// tokens for any digest at any claimed time (the forged, back-dated timestamp of item 5).

const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_CERT_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const OID_POLICY = '1.3.6.1.4.1.99999.30.1';
const DAY_MS = 24 * 3600 * 1000;

const ab = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
const sha256Alg = () => new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256 });
const rsaAlg = () =>
  new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256_WITH_RSA, algorithmParams: new asn1js.Null() });

function name(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({
        type: '2.5.4.10',
        value: new asn1js.Utf8String({ value: 'corpus' }),
      }),
      new pkijs.AttributeTypeAndValue({
        type: '2.5.4.3',
        value: new asn1js.Utf8String({ value: commonName }),
      }),
    ],
  });
}

export interface TestTsa {
  commonName: string;
  certDer: Uint8Array;
  /** A TimeStampToken (ContentInfo DER) imprinting `digest` (SHA-256) at `time`. */
  token(digest: Uint8Array, time: Date, nonce?: asn1js.Integer): Uint8Array;
  /** Answers RFC 3161 requests (POST application/timestamp-query) at the current time. */
  fetch: TrustFetch;
}

/**
 * A TSA whose certificate is valid from `notBefore` (default: a day ago) for ten years. Its
 * tokens name it (TSTInfo `tsa`) unless `anonymous`.
 */
export function createTestTsa(
  commonName = 'Corpus Time Stamping Unit',
  opts: { notBefore?: Date; anonymous?: boolean } = {},
): TestTsa {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = certificate(
    commonName,
    privateKey,
    publicKey,
    opts.notBefore ?? new Date(Date.now() - DAY_MS),
  );
  const certDer = new Uint8Array(cert.toSchema(false).toBER(false));
  let serial = 1;
  const token = (digest: Uint8Array, time: Date, nonce?: asn1js.Integer) => {
    const info = new pkijs.TSTInfo({
      version: 1,
      policy: OID_POLICY,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: sha256Alg(),
        hashedMessage: new asn1js.OctetString({ valueHex: ab(digest) }),
      }),
      serialNumber: new asn1js.Integer({ value: serial++ }),
      genTime: new Date(Math.floor(time.getTime() / 1000) * 1000),
      ...(nonce ? { nonce } : {}),
      ...(opts.anonymous ? {} : { tsa: new pkijs.GeneralName({ type: 4, value: cert.subject }) }),
    });
    return signToken(new Uint8Array(info.toSchema().toBER(false)), cert, certDer, privateKey);
  };
  const fetch: TrustFetch = async (_url, init) => {
    const request = pkijs.TimeStampReq.fromBER(ab(init.body!));
    const digest = new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView);
    const der = token(digest, new Date(), request.nonce);
    const response = new asn1js.Sequence({
      value: [new pkijs.PKIStatusInfo({ status: 0 }).toSchema(), asn1js.fromBER(ab(der)).result],
    });
    return { status: 200, body: new Uint8Array(response.toBER(false)) };
  };
  return { commonName, certDer, token, fetch };
}

function certificate(commonName: string, privateKey: KeyObject, publicKey: KeyObject, notBefore: Date) {
  const spki = pkijs.PublicKeyInfo.fromBER(new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })));
  const serial = randomBytes(12);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);
  const cert = new pkijs.Certificate({
    version: 2,
    serialNumber: new asn1js.Integer({ valueHex: ab(serial) }),
    signature: rsaAlg(),
    issuer: name(commonName),
    subject: name(commonName),
    notBefore: new pkijs.Time({ type: 1, value: second(notBefore.getTime()) }),
    notAfter: new pkijs.Time({ type: 1, value: second(notBefore.getTime() + 3650 * DAY_MS) }),
    subjectPublicKeyInfo: spki,
    extensions: [
      new pkijs.Extension({
        extnID: '2.5.29.19',
        critical: true,
        extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false),
      }),
      new pkijs.Extension({
        extnID: '2.5.29.37',
        critical: true,
        extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [OID_TIME_STAMPING] }).toSchema().toBER(false),
      }),
    ],
    signatureAlgorithm: rsaAlg(),
  });
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER(false));
  cert.signatureValue = new asn1js.BitString({ valueHex: ab(sign('sha256', cert.tbsView, privateKey)) });
  return cert;
}

/** SignedData over a TSTInfo: content-type, message-digest and signing-certificate-v2 attributes. */
function signToken(
  tstInfo: Uint8Array,
  cert: pkijs.Certificate,
  certDer: Uint8Array,
  key: KeyObject,
): Uint8Array {
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.OctetString({ valueHex: ab(createHash('sha256').update(certDer).digest()) })],
          }),
        ],
      }),
    ],
  });
  const attrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({
        type: OID_CONTENT_TYPE,
        values: [new asn1js.ObjectIdentifier({ value: OID_TST_INFO })],
      }),
      new pkijs.Attribute({
        type: OID_MESSAGE_DIGEST,
        values: [new asn1js.OctetString({ valueHex: ab(createHash('sha256').update(tstInfo).digest()) })],
      }),
      new pkijs.Attribute({ type: OID_SIGNING_CERT_V2, values: [essCertIdV2] }),
    ],
  });
  const setDer = new Uint8Array(
    new asn1js.Set({ value: attrs.attributes.map((a) => a.toSchema()) }).toBER(false),
  );
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    digestAlgorithm: sha256Alg(),
    signedAttrs: attrs,
    signatureAlgorithm: rsaAlg(),
    signature: new asn1js.OctetString({ valueHex: ab(sign('sha256', setDer, key)) }),
  });
  const signed = new pkijs.SignedData({
    version: 3,
    digestAlgorithms: [sha256Alg()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: OID_TST_INFO,
      eContent: new asn1js.OctetString({ valueHex: ab(tstInfo) }),
    }),
    certificates: [cert],
    signerInfos: [signerInfo],
  });
  const info = new pkijs.ContentInfo({ contentType: OID_SIGNED_DATA, content: signed.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

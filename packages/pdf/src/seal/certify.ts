import { createHash } from 'node:crypto';
import {
  type PDF,
  PdfArray,
  PdfDict,
  PdfName,
  PdfNumber,
  PdfString,
  type Signer,
  type TimestampAuthority,
} from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

// The seal's own signature: a PAdES baseline certification signature (ISO 32000-2 §12.8.2.2,
// DocMDP with P = 1: no change allowed except the DSS and document timestamps that long-term
// validation adds), CAdES detached CMS with the signed attributes content-type, message-digest
// and signing-certificate-v2 only (no signing-time: PAdES baseline puts the claimed time in the
// signature dictionary's /M), and, when a TSA is given, an RFC 3161 signature-time-stamp as an
// unsigned attribute (B-T). @libpdf/core 0.4's own sign() writes signing-time and cannot
// certify, so the ceremony is done here with its object model and pkijs for the CMS.

const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const OID_SIGNING_CERT_V2 = '1.2.840.113549.1.9.16.2.47';
const OID_SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';
const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_RSA_SHA256 = '1.2.840.113549.1.1.11';
const OID_ECDSA_SHA256 = '1.2.840.10045.4.3.2';

/** Ten-digit numbers: the ByteRange is patched in place with values padded to the same width. */
const RANGE_PLACEHOLDER = 9_999_999_999;

export interface CertifyOptions {
  signer: Signer;
  /** The claimed signing time, written to /M. */
  signingTime: Date;
  reason?: string;
  location?: string;
  /** /ContactInfo: how a recipient can check the signature (the service's verify page). */
  contactInfo?: string;
  fieldName?: string;
  /** Bytes reserved for the CMS (the hex string is twice as long). */
  reservedBytes: number;
  timestampAuthority?: TimestampAuthority;
  /** DocMDP P: 1 no changes (the seal's), 2 form filling and signing, 3 also annotations. */
  docMdp?: 1 | 2 | 3;
}

const ab = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** PDF date string `D:YYYYMMDDHHmmSSZ` (UTC). */
function pdfDateUtc(date: Date): string {
  const iso = date.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

/** Adds the certification signature as one incremental update and returns the signed bytes. */
export async function certifyPdf(pdf: PDF, opts: CertifyOptions): Promise<Uint8Array> {
  addSignatureDictionary(pdf, opts);
  const bytes = await pdf.save({ incremental: true });
  const gap = locatePlaceholder(bytes, opts.reservedBytes);
  const range = `[0 ${pad(gap.start)} ${pad(gap.end)} ${pad(bytes.length - gap.end)}]`;
  bytes.set(new TextEncoder().encode(range), gap.rangeAt);
  const digest = createHash('sha256')
    .update(bytes.subarray(0, gap.start))
    .update(bytes.subarray(gap.end))
    .digest();
  const cms = await buildCms(opts, new Uint8Array(digest));
  const hex = Buffer.from(cms).toString('hex');
  if (hex.length > opts.reservedBytes * 2) {
    throw new Error(
      `The signature (${cms.length} bytes) does not fit the ${opts.reservedBytes} bytes reserved`,
    );
  }
  bytes.set(new TextEncoder().encode(hex), gap.start + 1);
  return bytes;
}

const pad = (n: number) => String(n).padEnd(10, ' ');

function addSignatureDictionary(pdf: PDF, opts: CertifyOptions): void {
  const entries: Record<string, ReturnType<typeof PdfName.of> | PdfDict | PdfArray | PdfString | PdfNumber> =
    {
      Type: PdfName.of('Sig'),
      Filter: PdfName.of('Adobe.PPKLite'),
      SubFilter: PdfName.of('ETSI.CAdES.detached'),
      ByteRange: PdfArray.of(
        ...[0, RANGE_PLACEHOLDER, RANGE_PLACEHOLDER, RANGE_PLACEHOLDER].map((n) => PdfNumber.of(n)),
      ),
      Contents: PdfString.fromBytes(new Uint8Array(opts.reservedBytes)),
      M: PdfString.fromString(pdfDateUtc(opts.signingTime)),
      Reference: PdfArray.of(
        PdfDict.of({
          Type: PdfName.of('SigRef'),
          TransformMethod: PdfName.of('DocMDP'),
          TransformParams: PdfDict.of({
            Type: PdfName.of('TransformParams'),
            P: PdfNumber.of(opts.docMdp ?? 1),
            V: PdfName.of('1.2'),
          }),
        }),
      ),
    };
  if (opts.reason) entries.Reason = PdfString.fromString(opts.reason);
  if (opts.location) entries.Location = PdfString.fromString(opts.location);
  if (opts.contactInfo) entries.ContactInfo = PdfString.fromString(opts.contactInfo);
  const sigRef = pdf.context.register(PdfDict.of(entries));

  const form = pdf.getOrCreateForm();
  const taken = new Set(form.getFields().map((f) => f.name));
  let name = opts.fieldName ?? 'Seal';
  for (let n = 2; taken.has(name); n++) name = `${opts.fieldName ?? 'Seal'}_${n}`;
  const field = form.createSignatureField(name).getDict();
  const firstPage = pdf.context.pages.getPage(0);
  if (!firstPage) throw new Error('The document has no pages');
  field.delete('Kids');
  field.set('V', sigRef);
  field.set('Type', PdfName.of('Annot'));
  field.set('Subtype', PdfName.of('Widget'));
  field.set('F', PdfNumber.of(132));
  field.set('P', firstPage);
  field.set('Rect', PdfArray.of(PdfNumber.of(0), PdfNumber.of(0), PdfNumber.of(0), PdfNumber.of(0)));
  form.acroForm().getDict().set('SigFlags', PdfNumber.of(3));
  pdf.getCatalog().set('Perms', PdfDict.of({ DocMDP: sigRef }));
}

/** Where the newest /Contents placeholder and its /ByteRange are. */
function locatePlaceholder(bytes: Uint8Array, reserved: number) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = buf.lastIndexOf(`<${'0'.repeat(reserved * 2)}>`, undefined, 'latin1');
  const rangeAt = buf.lastIndexOf(
    `[0 ${RANGE_PLACEHOLDER} ${RANGE_PLACEHOLDER} ${RANGE_PLACEHOLDER}]`,
    undefined,
    'latin1',
  );
  if (start < 0 || rangeAt < 0) throw new Error('Signature placeholders not found in the saved PDF');
  return { start, end: start + reserved * 2 + 2, rangeAt };
}

/**
 * The CMS SignedData (RFC 5652 §5) around the seal's signature, in DER.
 *
 * The parts that never change for one sealing identity (its certificates, the signer's
 * issuer-and-serial, the signing-certificate-v2 attribute) are encoded by pkijs once per process;
 * each seal only joins them with the document digest, the signature and the timestamp token.
 * Re-encoding the certificates with pkijs on every seal took two thirds of the signing step
 * (bench/README.md, Sealing).
 */
export async function buildCms(opts: CertifyOptions, digest: Uint8Array): Promise<Uint8Array> {
  const { signer } = opts;
  const parts = identityParts(signer.certificate, signer.certificateChain ?? []);
  const attributes = [
    CONTENT_TYPE_ATTRIBUTE,
    der(SEQUENCE, OID_DER.messageDigest, der(SET, der(OCTET_STRING, digest))),
    parts.signingCertificateV2,
  ];
  // RFC 5652 §5.4: the signature covers the attributes as a SET OF; the SignerInfo carries them [0] IMPLICIT.
  const signature = await signer.sign(der(SET, ...attributes), 'SHA-256');
  const signerInfo: Uint8Array[] = [
    VERSION_1,
    parts.issuerAndSerialNumber,
    SHA256_ALGORITHM,
    der(CONTEXT_0, ...attributes),
    signer.keyType === 'EC' ? ECDSA_SHA256_ALGORITHM : RSA_SHA256_ALGORITHM,
    der(OCTET_STRING, signature),
  ];
  if (opts.timestampAuthority) {
    const imprint = new Uint8Array(createHash('sha256').update(signature).digest());
    const token = await opts.timestampAuthority.timestamp(imprint, 'SHA-256');
    signerInfo.push(der(CONTEXT_1, der(SEQUENCE, OID_DER.signatureTimestamp, der(SET, wholeDer(token)))));
  }
  const signedData = der(
    SEQUENCE,
    VERSION_1,
    der(SET, SHA256_ALGORITHM),
    der(SEQUENCE, OID_DER.data),
    der(CONTEXT_0, ...parts.certificates),
    der(SET, der(SEQUENCE, ...signerInfo)),
  );
  return der(SEQUENCE, OID_DER.signedData, der(CONTEXT_0, signedData));
}

const SEQUENCE = 0x30;
const SET = 0x31;
const OCTET_STRING = 0x04;
/** Constructed, context-specific [0] and [1]. */
const CONTEXT_0 = 0xa0;
const CONTEXT_1 = 0xa1;

/** One DER element: the tag, the definite length, then the contents. */
function der(tag: number, ...contents: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const c of contents) length += c.length;
  const head: number[] = [tag];
  if (length < 0x80) head.push(length);
  else {
    const octets: number[] = [];
    for (let n = length; n > 0; n = Math.floor(n / 256)) octets.unshift(n % 256);
    head.push(0x80 | octets.length, ...octets);
  }
  const out = new Uint8Array(head.length + length);
  out.set(head);
  let at = head.length;
  for (const c of contents) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const encode = (value: { toBER(sizeOnly?: boolean): ArrayBuffer }) => new Uint8Array(value.toBER(false));
const oid = (value: string) => encode(new asn1js.ObjectIdentifier({ value }));
const OID_DER = {
  data: oid(OID_DATA),
  signedData: oid(OID_SIGNED_DATA),
  messageDigest: oid(OID_MESSAGE_DIGEST),
  signatureTimestamp: oid(OID_SIGNATURE_TIMESTAMP),
};
const VERSION_1 = encode(new asn1js.Integer({ value: 1 }));
const SHA256_ALGORITHM = encode(new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256 }).toSchema());
const RSA_SHA256_ALGORITHM = encode(
  new pkijs.AlgorithmIdentifier({
    algorithmId: OID_RSA_SHA256,
    algorithmParams: new asn1js.Null(),
  }).toSchema(),
);
const ECDSA_SHA256_ALGORITHM = encode(
  new pkijs.AlgorithmIdentifier({ algorithmId: OID_ECDSA_SHA256 }).toSchema(),
);
const CONTENT_TYPE_ATTRIBUTE = encode(
  new pkijs.Attribute({
    type: OID_CONTENT_TYPE,
    values: [new asn1js.ObjectIdentifier({ value: OID_DATA })],
  }).toSchema(),
);

/** The timestamp token as one DER element; anything else is the TSA's error, not a token to embed. */
function wholeDer(token: Uint8Array): Uint8Array {
  const parsed = asn1js.fromBER(ab(token));
  if (parsed.offset !== token.length || parsed.result.error) {
    throw new Error('The timestamp authority answered a token that is not one DER element');
  }
  return token;
}

interface IdentityParts {
  certificates: Uint8Array[];
  issuerAndSerialNumber: Uint8Array;
  signingCertificateV2: Uint8Array;
}

/**
 * The sealing identity's constant CMS parts, encoded once per process. Keyed by the DER bytes the
 * identity holds, so a reloaded identity is encoded again.
 */
const identities = new WeakMap<Uint8Array, IdentityParts>();
function identityParts(certificate: Uint8Array, chain: Uint8Array[]): IdentityParts {
  let parts = identities.get(certificate);
  const sameChain = (p: IdentityParts) =>
    p.certificates.length === chain.length + 1 && chain.every((c, i) => p.certificates[i + 1] === c);
  if (!parts || !sameChain(parts)) {
    const cert = pkijs.Certificate.fromBER(ab(certificate));
    parts = {
      certificates: [certificate, ...chain],
      issuerAndSerialNumber: encode(
        new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }).toSchema(),
      ),
      signingCertificateV2: encode(signingCertificateV2(cert, certificate).toSchema()),
    };
    identities.set(certificate, parts);
  }
  return parts;
}

/** ESS signing-certificate-v2 (RFC 5035) with the SHA-256 of the certificate and its issuer/serial. */
function signingCertificateV2(cert: pkijs.Certificate, der: Uint8Array): pkijs.Attribute {
  const hash = createHash('sha256').update(der).digest();
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: ab(new Uint8Array(hash)) }), issuerSerial.toSchema()],
  });
  return new pkijs.Attribute({
    type: OID_SIGNING_CERT_V2,
    values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
  });
}

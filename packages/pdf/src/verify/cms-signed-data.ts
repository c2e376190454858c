import * as asn1js from 'asn1js';
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
  SET,
  smallIntOf,
} from './ber.ts';
import type { AlgorithmId } from './cms-algorithms.ts';

// Reading a CMS SignedData (RFC 5652) from its BER bytes for cms-check.ts: its fields, signer
// infos and attributes, without judging them.

const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_RI_OCSP_RESPONSE = '1.3.6.1.5.5.7.16.2';

export interface SignedData {
  version: number;
  digestAlgorithms: string[];
  contentType: string;
  /** The encapsulated content's octets, null when detached. */
  content: Uint8Array | null;
  certificates: Uint8Array[];
  /** Certificates of another format than X.509 (attribute certificates, other). */
  otherCertificates: boolean;
  crls: Uint8Array[];
  ocsps: Uint8Array[];
  /** Revocation data of another format than a CRL (RFC 5652 OtherRevocationInfoFormat). */
  otherRevocation: boolean;
  signerInfos: SignerInfo[];
}

export interface SignerInfo {
  version: number;
  sid: { issuer: Uint8Array; serial: Uint8Array } | { keyId: Uint8Array };
  digest: AlgorithmId;
  /** The signed attributes' encoding (tagged [0]), null when there are none. */
  signedAttrs: Uint8Array | null;
  signed: Map<string, Uint8Array[]>;
  unsigned: Map<string, Uint8Array[]>;
  signatureAlgorithm: AlgorithmId;
  signature: Uint8Array;
}

/** ContentInfo → SignedData, the first BER element of `bytes` (what follows is not read). */
export function parseSignedData(bytes: Uint8Array): SignedData {
  const info = expectTag(readElement(bytes, 0), 0, SEQUENCE, 'ContentInfo');
  const [type, wrapped, ...extra] = children(bytes, info);
  if (extra.length > 0) throw new BerError('ContentInfo has more than two elements');
  if (oidOf(bytes, type, 'ContentInfo contentType') !== OID_SIGNED_DATA)
    throw new Error('The CMS is not SignedData');
  const inner = children(bytes, expectTag(wrapped, 2, 0, 'ContentInfo content'));
  if (inner.length !== 1) throw new BerError('ContentInfo content is not one element');
  const fields = children(bytes, expectTag(inner[0], 0, SEQUENCE, 'SignedData'));
  const version = smallIntOf(bytes, fields.shift(), 'SignedData version');
  const digestAlgorithms = children(
    bytes,
    expectTag(fields.shift(), 0, SET, 'SignedData digestAlgorithms'),
  ).map((a) => algorithmOf(bytes, a, 'digest algorithm').oid);
  const encap = children(bytes, expectTag(fields.shift(), 0, SEQUENCE, 'SignedData encapContentInfo'));
  const contentType = oidOf(bytes, encap[0], 'eContentType');
  let content: Uint8Array | null = null;
  if (encap.length > 2) throw new BerError('encapContentInfo has more than two elements');
  if (encap[1]) {
    const explicit = children(bytes, expectTag(encap[1], 2, 0, 'eContent'));
    if (explicit.length !== 1) throw new BerError('eContent is not one element');
    content = contentOf(bytes, expectTag(explicit[0], 0, 4, 'eContent OCTET STRING'));
  }
  const sd: SignedData = {
    version,
    digestAlgorithms,
    contentType,
    content,
    certificates: [],
    otherCertificates: false,
    crls: [],
    ocsps: [],
    otherRevocation: false,
    signerInfos: [],
  };
  if (fields[0]?.cls === 2 && fields[0].tag === 0) {
    for (const cert of children(bytes, fields.shift()!)) {
      if (cert.cls === 0 && cert.tag === SEQUENCE) sd.certificates.push(copyOf(bytes, cert));
      else sd.otherCertificates = true;
    }
  }
  if (fields[0]?.cls === 2 && fields[0].tag === 1) {
    for (const entry of children(bytes, fields.shift()!)) {
      if (entry.cls === 0 && entry.tag === SEQUENCE) sd.crls.push(copyOf(bytes, entry));
      else if (entry.cls === 2 && entry.tag === 1) {
        sd.otherRevocation = true;
        const [format, value] = children(bytes, entry);
        if (oidOf(bytes, format, 'revocation info format') === OID_RI_OCSP_RESPONSE && value)
          sd.ocsps.push(copyOf(bytes, value));
      } else throw new BerError('SignedData crls holds an unknown element');
    }
  }
  const infos = expectTag(fields.shift(), 0, SET, 'SignedData signerInfos');
  if (fields.length > 0) throw new BerError('SignedData has unexpected elements');
  sd.signerInfos = children(bytes, infos).map((e) => parseSignerInfo(bytes, e));
  if (sd.signerInfos.length === 0) throw new Error('The CMS holds no SignerInfo');
  return sd;
}

/** An element's encoding as a Uint8Array of its own (what checkCms returns outlives the input). */
export const copyOf = (bytes: Uint8Array, e: Element): Uint8Array => new Uint8Array(encodingOf(bytes, e));

export function algorithmOf(bytes: Uint8Array, e: Element | undefined, what: string): AlgorithmId {
  const parts = children(bytes, expectTag(e, 0, SEQUENCE, what));
  if (parts.length > 2) throw new BerError(`${what} has more than two elements`);
  return { oid: oidOf(bytes, parts[0], what), params: parts[1] ? encodingOf(bytes, parts[1]) : null };
}

function parseSignerInfo(bytes: Uint8Array, e: Element): SignerInfo {
  const fields = children(bytes, expectTag(e, 0, SEQUENCE, 'SignerInfo'));
  const version = smallIntOf(bytes, fields.shift(), 'SignerInfo version');
  const sidElement = fields.shift();
  let sid: SignerInfo['sid'];
  if (sidElement?.cls === 2 && sidElement.tag === 0 && !sidElement.constructed) {
    sid = { keyId: bytes.subarray(sidElement.contentStart, sidElement.contentEnd) };
  } else {
    const [issuer, serial, ...extra] = children(bytes, expectTag(sidElement, 0, SEQUENCE, 'SignerInfo sid'));
    if (extra.length > 0) throw new BerError('issuerAndSerialNumber has more than two elements');
    sid = {
      issuer: encodingOf(bytes, expectTag(issuer, 0, SEQUENCE, 'sid issuer')),
      serial: bytes.subarray(...range(expectTag(serial, 0, 2, 'sid serialNumber'))),
    };
  }
  const digest = algorithmOf(bytes, fields.shift(), 'SignerInfo digestAlgorithm');
  let signedAttrs: Uint8Array | null = null;
  let signed = new Map<string, Uint8Array[]>();
  if (fields[0]?.cls === 2 && fields[0].tag === 0) {
    const attrs = fields.shift()!;
    signedAttrs = encodingOf(bytes, attrs);
    signed = attributes(bytes, attrs);
  }
  const signatureAlgorithm = algorithmOf(bytes, fields.shift(), 'SignerInfo signatureAlgorithm');
  const signatureElement = expectTag(fields.shift(), 0, 4, 'SignerInfo signature');
  const signature = contentOf(bytes, signatureElement);
  let unsigned = new Map<string, Uint8Array[]>();
  if (fields[0]?.cls === 2 && fields[0].tag === 1) unsigned = attributes(bytes, fields.shift()!);
  if (fields.length > 0) throw new BerError('SignerInfo has unexpected elements');
  return { version, sid, digest, signedAttrs, signed, unsigned, signatureAlgorithm, signature };
}

export const range = (e: Element): [number, number] => [e.contentStart, e.contentEnd];

/**
 * Attributes the check reads, which may appear once (RFC 5652 §11, RFC 5035): content type,
 * message digest, signing time, signing certificate (v1, v2). Other types given twice (a
 * vendor's attribute, as some national eID cards write) have their values joined.
 */
const SINGLE_ATTRIBUTES = new Set([
  '1.2.840.113549.1.9.3',
  '1.2.840.113549.1.9.4',
  '1.2.840.113549.1.9.5',
  '1.2.840.113549.1.9.16.2.12',
  '1.2.840.113549.1.9.16.2.47',
]);

/** Attributes by type: each value's encoding. One of SINGLE_ATTRIBUTES given twice is refused. */
function attributes(bytes: Uint8Array, set: Element): Map<string, Uint8Array[]> {
  const map = new Map<string, Uint8Array[]>();
  for (const attr of children(bytes, set)) {
    const [type, values, ...extra] = children(bytes, expectTag(attr, 0, SEQUENCE, 'Attribute'));
    if (extra.length > 0) throw new BerError('Attribute has more than two elements');
    const oid = oidOf(bytes, type, 'Attribute type');
    if (map.has(oid) && SINGLE_ATTRIBUTES.has(oid)) throw new Error(`Attribute ${oid} appears twice`);
    const found = children(bytes, expectTag(values, 0, SET, 'Attribute values')).map((v) =>
      encodingOf(bytes, v),
    );
    map.set(oid, [...(map.get(oid) ?? []), ...found]);
  }
  return map;
}

/** One value of a single-valued attribute, parsed (small values only), or undefined. */
export function attributeValue(attrs: Map<string, Uint8Array[]>, oid: string): asn1js.AsnType | undefined {
  const values = attrs.get(oid);
  if (!values) return undefined;
  if (values.length !== 1) throw new Error(`Attribute ${oid} must have exactly one value`);
  const asn = asn1js.fromBER(values[0]!);
  if (asn.offset === -1) throw new Error(`Attribute ${oid} is malformed`);
  return asn.result;
}

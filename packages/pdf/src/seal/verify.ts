import { createHash, verify as cryptoVerify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { formatName } from './identity.ts';

/** Result of checking one embedded signature. */
export interface SignatureCheck {
  /** The signed byte ranges hash to the CMS message digest and the CMS signature verifies with the signer's key. */
  valid: boolean;
  /** The signed ranges run from byte 0 to the end of the file, leaving out only this signature's value. */
  coversWholeDocument: boolean;
  /** Bytes follow this signature's signed range that no later valid signature covers. */
  modifiedAfterSigning: boolean;
  subFilter: string;
  signerSubject: string | null;
  /** SHA-256 of the signer certificate's DER, lowercase hex. */
  signerCertificateSha256: string | null;
  /** ISO 8601; the CMS signing-time attribute, else the signature dictionary's /M. */
  signingTime: string | null;
  reason: string | null;
  error?: string;
}

const OID_DATA = '1.2.840.113549.1.7.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
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

const latin1 = new TextDecoder('latin1');

/**
 * Checks every signature in a PDF cryptographically, straight from the file's bytes (a tampered
 * file need not parse as a PDF any more): each `/ByteRange` found is read, the gap it leaves must
 * hold exactly the `/Contents` hex string, the ranges are hashed and compared with the CMS
 * message-digest attribute, the CMS signature over the signed attributes is verified with the
 * certificate's public key (RSA PKCS#1 v1.5, RSA-PSS, ECDSA), a signing-certificate(-v2)
 * attribute must match that certificate, and the hex padding after the CMS must be zeros.
 *
 * Trust in the certificate (chains, revocation) is not judged here: the caller compares
 * `signerCertificateSha256` with the certificates it trusts.
 */
export async function inspectSignatures(pdf: Uint8Array): Promise<SignatureCheck[]> {
  const text = latin1.decode(pdf);
  const found: { check: SignatureCheck; end: number }[] = [];
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const range = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
    const dict = enclosingObject(text, m.index);
    found.push({ check: checkOne(pdf, text, range, dict), end: range[2] + range[3] });
  }
  // A later valid signature vouches for the bytes between an earlier one's end and its own end.
  const checks = found.map((f) => f.check);
  for (let i = 0; i < found.length; i++) {
    const { check, end } = found[i]!;
    const coveredUntil = Math.max(
      end,
      ...found.filter((g, j) => j !== i && g.check.valid && g.end > end).map((g) => g.end),
    );
    check.modifiedAfterSigning = coveredUntil < pdf.length;
  }
  return checks;
}

/** True when the document has at least one signature and the last one is valid and covers every byte. */
export function isIntact(checks: SignatureCheck[]): boolean {
  const last = checks[checks.length - 1];
  return !!last && checks.every((c) => c.valid) && last.coversWholeDocument && !last.modifiedAfterSigning;
}

function enclosingObject(text: string, at: number): string {
  const start = text.lastIndexOf(' obj', at);
  const end = text.indexOf('endobj', at);
  return text.slice(
    start < 0 ? Math.max(0, at - 4096) : start,
    end < 0 ? Math.min(text.length, at + 65536) : end,
  );
}

function checkOne(
  pdf: Uint8Array,
  text: string,
  [o1, l1, o2, l2]: [number, number, number, number],
  dict: string,
): SignatureCheck {
  const check: SignatureCheck = {
    valid: false,
    coversWholeDocument: false,
    modifiedAfterSigning: false,
    subFilter: /\/SubFilter\s*\/([^\s/<>[\]()]+)/.exec(dict)?.[1] ?? '',
    signerSubject: null,
    signerCertificateSha256: null,
    signingTime: pdfDate(readString(dict, 'M')),
    reason: readString(dict, 'Reason'),
  };
  try {
    if (o1 !== 0 || l1 <= 0 || o2 <= l1 || l2 < 0 || o2 + l2 > pdf.length) {
      throw new Error('ByteRange does not fit the file');
    }
    check.coversWholeDocument = o2 + l2 === pdf.length;
    const gap = text.slice(l1, o2);
    if (!/^<[0-9A-Fa-f\s]*>$/.test(gap)) throw new Error('ByteRange gap is not the /Contents hex string');
    const hex = gap.slice(1, -1).replace(/\s+/g, '');
    const cms = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');

    const parsed = parseCmsCached(hex, cms);
    check.signerSubject = parsed.signerSubject;
    check.signerCertificateSha256 = parsed.signerCertificateSha256;
    if (parsed.signingTime) check.signingTime = parsed.signingTime;
    if (parsed.error) throw new Error(parsed.error);

    const hash = createHash(parsed.digestAlg);
    hash.update(pdf.subarray(o1, o1 + l1));
    hash.update(pdf.subarray(o2, o2 + l2));
    const documentDigest = hash.digest();
    if (!parsed.messageDigest.equals(documentDigest)) {
      throw new Error('Document digest does not match the signed message digest');
    }
    check.valid = true;
  } catch (err) {
    check.valid = false;
    check.error = err instanceof Error ? err.message : String(err);
  }
  return check;
}

interface ParsedCms {
  signerSubject: string | null;
  signerCertificateSha256: string | null;
  signingTime: string | null;
  digestAlg: string;
  messageDigest: Buffer;
  /** Set when the CMS is unusable or its signature over the signed attributes does not verify. */
  error?: string;
}

// The CMS checks do not depend on the rest of the file, so they are kept for a few recent
// signature values (re-checking the same document, or many variants of it, stays cheap).
const cmsCache = new Map<string, ParsedCms>();

function parseCmsCached(hex: string, cms: Buffer): ParsedCms {
  const key = createHash('sha256').update(hex).digest('hex');
  let parsed = cmsCache.get(key);
  if (!parsed) {
    parsed = parseCms(hex, cms);
    if (cmsCache.size >= 64) cmsCache.delete(cmsCache.keys().next().value!);
    cmsCache.set(key, parsed);
  }
  return parsed;
}

function parseCms(hex: string, cms: Buffer): ParsedCms {
  const parsed: ParsedCms = {
    signerSubject: null,
    signerCertificateSha256: null,
    signingTime: null,
    digestAlg: 'sha256',
    messageDigest: Buffer.alloc(0),
  };
  try {
    const asn = asn1js.fromBER(cms);
    if (asn.offset === -1) throw new Error('Signature value is not DER');
    if (/[^0]/.test(hex.slice(asn.offset * 2))) throw new Error('Data after the CMS in /Contents');
    const contentInfo = new pkijs.ContentInfo({ schema: asn.result });
    if (contentInfo.contentType !== OID_SIGNED_DATA) throw new Error('CMS is not SignedData');
    const signed = new pkijs.SignedData({ schema: contentInfo.content });
    if (signed.encapContentInfo.eContent) throw new Error('CMS is not detached');
    const signerInfo = signed.signerInfos[0];
    if (!signerInfo || signed.signerInfos.length !== 1)
      throw new Error('CMS must hold exactly one SignerInfo');

    const cert = findCertificate(signed, signerInfo);
    const certDer = new Uint8Array(cert.toSchema().toBER(false));
    const x509 = new X509Certificate(certDer);
    parsed.signerSubject = formatName(x509.subject);
    parsed.signerCertificateSha256 = createHash('sha256').update(certDer).digest('hex');

    const digestAlg = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
    if (!digestAlg) throw new Error(`Unsupported digest ${signerInfo.digestAlgorithm.algorithmId}`);
    const attrs = signerInfo.signedAttrs;
    if (!attrs) throw new Error('CMS has no signed attributes');
    const attr = (oid: string) => attrs.attributes.find((a) => a.type === oid)?.values[0];
    const contentType = attr(OID_CONTENT_TYPE);
    if (!(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== OID_DATA) {
      throw new Error('content-type attribute missing or not id-data');
    }
    const md = attr(OID_MESSAGE_DIGEST);
    if (!(md instanceof asn1js.OctetString)) throw new Error('message-digest attribute missing');
    const time = attr(OID_SIGNING_TIME);
    if (time instanceof asn1js.UTCTime || time instanceof asn1js.GeneralizedTime) {
      parsed.signingTime = time.toDate().toISOString();
    }
    checkSigningCertificate(attr(OID_SIGNING_CERT_V2) ?? attr(OID_SIGNING_CERT_V1), certDer);

    const signedAttrsDer = new Uint8Array(attrs.encodedValue);
    signedAttrsDer[0] = 0x31; // [0] IMPLICIT → SET OF, as signed
    const signatureOk = verifySignature(
      signerInfo.signatureAlgorithm,
      digestAlg,
      signedAttrsDer,
      new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
      x509,
    );

    parsed.digestAlg = digestAlg;
    parsed.messageDigest = Buffer.from(md.valueBlock.valueHexView);
    if (!signatureOk) throw new Error('CMS signature does not verify with the signer certificate');
  } catch (err) {
    parsed.error = err instanceof Error ? err.message : String(err);
  }
  return parsed;
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

/** Reads a string entry (literal or hex, PDFDocEncoding or UTF-16BE) from a dictionary's source. */
function readString(dict: string, key: string): string | null {
  const at = new RegExp(`/${key}\\s*([(<])`).exec(dict);
  if (!at) return null;
  let i = at.index + at[0].length;
  const bytes: number[] = [];
  if (at[1] === '<') {
    const end = dict.indexOf('>', i);
    const hex = dict.slice(i, end < 0 ? undefined : end).replace(/\s+/g, '');
    for (let k = 0; k < hex.length; k += 2)
      bytes.push(Number.parseInt(hex.slice(k, k + 2).padEnd(2, '0'), 16));
  } else {
    let depth = 1;
    for (; i < dict.length; i++) {
      const c = dict[i]!;
      if (c === '\\') {
        const n = dict[++i] ?? '';
        const esc: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
        if (n in esc) bytes.push(esc[n]!);
        else if (/[0-7]/.test(n)) {
          let oct = n;
          while (oct.length < 3 && /[0-7]/.test(dict[i + 1] ?? '')) oct += dict[++i];
          bytes.push(Number.parseInt(oct, 8) & 0xff);
        } else if (n === '\r' && dict[i + 1] === '\n') i++;
        continue;
      }
      if (c === '(') depth++;
      if (c === ')' && --depth === 0) break;
      bytes.push(c.charCodeAt(0));
    }
  }
  const buf = Uint8Array.from(bytes);
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return new TextDecoder().decode(buf.subarray(3));
  return latin1.decode(buf);
}

/** PDF date `D:YYYYMMDDHHmmSS+HH'mm'` → ISO 8601. */
function pdfDate(value: string | null): string | null {
  const m =
    value && /D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(value);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, th = '00', tm = '00'] = m;
  const tz = !sign || sign === 'Z' || sign === 'z' ? 'Z' : `${sign}${th}:${tm}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${tz}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

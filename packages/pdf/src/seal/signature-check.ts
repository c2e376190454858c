import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import { encapsulatedContent, OID_DATA, parseSignedData, verifySigner } from './cms.ts';
import { formatName } from './identity.ts';
import { revisionEnds } from './revisions.ts';
import { checkTimestampToken } from './trust.ts';

// One signature checked straight from the file's bytes (a tampered file need not parse as a PDF):
// the gap its /ByteRange leaves must hold exactly the /Contents hex string, the ranges hash to the
// CMS message digest (for a document timestamp: to the TSTInfo's message imprint), the CMS
// signature verifies, and the padding after the CMS is zeros. A signature-time-stamp in the CMS
// unsigned attributes (PAdES B-T) must imprint the signature value and verify too.

export type SignatureKind = 'certification' | 'approval' | 'document_timestamp';

export interface RawSignature {
  range: [number, number, number, number];
  valid: boolean;
  coversWholeDocument: boolean;
  kind: SignatureKind;
  /** DocMDP P of a certification signature (1 no changes, 2 form filling, 3 + annotations). */
  docMdp: number | null;
  subFilter: string;
  signerSubject: string | null;
  signerCertificateSha256: string | null;
  /** The CMS certificates (DER), signer first. */
  certificates: Uint8Array[];
  /** ISO 8601; the CMS signing-time attribute, else the signature dictionary's /M. */
  signingTime: string | null;
  /** ISO 8601; the time a TSA certified (signature-time-stamp or document timestamp). */
  timestampTime: string | null;
  /** Subject of the TSA certificate that signed that time (for a document timestamp: its signer). */
  timestampAuthority: string | null;
  /** The timestamp token's certificates (DER), the TSA's first. */
  timestampCertificates: Uint8Array[];
  reason: string | null;
  error?: string;
}

const OID_SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';
const latin1 = new TextDecoder('latin1');

/**
 * Every signature in the file, in file order: each /ByteRange checked, and every other signature
 * dictionary (one whose /ByteRange a change made unreadable: `/ByteRange` misspelt, a bracket
 * gone) reported as a signature that does not verify, so a damaged signature never reads as none.
 */
export function findSignatures(pdf: Uint8Array): RawSignature[] {
  const text = latin1.decode(pdf);
  const found: { at: number; check: RawSignature }[] = [];
  const objects = new Set<number>();
  const re = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const range = [m[1], m[2], m[3], m[4]].map(Number) as RawSignature['range'];
    const object = enclosingObject(text, m.index);
    objects.add(object.start);
    found.push({ at: m.index, check: checkOne(pdf, text, range, object.dict) });
  }
  const marker = new RegExp(SIGNATURE_MARKER);
  let ends: number[] | undefined;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const object = enclosingObject(text, m.index);
    if (objects.has(object.start)) continue;
    objects.add(object.start);
    ends ??= revisionEnds(pdf);
    const end = ends.find((e) => e > m!.index) ?? pdf.length;
    found.push({ at: m.index, check: unreadable(end, object.dict) });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.check);
}

/**
 * What only a signature dictionary holds (ISO 32000-1 §12.8.1, ETSI EN 319 142-1): its /Type, a
 * signature /SubFilter or /Filter, a /ByteRange. One changed byte can spoil one of them, never all.
 */
const SIGNATURE_MARKER =
  /\/Type\s*\/(?:Sig|DocTimeStamp)\b|\/SubFilter\s*\/(?:adbe\.|ETSI\.)|\/Filter\s*\/Adobe\.PPK|\/ByteRange\b/g;

function enclosingObject(text: string, at: number): { start: number; dict: string } {
  const found = text.lastIndexOf(' obj', at);
  const start = found < 0 ? Math.max(0, at - 4096) : found;
  const end = text.indexOf('endobj', at);
  return { start, dict: text.slice(start, end < 0 ? Math.min(text.length, at + 65536) : end) };
}

/**
 * A signature dictionary without a readable /ByteRange: not valid, placed in the revision that
 * holds it (its "signed" range ends at `end`, that revision's end), signer read from its /Contents
 * when that parses.
 */
function unreadable(end: number, dict: string): RawSignature {
  const check: RawSignature = {
    ...baseCheck(dict, [0, end, end, 0]),
    error: 'Signature dictionary has no readable /ByteRange',
  };
  const hex = /\/Contents\s*<([0-9A-Fa-f\s]+)>/.exec(dict)?.[1]?.replace(/\s+/g, '');
  if (hex) {
    const parsed = parseCmsCached(hex, check.kind === 'document_timestamp');
    check.signerSubject = parsed.signerSubject;
    check.signerCertificateSha256 = parsed.signerCertificateSha256;
  }
  return check;
}

function kindOf(dict: string): { kind: SignatureKind; docMdp: number | null } {
  if (/\/Type\s*\/DocTimeStamp\b/.test(dict)) return { kind: 'document_timestamp', docMdp: null };
  if (!/\/TransformMethod\s*\/DocMDP\b/.test(dict)) return { kind: 'approval', docMdp: null };
  const params = /\/TransformParams\s*<<([\s\S]*?)>>/.exec(dict)?.[1] ?? '';
  const p = Number(/\/P\s+(\d+)/.exec(params)?.[1] ?? 2);
  return { kind: 'certification', docMdp: p >= 1 && p <= 3 ? p : 2 };
}

/** What the signature dictionary itself says, before any check. */
function baseCheck(dict: string, range: RawSignature['range']): RawSignature {
  return {
    range,
    valid: false,
    coversWholeDocument: false,
    ...kindOf(dict),
    subFilter: /\/SubFilter\s*\/([^\s/<>[\]()]+)/.exec(dict)?.[1] ?? '',
    signerSubject: null,
    signerCertificateSha256: null,
    certificates: [],
    signingTime: pdfDate(readString(dict, 'M')),
    timestampTime: null,
    timestampAuthority: null,
    timestampCertificates: [],
    reason: readString(dict, 'Reason'),
  };
}

function checkOne(pdf: Uint8Array, text: string, range: RawSignature['range'], dict: string): RawSignature {
  const [o1, l1, o2, l2] = range;
  const check = baseCheck(dict, range);
  try {
    if (o1 !== 0 || l1 <= 0 || o2 <= l1 || l2 < 0 || o2 + l2 > pdf.length) {
      throw new Error('ByteRange does not fit the file');
    }
    check.coversWholeDocument = o2 + l2 === pdf.length;
    const gap = text.slice(l1, o2);
    if (!/^<[0-9A-Fa-f\s]*>$/.test(gap)) throw new Error('ByteRange gap is not the /Contents hex string');
    const hex = gap.slice(1, -1).replace(/\s+/g, '');
    const parsed = parseCmsCached(hex, check.kind === 'document_timestamp');
    Object.assign(check, {
      signerSubject: parsed.signerSubject,
      signerCertificateSha256: parsed.signerCertificateSha256,
      certificates: parsed.certificates,
      timestampTime: parsed.timestampTime,
      timestampAuthority: parsed.timestampAuthority,
      timestampCertificates: parsed.timestampCertificates,
    });
    if (parsed.signingTime) check.signingTime = parsed.signingTime;
    if (parsed.error) throw new Error(parsed.error);
    const digest = createHash(parsed.digestAlg)
      .update(pdf.subarray(o1, o1 + l1))
      .update(pdf.subarray(o2, o2 + l2))
      .digest();
    if (!parsed.messageDigest.equals(digest)) {
      throw new Error('Document digest does not match the signed message digest');
    }
    check.valid = true;
  } catch (err) {
    check.error = err instanceof Error ? err.message : String(err);
  }
  return check;
}

interface ParsedCms {
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

function parseCmsCached(hex: string, documentTimestamp: boolean): ParsedCms {
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

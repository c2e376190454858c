import { readElement } from '../verify/ber.ts';
import { type CmsResult, checkCms } from '../verify/cms-check.ts';
import { revisionEnds } from './revisions.ts';

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
    const parsed = checkContents(hex, dict, check.kind, []);
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
    const signed = [pdf.subarray(o1, o1 + l1), pdf.subarray(o2, o2 + l2)];
    const parsed = checkContents(hex, dict, check.kind, signed);
    Object.assign(check, {
      signerSubject: parsed.signerSubject,
      signerCertificateSha256: parsed.signerCertificateSha256,
      certificates: parsed.certificates,
      timestampTime: parsed.timestampTime,
      timestampAuthority: parsed.timestampAuthority,
      timestampCertificates: parsed.timestampCertificates,
    });
    if (parsed.signingTime) check.signingTime = parsed.signingTime;
    if (!parsed.valid) throw new Error(parsed.error);
    check.valid = true;
  } catch (err) {
    check.error = err instanceof Error ? err.message : String(err);
  }
  return check;
}

/**
 * The CMS bytes of a /Contents hex string checked over the signed ranges. The padding after the
 * CMS must be zeros here: this reader holds the service's own seals to it (a flipped padding
 * byte reads as a change); `checkCms` itself ignores what follows the CMS, as real files need.
 */
function checkContents(hex: string, dict: string, kind: SignatureKind, signed: Uint8Array[]): CmsResult {
  const contents = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
  const subFilter = /\/SubFilter\s*\/([^\s/<>[\]()]+)/.exec(dict)?.[1] ?? '';
  const result = checkCms({ contents, subFilter, documentTimestamp: kind === 'document_timestamp', signed });
  if (result.valid && !zeroPadded(contents)) {
    return { ...result, valid: false, error: 'Data after the CMS in /Contents.' };
  }
  return result;
}

function zeroPadded(contents: Uint8Array): boolean {
  try {
    return contents.subarray(readElement(contents, 0).end).every((b) => b === 0);
  } catch {
    return false;
  }
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

import { type CmsResult, checkCms } from './cms-check.ts';
import { isName, type PdfFile, type Revision } from './file.ts';
import { Dict, Name, Ref, Str, type Value } from './lexer.ts';
import { View } from './model.ts';

// Issue 40, items 2 and 5: signatures are found from the form (every revision's signature fields
// and their /V), never from a byte scan, and each one checks itself: its /ByteRange starts at 0,
// leaves a gap of exactly its own /Contents string, and ends where the revision that wrote its
// dictionary ends; its own CMS verifies over that range. A usage-rights signature (/Perms /UR3)
// is no signature of the document and is not reported.

export type SignatureKind = 'certification' | 'approval' | 'document_timestamp';

export interface FieldLock {
  action: 'All' | 'Include' | 'Exclude';
  fields: string[];
  /** ISO 32000-2 §12.7.5.5: the lock's /P, the permissions left after this signature (as DocMDP's). */
  p: number | null;
}

export interface FoundSignature {
  field: string;
  dict: Dict;
  /** The revision that wrote the signature dictionary (1-based). */
  revision: number;
  kind: SignatureKind;
  /** DocMDP P of a certification signature (1 no changes, 2 form filling, 3 + annotations). */
  docMdp: number | null;
  /** FieldMDP: the fields this signature locks. */
  lock: FieldLock | null;
  subFilter: string;
  /** Where the signed bytes end (its /ByteRange end), when it checks itself; else its revision's end. */
  signedEnd: number;
  check: CmsResult & { coversWholeDocument: boolean };
  /** The signature dictionary's /M, ISO 8601. */
  claimedTime: string | null;
  reason: string | null;
}

/** Every signature of the file, oldest first (by the revision that wrote it, then field order). */
export function findSignatures(file: PdfFile): FoundSignature[] {
  const found = new Map<string, FoundSignature>();
  for (const rev of file.revisions) {
    const view = new View(file, rev);
    const certification = certifiedBy(view);
    for (const field of view.fields() ?? []) {
      if (field.type !== 'Sig') continue;
      const v = field.dict.get('V');
      const dict = view.dict(v);
      if (!dict || !(v instanceof Ref)) continue;
      const written = writtenIn(file, rev, v);
      if (!written) continue;
      const id = `${written.revision.number}:${v.key}`;
      if (found.has(id)) continue;
      found.set(id, describe(file, view, field.name, field.dict, dict, v, written.revision, certification));
    }
  }
  return [...found.values()].sort((a, b) => a.revision - b.revision);
}

/** The revision whose update first lists the object as `rev` defines it. */
function writtenIn(file: PdfFile, rev: Revision, ref: Ref): { revision: Revision } | null {
  const last = rev.table.get(ref.num);
  if (!last) return null;
  const same = JSON.stringify(last);
  const first = file.revisions.find((r) => JSON.stringify(r.table.get(ref.num)) === same);
  return first ? { revision: first } : null;
}

/** The certification signature's dictionary reference, from the catalog's /Perms /DocMDP. */
function certifiedBy(view: View): string | null {
  const perms = view.dict(view.catalog()?.get('Perms'));
  const docMdp = perms?.get('DocMDP');
  return docMdp instanceof Ref ? docMdp.key : null;
}

function transform(view: View, dict: Dict, method: string): Dict | null {
  for (const r of view.array(dict.get('Reference')) ?? []) {
    const ref = view.dict(r);
    if (ref && isName(view.get(ref.get('TransformMethod')), method))
      return view.dict(ref.get('TransformParams')) ?? new Dict(new Map());
  }
  return null;
}

function describe(
  file: PdfFile,
  view: View,
  name: string,
  field: Dict,
  dict: Dict,
  ref: Ref,
  revision: Revision,
  certification: string | null,
): FoundSignature {
  const subFilter = nameOf(view.get(dict.get('SubFilter')));
  const timestamp = subFilter === 'ETSI.RFC3161' || isName(view.get(dict.get('Type')), 'DocTimeStamp');
  const docMdpParams = transform(view, dict, 'DocMDP');
  const certified = !timestamp && (certification === ref.key || docMdpParams !== null);
  const p = docMdpParams ? view.number(docMdpParams.get('P')) : null;
  const kind: SignatureKind = timestamp ? 'document_timestamp' : certified ? 'certification' : 'approval';
  const prev = file.revisions[revision.number - 2];
  const signed = selfCheck(file, view, dict, revision, prev?.end ?? 0);
  const contents = view.get(dict.get('Contents'));
  const check =
    'error' in signed
      ? { ...emptyCheck(signed.error, contents), coversWholeDocument: false }
      : {
          ...checkCms({
            contents: contents instanceof Str ? contents.bytes : new Uint8Array(),
            subFilter,
            documentTimestamp: timestamp,
            signed: signed.ranges,
          }),
          coversWholeDocument: signed.end === file.bytes.length,
        };
  const m = view.get(dict.get('M'));
  const reason = view.get(dict.get('Reason'));
  return {
    field: name,
    dict,
    revision: revision.number,
    kind,
    docMdp: kind === 'certification' ? (p !== null && p >= 1 && p <= 3 ? p : 2) : null,
    lock: lockOf(view, field, dict),
    subFilter,
    signedEnd: 'error' in signed ? revision.end : signed.end,
    check,
    claimedTime: m instanceof Str ? pdfDate(m.text()) : null,
    reason: reason instanceof Str ? reason.text() : null,
  };
}

/** The byte ranges a signature signs, when its /ByteRange is its own; else why not. */
function selfCheck(
  file: PdfFile,
  view: View,
  dict: Dict,
  revision: Revision,
  after: number,
): { ranges: Uint8Array[]; end: number } | { error: string } {
  const br = view.array(dict.get('ByteRange'))?.map((v) => view.get(v));
  const contents = dict.get('Contents');
  if (
    !br ||
    br.length !== 4 ||
    !br.every((n): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0)
  )
    return { error: 'Signature dictionary has no readable /ByteRange' };
  if (!(contents instanceof Str) || contents.start < 0)
    return {
      error:
        'Signature /Contents is not a string written in the file (it is indirect or inside an object stream)',
    };
  const [o1, l1, o2, l2] = br as [number, number, number, number];
  if (o1 !== 0) return { error: '/ByteRange does not start at byte 0' };
  if (l1 !== contents.start || o2 !== contents.end)
    return { error: '/ByteRange does not leave out exactly its own /Contents string' };
  const end = o2 + l2;
  const eof = file.text.lastIndexOf('%%EOF', revision.end) + 5;
  if (end !== revision.end && end !== eof)
    return { error: '/ByteRange does not end where its revision ends' };
  if (contents.start < after) return { error: 'the signature dictionary is not in the revision it signs' };
  return { ranges: [file.bytes.subarray(0, l1), file.bytes.subarray(o2, end)], end };
}

function emptyCheck(error: string, contents: Value | undefined): CmsResult {
  const parsed =
    contents instanceof Str && contents.bytes.length > 0
      ? checkCms({ contents: contents.bytes, subFilter: '', documentTimestamp: false, signed: [] })
      : null;
  return {
    valid: false,
    error,
    signerSubject: parsed?.signerSubject ?? null,
    signerCertificateSha256: parsed?.signerCertificateSha256 ?? null,
    certificates: [],
    signingTime: null,
    timestampTime: null,
    timestampAuthority: null,
    timestampCertificates: [],
    weakAlgorithms: [],
    revocation: { crls: [], ocsps: [] },
  };
}

function lockOf(view: View, field: Dict, dict: Dict): FieldLock | null {
  const params = view.dict(field.get('Lock')) ?? transform(view, dict, 'FieldMDP');
  if (!params) return null;
  const action = nameOf(view.get(params.get('Action')));
  if (action !== 'All' && action !== 'Include' && action !== 'Exclude') return null;
  const fields = (view.array(params.get('Fields')) ?? []).flatMap((f) => {
    const s = view.get(f);
    return s instanceof Str ? [s.text()] : [];
  });
  const p = view.number(params.get('P'));
  return { action, fields, p: p !== null && p >= 1 && p <= 3 ? p : null };
}

/**
 * What only a signature dictionary holds (its /Type, a signature /SubFilter or /Filter, a
 * /ByteRange). When the form reaches no signature but the bytes hold one of these outside a
 * usage-rights dictionary, a signature was damaged or cut off from its field: the file is then
 * reported as holding a signature that does not verify, never as unsigned.
 */
const SIGNATURE_MARKER =
  /\/Type\s*\/(?:Sig|DocTimeStamp)\b|\/SubFilter\s*\/(?:adbe\.|ETSI\.)|\/Filter\s*\/Adobe\.PPK|\/ByteRange\b/g;

export function strayMarker(file: PdfFile): { at: number; timestamp: boolean } | null {
  const re = new RegExp(SIGNATURE_MARKER);
  for (let m = re.exec(file.text); m; m = re.exec(file.text)) {
    const start = Math.max(0, file.text.lastIndexOf(' obj', m.index));
    const end = file.text.indexOf('endobj', m.index);
    const dict = file.text.slice(start, end < 0 ? m.index + 4096 : end);
    if (/\/UR3?\b/.test(dict)) continue;
    return { at: m.index, timestamp: /DocTimeStamp|ETSI\.RFC3161/.test(dict) };
  }
  return null;
}

const nameOf = (v: Value | undefined) => (v instanceof Name ? v.name : '');

/** Whether a signature's FieldMDP lock covers a field. */
export function locks(lock: FieldLock | null, field: string): boolean {
  if (!lock) return false;
  if (lock.action === 'All') return true;
  const listed = lock.fields.some((f) => field === f || field.startsWith(`${f}.`));
  return lock.action === 'Include' ? listed : !listed;
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

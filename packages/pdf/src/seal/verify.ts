import { createHash } from 'node:crypto';
import { type PDF, PdfRef, PdfStream } from '@libpdf/core';
import {
  diffRevisions,
  isAllowedChange,
  loadRevision,
  type RevisionChange,
  revisionEnds,
} from './revisions.ts';
import type { PadesLevel } from './sign.ts';
import { findSignatures, type RawSignature, type SignatureKind } from './signature-check.ts';
import { ambiguousRevisions } from './structure.ts';
import { judgeTimestamp, type TimestampJudgement } from './timestamps.ts';
import { namesRevocation } from './trust.ts';

export type { RevisionChange } from './revisions.ts';
export type { SignatureKind } from './signature-check.ts';

/** Result of checking one embedded signature (see docs/verify.md). */
export interface SignatureCheck {
  /** The signed byte ranges hash to the CMS message digest and the CMS signature verifies with the signer's key. */
  valid: boolean;
  /** The signed ranges run from byte 0 to the end of the file, leaving out only this signature's value. */
  coversWholeDocument: boolean;
  /** A later revision changed something PAdES does not allow after this signature. */
  modifiedAfterSigning: boolean;
  kind: SignatureKind;
  /** DocMDP P of a certification signature. */
  docMdp: number | null;
  subFilter: string;
  signerSubject: string | null;
  /** SHA-256 of the signer certificate's DER, lowercase hex. */
  signerCertificateSha256: string | null;
  /** ISO 8601; the CMS signing-time attribute, else the signature dictionary's /M. */
  signingTime: string | null;
  /**
   * ISO 8601; the time a time-stamping authority certified, else null. Null as well when the
   * signature's own timestamp is impossible (see `timestampIssues`).
   */
  timestampTime: string | null;
  /**
   * Subject of the TSA whose time counts for this signature (or that signed this document
   * timestamp); absent when no timestamp counts.
   */
  timestampAuthority?: string | null;
  /** That TSA's certificate chains to a root of the trust store (Node's Mozilla roots). */
  timestampTrusted?: boolean;
  /** Timestamps that do not count for the level, each named with why (an impossible time order, say); absent when none. */
  timestampIssues?: string[];
  /** PAdES baseline level this signature reaches (null for document timestamps and invalid ones). */
  level: PadesLevel | null;
  /** 1-based revision this signature signed (the file up to its ByteRange end). */
  revision: number;
  /** Changes made by later revisions that this signature does not allow. */
  changesAfter: RevisionChange[];
  reason: string | null;
  error?: string;
}

/**
 * Checks every signature of a PDF: each one cryptographically against the revision it signed
 * (see signature-check.ts), then what every later revision changed, classified (revisions.ts):
 * a signature stays unmodified only if each later revision adds nothing but what PAdES allows
 * after it. A later signature never "covers" an earlier one. Trust in the certificates is not
 * judged: the caller compares `signerCertificateSha256` with the certificates it trusts.
 */
export async function inspectSignatures(pdf: Uint8Array): Promise<SignatureCheck[]> {
  const raw = findSignatures(pdf);
  if (raw.length === 0) return [];
  const ends = boundaries(pdf, raw);
  const firstEnd = Math.min(...raw.map(signedEnd));
  const changes = await changesSince(pdf, ends, firstEnd);
  const timestamped = raw.some((r) => r.timestampTime !== null);
  const final = timestamped ? await loadRevision(pdf, ends[ends.length - 1]!).catch(() => null) : null;
  const dss = final ? readDss(final) : null;
  const certification = raw.find((r) => r.kind === 'certification' && r.valid);
  return raw.map((r) => {
    const revision = ends.indexOf(signedEnd(r)) + 1;
    const docMdp = certification && signedEnd(certification) <= signedEnd(r) ? certification.docMdp : null;
    const changesAfter = changes.filter((c) => c.revision > revision && !isAllowedChange(c, docMdp));
    const { range: _range, certificates: _certs, timestampCertificates: _tsCerts, ...rest } = r;
    const time = timeOf(r, raw);
    const level = levelOf(r, raw, changes, ends, dss, time);
    return {
      ...rest,
      timestampTime: time.counted ? r.timestampTime : null,
      timestampAuthority: time.judgement?.authority,
      timestampTrusted: time.judgement?.trusted,
      timestampIssues: time.issues.length > 0 ? time.issues : undefined,
      error: r.error,
      modifiedAfterSigning: changesAfter.length > 0,
      revision,
      changesAfter,
      level,
    };
  });
}

/** True when there is a signature, every signature is valid and none was modified after signing. */
export function isIntact(checks: SignatureCheck[]): boolean {
  return checks.length > 0 && checks.every((c) => c.valid && !c.modifiedAfterSigning);
}

/** What POST /documents/verify needs from the file itself: its signatures checked, and its hash. */
export async function verifyPdf(
  pdf: Uint8Array,
): Promise<{ checks: SignatureCheck[]; intact: boolean; sha256: string }> {
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const checks = await inspectSignatures(pdf);
  return { checks, intact: isIntact(checks), sha256 };
}

const signedEnd = (r: RawSignature) => r.range[2] + r.range[3];

/** Revision ends (each %%EOF), plus each signature's own end should it not sit on one. */
function boundaries(pdf: Uint8Array, raw: RawSignature[]): number[] {
  const ends = new Set(revisionEnds(pdf));
  for (const r of raw) if (signedEnd(r) <= pdf.length) ends.add(signedEnd(r));
  return [...ends].sort((a, b) => a - b);
}

/**
 * Revisions after the first signature that are compared one by one; a file with more (each one
 * costs a parse) is not examined further and counts as modified. A sealed file has 3 or 4.
 */
export const MAX_REVISIONS_CHECKED = 50;

/** Every change made after the byte offset `from`, revision by revision. */
async function changesSince(pdf: Uint8Array, ends: number[], from: number): Promise<RevisionChange[]> {
  const changes: RevisionChange[] = [];
  const first = ends.indexOf(from);
  if (first >= 0 && ends.length - 1 - first > MAX_REVISIONS_CHECKED) {
    return [
      {
        revision: first + 2,
        kind: 'unreadable_revision',
        page: null,
        description: `${ends.length - 1 - first} revisions after the first signature; at most ${MAX_REVISIONS_CHECKED} are checked`,
      },
    ];
  }
  const structure = ambiguousRevisions(pdf, revisionEnds(pdf), from);
  changes.push(...structure.changes);
  const last = ends[ends.length - 1] ?? 0;
  // Strict: even whitespace after the last %%EOF and its end-of-line is bytes no revision holds.
  if (pdf.length > last) {
    changes.push({
      revision: ends.length + 1,
      kind: 'appended_bytes',
      page: null,
      description: `${pdf.length - last} bytes appended after the last revision`,
    });
  }
  let older: PDF | null = null;
  for (let i = ends.indexOf(from); i >= 0 && i < ends.length - 1; i++) {
    try {
      older ??= await loadRevision(pdf, ends[i]!);
      const newer = await loadRevision(pdf, ends[i + 1]!);
      changes.push(...diffRevisions(older, newer, i + 2, { generations: structure.generations.get(i + 2) }));
      older = newer;
    } catch (err) {
      older = null;
      changes.push({
        revision: i + 2,
        kind: 'unreadable_revision',
        page: null,
        description: `revision ${i + 2} cannot be read (${(err as Error).message})`,
      });
    }
  }
  return changes;
}

interface Dss {
  certificates: Set<string>;
  revocationEntries: number;
}

/** The certificates (SHA-256) and the number of OCSP responses and CRLs in the final DSS. */
function readDss(pdf: PDF): Dss | null {
  const resolve = (ref: PdfRef) => pdf.context.resolve(ref);
  const dss = pdf.getCatalog().getDict('DSS', resolve);
  if (!dss) return null;
  const streams = (name: string) =>
    (dss.getArray(name, resolve)?.toArray() ?? [])
      .map((v) => (v instanceof PdfRef ? resolve(v) : v))
      .filter((v): v is PdfStream => v instanceof PdfStream);
  const certificates = new Set(
    streams('Certs').map((s) => createHash('sha256').update(decoded(s)).digest('hex')),
  );
  return { certificates, revocationEntries: streams('OCSPs').length + streams('CRLs').length };
}

function decoded(stream: PdfStream): Uint8Array {
  try {
    return stream.getDecodedData();
  } catch {
    return stream.data;
  }
}

/** The timestamps that count for one signature (or the check of one document timestamp). */
interface Timing {
  /** The signature's own timestamp (B-T) counts. */
  counted: boolean;
  /** The judgement of the timestamp whose time counts (the signature's own, else the first document timestamp). */
  judgement: TimestampJudgement | null;
  /** Later document timestamps that count (for signatures). */
  documentTimestamps: RawSignature[];
  issues: string[];
}

/**
 * Judges the timestamps of one signature: its own signature timestamp must fall within the
 * signing certificate's validity and not before the signing time it claims; a later document
 * timestamp must follow the signature (its timestamp, else its signing time) and the signing
 * certificate's start. A document timestamp's own entry is judged against the signature or
 * timestamp before it.
 */
function timeOf(r: RawSignature, all: RawSignature[]): Timing {
  const timing: Timing = { counted: false, judgement: null, documentTimestamps: [], issues: [] };
  if (!r.valid || !r.timestampTime) return timing;
  const claim = (t: RawSignature, label: string) => ({
    label,
    time: t.timestampTime!,
    authority: t.timestampAuthority,
    certificates: t.timestampCertificates,
  });
  if (r.kind === 'document_timestamp') {
    const previous = all.filter((o) => o !== r && o.valid && signedEnd(o) < signedEnd(r)).at(-1);
    const time = previous?.timestampTime ?? previous?.signingTime;
    const judgement = judgeTimestamp(claim(r, 'document timestamp'), {
      signer: null,
      beforeExpiry: false,
      notBefore: time ? { time, what: 'the signature before it' } : null,
    });
    timing.judgement = judgement;
    timing.counted = !judgement.problem;
    if (judgement.problem) timing.issues.push(judgement.problem);
    return timing;
  }
  const signer = r.certificates[0] ?? null;
  const own = judgeTimestamp(claim(r, 'signature timestamp'), {
    signer,
    beforeExpiry: true,
    notBefore: r.signingTime ? { time: r.signingTime, what: 'the signing time the signature claims' } : null,
  });
  timing.counted = !own.problem;
  if (own.problem) timing.issues.push(own.problem);
  else timing.judgement = own;
  return timing;
}

/** The valid document timestamps after `r` that follow it in time. */
function documentTimestampsAfter(r: RawSignature, all: RawSignature[], timing: Timing): RawSignature[] {
  const after = timing.counted ? r.timestampTime : r.signingTime;
  const counted: RawSignature[] = [];
  for (const t of all) {
    if (t.kind !== 'document_timestamp' || !t.valid || signedEnd(t) <= signedEnd(r) || !t.timestampTime)
      continue;
    const judgement = judgeTimestamp(
      {
        label: 'document timestamp',
        time: t.timestampTime,
        authority: t.timestampAuthority,
        certificates: t.timestampCertificates,
      },
      {
        signer: r.certificates[0] ?? null,
        beforeExpiry: false,
        notBefore: after ? { time: after, what: 'the signature it follows' } : null,
      },
    );
    if (judgement.problem) {
      if (!timing.issues.includes(judgement.problem)) timing.issues.push(judgement.problem);
      continue;
    }
    timing.judgement ??= judgement;
    counted.push(t);
  }
  return counted;
}

/**
 * The PAdES baseline level a signature reaches: B-B when valid; B-T with a signature timestamp or
 * a later document timestamp whose time is possible (see timeOf); B-LT when the DSS also holds its
 * certificate chain and revocation data for every certificate that names an OCSP responder or
 * CRL; B-LTA when such a document timestamp was added after that DSS.
 */
function levelOf(
  r: RawSignature,
  all: RawSignature[],
  changes: RevisionChange[],
  ends: number[],
  dss: Dss | null,
  timing: Timing,
): PadesLevel | null {
  if (!r.valid || r.kind === 'document_timestamp') return null;
  const docTimestamps = documentTimestampsAfter(r, all, timing);
  timing.documentTimestamps = docTimestamps;
  if (!timing.counted && docTimestamps.length === 0) return 'B-B';
  const certs = r.certificates.map((c) => createHash('sha256').update(c).digest('hex'));
  const needsRevocation = r.certificates.some((c) => safeNames(c));
  const ltv =
    !!dss && certs.every((c) => dss.certificates.has(c)) && (!needsRevocation || dss.revocationEntries > 0);
  if (!ltv) return 'B-T';
  const dssRevision = changes.find((c) => c.kind === 'dss')?.revision ?? Number.POSITIVE_INFINITY;
  const archived = docTimestamps.some((t) => ends.indexOf(signedEnd(t)) + 1 > dssRevision);
  return archived ? 'B-LTA' : 'B-LT';
}

function safeNames(der: Uint8Array): boolean {
  try {
    return namesRevocation(der);
  } catch {
    return false;
  }
}

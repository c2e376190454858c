import { createHash } from 'node:crypto';
import type { PadesLevel } from '../seal/sign.ts';
import { libpdfDisagrees } from './crosscheck.ts';
import {
  type Change,
  diffRevision,
  levelRank,
  type ModificationLevel,
  type RevisionChange,
  unreadable,
} from './diff.ts';
import { PdfFile } from './file.ts';
import { levelOf, readDssHistory, signingTimeOf, timeOf } from './levels.ts';
import { View } from './model.ts';
import { type FoundSignature, findSignatures, locks, type SignatureKind, strayMarker } from './signatures.ts';
import { updateProblems } from './strict.ts';

export type { ModificationLevel, RevisionChange } from './diff.ts';
export type { SignatureKind } from './signatures.ts';

/** Result of checking one embedded signature (see docs/verify.md). */
export interface SignatureCheck {
  /** Its /ByteRange is its own and its CMS (or timestamp token) verifies over it. */
  valid: boolean;
  /** The signed ranges run from byte 0 to the end of the file, leaving out only this signature's value. */
  coversWholeDocument: boolean;
  /** A later revision changed something this signature does not permit. */
  modifiedAfterSigning: boolean;
  kind: SignatureKind;
  /** DocMDP P of a certification signature. */
  docMdp: number | null;
  subFilter: string;
  signerSubject: string | null;
  signerCertificateSha256: string | null;
  /** ISO 8601; the CMS signing-time attribute, else the dictionary's /M; null unless the signature verifies. */
  signingTime: string | null;
  timestampTime: string | null;
  timestampAuthority?: string | null;
  timestampTrusted?: boolean;
  timestampIssues?: string[];
  level: PadesLevel | null;
  /** 1-based revision this signature signed. */
  revision: number;
  /** The most a later revision changed: none, validation_data, form_filling, annotations or other. */
  modificationLevel: ModificationLevel;
  /** The most this signature permits later revisions to change (DocMDP, or form filling and signing without one). */
  modificationsPermitted: ModificationLevel;
  /** Every change after this signature, allowed or not. */
  modifications: RevisionChange[];
  /** The changes after this signature that it does not permit. */
  changesAfter: RevisionChange[];
  /** Algorithms that verified but are weak (SHA-1). */
  weakAlgorithms?: string[];
  reason: string | null;
  error?: string;
}

/** Revisions after the first signature that are compared; more is a hostile file, not a document. */
export const MAX_REVISIONS_CHECKED = 50;

/**
 * Checks every signature of a PDF (docs/verify.md): the file is read once by the strict reader;
 * each update after the first signature must read the same for every reader, and is compared with
 * the revision before it by role (diff.ts); each signature checks its own byte range and CMS;
 * what later revisions changed is held against what each signature permits.
 */
export async function inspectSignatures(pdf: Uint8Array): Promise<SignatureCheck[]> {
  const file = new PdfFile(pdf);
  const found = findSignatures(file);
  if (found.length === 0) return stray(file);
  const first = Math.min(...found.map((s) => s.revision));
  const changes = await changesSince(file, first);
  const dss = readDssHistory(file);
  const certification = found.find((s) => s.kind === 'certification' && s.check.valid);
  return found.map((s) => {
    const timing = timeOf(s, found);
    const level = levelOf(s, found, dss, timing);
    const permitted = permittedBy(s, certification);
    const after = changes.filter((c) => c.revision > s.revision);
    const broken = after.filter((c) => !allowed(c, permitted, s, found));
    const counted = timing.counted;
    return {
      valid: s.check.valid,
      coversWholeDocument: s.check.coversWholeDocument,
      modifiedAfterSigning: broken.length > 0,
      kind: s.kind,
      docMdp: s.docMdp,
      subFilter: s.subFilter,
      signerSubject: s.check.signerSubject,
      signerCertificateSha256: s.check.signerCertificateSha256,
      signingTime: signingTimeOf(s),
      timestampTime: counted ? s.check.timestampTime : null,
      timestampAuthority: timing.judgement?.authority,
      timestampTrusted: timing.judgement?.trusted,
      timestampIssues: timing.issues.length > 0 ? timing.issues : undefined,
      level,
      revision: s.revision,
      modificationLevel: after.reduce<ModificationLevel>(
        (m, c) => (levelRank(c.level) > levelRank(m) ? c.level : m),
        'none',
      ),
      modificationsPermitted: permitted,
      modifications: after.map(plain),
      changesAfter: broken.map(plain),
      weakAlgorithms: s.check.weakAlgorithms.length > 0 ? s.check.weakAlgorithms : undefined,
      reason: s.reason,
      error: s.check.error,
    };
  });
}

/** A signature dictionary no form field reaches: one signature that does not verify (see strayMarker). */
function stray(file: PdfFile): SignatureCheck[] {
  const marker = strayMarker(file);
  if (!marker) return [];
  const revision = file.revisions.findIndex((r) => r.end > marker.at) + 1 || file.revisions.length + 1;
  return [
    {
      valid: false,
      coversWholeDocument: false,
      modifiedAfterSigning: false,
      kind: marker.timestamp ? 'document_timestamp' : 'approval',
      docMdp: null,
      subFilter: '',
      signerSubject: null,
      signerCertificateSha256: null,
      signingTime: null,
      timestampTime: null,
      level: null,
      revision,
      modificationLevel: 'none',
      modificationsPermitted: 'form_filling',
      modifications: [],
      changesAfter: [],
      reason: null,
      error: 'Signature dictionary has no readable /ByteRange or no form field reaches it',
    },
  ];
}

const plain = ({ revision, kind, page, description }: Change): RevisionChange => ({
  revision,
  kind,
  page,
  description,
});

/** What a signature lets later revisions change (ISO 32000-2 §12.8.2.2, §12.8.4). */
function permittedBy(s: FoundSignature, certification: FoundSignature | undefined): ModificationLevel {
  const p = certification && certification.revision <= s.revision ? certification.docMdp : null;
  if (p === 1) return 'validation_data';
  if (p === 3) return 'annotations';
  return 'form_filling';
}

function allowed(c: Change, permitted: ModificationLevel, s: FoundSignature, all: FoundSignature[]): boolean {
  if (levelRank(c.level) > levelRank(permitted)) return false;
  // FieldMDP: a field this signature, or a signature before it, locked may not be filled again.
  if (
    c.kind === 'form_fill' &&
    c.field &&
    all.some((o) => o.revision <= s.revision && locks(o.lock, c.field!))
  )
    return false;
  return true;
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

/** Every change of every revision after revision `first`. */
async function changesSince(file: PdfFile, first: number): Promise<Change[]> {
  const revs = file.revisions;
  const changes: Change[] = [];
  const last = revs.at(-1)!;
  if (revs.length - first > MAX_REVISIONS_CHECKED)
    return [
      unreadable(
        first + 1,
        `${revs.length - first} revisions after the first signature; at most ${MAX_REVISIONS_CHECKED} are checked`,
      ),
    ];
  for (const problem of file.problems) changes.push(unreadable(revs.length + 1, problem));
  if (file.bytes.length > last.end)
    changes.push({
      revision: revs.length + 1,
      kind: 'appended_bytes',
      level: 'other',
      page: null,
      description: `${file.bytes.length - last.end} bytes appended after the last revision`,
    });
  for (let i = first; i < revs.length; i++) {
    const rev = revs[i]!;
    const prev = revs[i - 1]!;
    const problems = updateProblems(file, rev, prev);
    if (problems.length === 0) {
      const disagreement = await libpdfDisagrees(file, rev);
      if (disagreement) problems.push(disagreement);
    }
    for (const p of problems)
      changes.push(
        unreadable(rev.number, `revision ${rev.number} ${p}, so readers disagree on what the file shows`),
      );
    changes.push(...diffRevision(new View(file, prev), new View(file, rev), rev.number));
  }
  return changes.sort((a, b) => a.revision - b.revision);
}

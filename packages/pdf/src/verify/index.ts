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
import { pdfjsView, renderingGuard } from './guard.ts';
import { levelOf, readDssHistory, signingTimeOf, timeOf } from './levels.ts';
import { View } from './model.ts';
import { type FoundSignature, findSignatures, locks, type SignatureKind, strayMarker } from './signatures.ts';
import { updateProblems } from './strict.ts';

export type { RevisionChange } from './diff.ts';
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
  return (await inspect(pdf)).checks;
}

/** How the rendering guard went (issue 40 item 4): not needed when nothing follows the first signature. */
export type RenderingCheck =
  | { status: 'not_needed' }
  | { status: 'same'; pagesCompared: number }
  | { status: 'differs'; page: number; detail: string }
  | { status: 'skipped'; pagesCompared: number; reason: string };

async function inspect(pdf: Uint8Array): Promise<{ checks: SignatureCheck[]; rendering: RenderingCheck }> {
  const file = new PdfFile(pdf);
  const found = findSignatures(file);
  if (found.length === 0) return { checks: stray(file), rendering: { status: 'not_needed' } };
  const first = Math.min(...found.map((s) => s.revision));
  const changes = await changesSince(file, first);
  const rendering = await lastCheck(file, found, first, changes);
  const dss = readDssHistory(file);
  const certification = found.find((s) => s.kind === 'certification' && s.check.valid);
  const checks = found.map((s): SignatureCheck => {
    const timing = timeOf(s, found);
    const level = levelOf(s, found, dss, timing);
    const permitted = permittedBy(s, certification, found);
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
  return { checks, rendering };
}

/**
 * The pdf.js checks, last before any intact verdict: pdf.js must read the file's pages as the
 * strict reader does (count, boxes, rotation, annotations), and show every page of the whole file
 * as the first signed revision shows it, outside the areas of the changes the analysis allowed.
 * A difference is a change the analysis missed: it is added to the first signature's changes.
 */
async function lastCheck(
  file: PdfFile,
  found: FoundSignature[],
  first: number,
  changes: Change[],
): Promise<RenderingCheck> {
  const last = file.revisions.at(-1)!;
  if (last.number <= first && /^[\0\t\n\f\r ]*$/.test(file.text.slice(last.end)))
    return { status: 'not_needed' };
  const signedFirst = found.filter((s) => s.revision === first);
  const permitted = permittedBy(
    signedFirst[0]!,
    found.find((s) => s.kind === 'certification' && s.check.valid),
    found,
  );
  const allowedChanges = changes.filter(
    (c) => c.revision > first && allowed(c, permitted, signedFirst[0]!, found),
  );
  // Only worth drawing when everything else holds: a file already modified needs no more proof.
  if (
    !found.every((s) => s.check.valid) ||
    allowedChanges.length !== changes.filter((c) => c.revision > first).length
  )
    return { status: 'not_needed' };
  const missed = (page: number | null, description: string) =>
    changes.push({
      revision: last.number,
      kind: page ? 'page_content' : 'unreadable_revision',
      level: 'other',
      page,
      description,
    });
  const disagreement = await pdfjsDisagrees(file);
  if (disagreement) {
    missed(
      disagreement.page,
      `pdf.js reads the file differently from the strict reader (${disagreement.detail})`,
    );
    return { status: 'differs', page: disagreement.page ?? 0, detail: disagreement.detail };
  }
  const areas = allowedChanges.flatMap((c) => c.areas ?? []).filter((a) => a.page > 0);
  const signedEnd = file.revisions[first - 1]!.end;
  const result = await renderingGuard(file.bytes.subarray(0, signedEnd), file.bytes, areas);
  if (result.status === 'differs') {
    const where = result.page > 0 ? `page ${result.page}` : 'the file';
    missed(
      result.page || null,
      `pdf.js shows ${where} differently from the signed revision (${result.what}: ${result.detail})`,
    );
    return { status: 'differs', page: result.page, detail: `${result.what}: ${result.detail}` };
  }
  return result;
}

/** Where pdf.js reads the final revision's pages otherwise than the strict reader: count, box, rotation, annotations. */
async function pdfjsDisagrees(file: PdfFile): Promise<{ page: number | null; detail: string } | null> {
  const seen = await pdfjsView(file.bytes);
  if (!seen) return { page: null, detail: 'pdf.js cannot open it' };
  const view = new View(file, file.revisions.at(-1)!);
  const pages = view.pages();
  if (!pages) return null; // the analysis already reports a page tree it cannot walk
  if (seen.numPages !== pages.length)
    return {
      page: null,
      detail: `pdf.js counts ${seen.numPages} pages, the file's page tree ${pages.length}`,
    };
  for (let i = 0; i < pages.length; i++) {
    const mine = pages[i]!;
    const theirs = seen.pages[i]!;
    const rotate = (((view.number(mine.fromParents.get('Rotate')) ?? 0) % 360) + 360) % 360;
    if (theirs.rotate !== rotate)
      return {
        page: i + 1,
        detail: `page ${i + 1} is rotated ${theirs.rotate}° in pdf.js, ${rotate}° as read`,
      };
    const annots = mine.annots.length;
    if (theirs.annotations.length > annots)
      return {
        page: i + 1,
        detail: `pdf.js finds ${theirs.annotations.length} annotations on page ${i + 1}, the file lists ${annots}`,
      };
  }
  return null;
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
function permittedBy(
  s: FoundSignature,
  certification: FoundSignature | undefined,
  all: FoundSignature[],
): ModificationLevel {
  // The certification's DocMDP P, and the /P of any signature lock made up to this one (PDF 2.0
  // locking signatures): the most restrictive holds.
  const ps = [
    certification && certification.revision <= s.revision ? certification.docMdp : null,
    ...all.filter((o) => o.revision <= s.revision && o.check.valid).map((o) => o.lock?.p ?? null),
  ].filter((p): p is number => p !== null);
  const p = ps.length > 0 ? Math.min(...ps) : null;
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
): Promise<{ checks: SignatureCheck[]; intact: boolean; sha256: string; rendering: RenderingCheck }> {
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const { checks, rendering } = await inspect(pdf);
  return { checks, intact: isIntact(checks), sha256, rendering };
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
  // White space after the last %%EOF (an extra end of line, as OpenPDF writes) shows nothing.
  if (file.bytes.length > last.end && !/^[\0\t\n\f\r ]*$/.test(file.text.slice(last.end)))
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

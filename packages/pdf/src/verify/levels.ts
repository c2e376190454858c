import { createHash } from 'node:crypto';
import type { PadesLevel } from '../seal/sign.ts';
import { judgeTimestamp, type TimestampJudgement } from '../seal/timestamps.ts';
import { namesRevocation } from '../seal/trust.ts';
import { decodeStream } from './decode.ts';
import type { PdfFile } from './file.ts';
import { Stream } from './lexer.ts';
import { View } from './model.ts';
import {
  type Coverage,
  coverCrl,
  coverOcsp,
  covers,
  emptyCoverage,
  mergeCoverage,
} from './revocation-cover.ts';
import type { FoundSignature } from './signatures.ts';

// The PAdES baseline level of each signature (ETSI EN 319 142-1), in the spirit of ETSI EN 319
// 102-1: a level is claimed only when the file holds what it needs. Timestamps count only when
// their time order is possible (timestamps.ts); validation data is merged over every revision's
// /DSS (and the CMS's own revocation attribute), so a renewal that adds to an older DSS counts.

export interface Timing {
  counted: boolean;
  judgement: TimestampJudgement | null;
  issues: string[];
}

/** Validation data in the file as it stood at the end of each revision: certificates (SHA-256) and what its revocation entries cover. */
export interface DssHistory {
  byRevision: { certificates: Set<string>; coverage: Coverage }[];
}

export function readDssHistory(file: PdfFile): DssHistory {
  const certificates = new Set<string>();
  const coverage = emptyCoverage();
  const seen = new Set<string>();
  const byRevision: DssHistory['byRevision'] = [];
  for (const rev of file.revisions) {
    const view = new View(file, rev);
    const dss = view.dict(view.catalog()?.get('DSS'));
    const streams = (name: string) =>
      (view.array(dss?.get(name)) ?? [])
        .map((v) => view.get(v))
        .filter((v): v is Stream => v instanceof Stream);
    for (const s of streams('Certs')) {
      const data = decodeStream(s);
      if (data) certificates.add(createHash('sha256').update(data).digest('hex'));
    }
    for (const [name, cover] of [
      ['OCSPs', coverOcsp],
      ['CRLs', coverCrl],
    ] as const)
      for (const s of streams(name)) {
        const id = createHash('sha256').update(s.raw).digest('hex');
        const data = seen.has(id) ? null : decodeStream(s);
        seen.add(id);
        if (data) cover(data, coverage);
      }
    byRevision.push({
      certificates: new Set(certificates),
      coverage: mergeCoverage(coverage, emptyCoverage()),
    });
  }
  return { byRevision };
}

const claim = (t: FoundSignature, label: string) => ({
  label,
  time: t.check.timestampTime!,
  authority: t.check.timestampAuthority,
  certificates: t.check.timestampCertificates,
});

/** Judges a signature's own timestamp, or a document timestamp against the signature before it. */
export function timeOf(s: FoundSignature, all: FoundSignature[]): Timing {
  const timing: Timing = { counted: false, judgement: null, issues: [] };
  if (!s.check.valid || !s.check.timestampTime) return timing;
  if (s.kind === 'document_timestamp') {
    const previous = all.filter((o) => o !== s && o.check.valid && o.signedEnd < s.signedEnd).at(-1);
    const time = previous?.check.timestampTime ?? signingTimeOf(previous);
    const judgement = judgeTimestamp(claim(s, 'document timestamp'), {
      signer: null,
      beforeExpiry: false,
      notBefore: time ? { time, what: 'the signature before it' } : null,
    });
    timing.judgement = judgement;
    timing.counted = !judgement.problem;
    if (judgement.problem) timing.issues.push(judgement.problem);
    return timing;
  }
  const signingTime = signingTimeOf(s);
  const own = judgeTimestamp(claim(s, 'signature timestamp'), {
    signer: s.check.certificates[0] ?? null,
    beforeExpiry: true,
    notBefore: signingTime ? { time: signingTime, what: 'the signing time the signature claims' } : null,
  });
  timing.counted = !own.problem;
  if (own.problem) timing.issues.push(own.problem);
  else timing.judgement = own;
  return timing;
}

/** The time a valid signature claims: its CMS signing-time, else its dictionary's /M. */
export function signingTimeOf(s: FoundSignature | undefined): string | null {
  if (!s?.check.valid) return null;
  return s.check.signingTime ?? s.claimedTime;
}

/**
 * B-B when valid; B-T with a counted signature timestamp or a later counted document timestamp;
 * B-LT when the validation data in the file (every DSS merged) holds its chain and, for each
 * certificate that names an OCSP responder or CRL, revocation data about that certificate
 * (revocation-cover.ts: an entry about another certificate does not count); B-LTA when a counted document
 * timestamp follows the revision where that became true.
 */
export function levelOf(
  s: FoundSignature,
  all: FoundSignature[],
  dss: DssHistory,
  timing: Timing,
): PadesLevel | null {
  if (!s.check.valid || s.kind === 'document_timestamp') return null;
  const after = timing.counted ? s.check.timestampTime : signingTimeOf(s);
  const stamps: FoundSignature[] = [];
  for (const t of all) {
    if (
      t.kind !== 'document_timestamp' ||
      !t.check.valid ||
      t.revision <= s.revision ||
      !t.check.timestampTime
    )
      continue;
    const judgement = judgeTimestamp(claim(t, 'document timestamp'), {
      signer: s.check.certificates[0] ?? null,
      beforeExpiry: false,
      notBefore: after ? { time: after, what: 'the signature it follows' } : null,
    });
    if (judgement.problem) {
      if (!timing.issues.includes(judgement.problem)) timing.issues.push(judgement.problem);
      continue;
    }
    timing.judgement ??= judgement;
    stamps.push(t);
  }
  if (!timing.counted && stamps.length === 0) return 'B-B';
  const certs = s.check.certificates.map((c) => createHash('sha256').update(c).digest('hex'));
  const needing = s.check.certificates.filter((c) => safeNames(c));
  const embedded = emptyCoverage();
  for (const der of s.check.revocation.crls) coverCrl(der, embedded);
  for (const der of s.check.revocation.ocsps) coverOcsp(der, embedded);
  const ltvAt = dss.byRevision.findIndex((d) => {
    if (!certs.every((c) => d.certificates.has(c))) return false;
    const known = mergeCoverage(d.coverage, embedded);
    return needing.every((c) => covers(known, c));
  });
  if (ltvAt < 0) return 'B-T';
  return stamps.some((t) => t.revision >= ltvAt + 1) ? 'B-LTA' : 'B-LT';
}

function safeNames(der: Uint8Array): boolean {
  try {
    return namesRevocation(der);
  } catch {
    return false;
  }
}

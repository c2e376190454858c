import type { Executor } from '@esign/db';
import { json } from '@esign/db';
import {
  DocumentInputError,
  DocumentPoolBusyError,
  type RevisionChange,
  type SignatureCheck,
  type VerifyResult,
  verifyInPool,
} from '@esign/pdf/pool';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { CoreDeps, Scope } from '../context.ts';
import { CoreError } from '../errors.ts';
import { MAX_DOCUMENT_BYTES, poolBusy, readDocumentFile } from './documents-input.ts';
import { type ProducedFile, producedFiles } from './request-model.ts';
import { signingIdentityOptions } from './sealing/identity.ts';

// POST /documents/verify (docs/verify.md): is this file one the service produced, unchanged, and
// are its signatures intact? Two independent checks: the file's SHA-256 against every produced
// file (any change to any byte breaks the match), and every embedded PDF signature checked
// cryptographically against the revision it signed, with what each later revision changed
// classified (a DSS or document timestamp is allowed after a seal; new page content is not,
// whoever signed it afterwards).

export type Verdict = 'authentic' | 'intact_signature' | 'modified' | 'unsigned';

export type Level = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

export interface ChangeDto {
  revision: number;
  kind: RevisionChange['kind'];
  page: number | null;
  description: string;
}

export interface SignatureDto {
  valid: boolean;
  covers_whole_document: boolean;
  modified_after_signing: boolean;
  kind: SignatureCheck['kind'];
  level: Level | null;
  timestamp_time: string | null;
  /** Issue 30 item 5 (optional extension): the TSA whose time counts, and whether it chains to a trusted root. */
  timestamp_authority?: string | null;
  timestamp_trusted?: boolean;
  /** Timestamps that do not count for the level, each named with why. */
  timestamp_issues?: string[];
  revision: number;
  changes_after_signing: ChangeDto[];
  signer_subject: string | null;
  signer_certificate_sha256: string | null;
  certificate_is_service: boolean;
  signing_time: string | null;
  reason: string | null;
  error: string | null;
}

export interface VerificationDto {
  object: 'verification';
  verdict: Verdict;
  sha256: string;
  byte_size: number;
  produced_by_service: boolean;
  match: {
    kind: ProducedFile['kind'];
    name: string;
    signature_request_id: number | null;
    test_mode: boolean;
  } | null;
  intact: boolean;
  certificate_is_service: boolean;
  level: Level | null;
  summary: string;
  changes: ChangeDto[];
  signatures: SignatureDto[];
}

/** `file`: base64 of the PDF, a `data:` URI prefix allowed. URLs are not fetched. */
export async function decodeVerifyFile(file: string, deps: CoreDeps): Promise<Uint8Array> {
  if (/^\s*[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
    throw new CoreError(
      'invalid_document',
      'file must be base64 (a data: URI prefix is allowed); URLs are not downloaded',
    );
  }
  const bytes = await readDocumentFile(file, 'file', deps);
  if (bytes.length > MAX_DOCUMENT_BYTES)
    throw new CoreError('document_too_large', 'file is larger than 25 MB');
  // A PDF starts with %PDF- within its first 1024 bytes (ISO 32000-1 §7.5.2, as readers accept it).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw new CoreError('invalid_document', 'file is not a PDF');
  return bytes;
}

function signatureDto(c: SignatureCheck, serviceFingerprint: string): SignatureDto {
  return {
    valid: c.valid,
    covers_whole_document: c.coversWholeDocument,
    modified_after_signing: c.modifiedAfterSigning,
    kind: c.kind,
    level: c.level,
    timestamp_time: c.timestampTime,
    ...(c.timestampAuthority !== undefined && { timestamp_authority: c.timestampAuthority }),
    ...(c.timestampTrusted !== undefined && { timestamp_trusted: c.timestampTrusted }),
    ...(c.timestampIssues && { timestamp_issues: c.timestampIssues }),
    revision: c.revision,
    changes_after_signing: c.changesAfter.map(toChangeDto),
    signer_subject: c.signerSubject,
    signer_certificate_sha256: c.signerCertificateSha256,
    certificate_is_service: c.signerCertificateSha256 === serviceFingerprint,
    signing_time: c.signingTime,
    reason: c.reason,
    error: c.error ?? null,
  };
}

const toChangeDto = (c: RevisionChange): ChangeDto => ({
  revision: c.revision,
  kind: c.kind,
  page: c.page,
  description: c.description,
});

/** Every disallowed change once (several signatures can report the same one), by revision. */
function allChanges(signatures: SignatureDto[]): ChangeDto[] {
  const seen = new Map<string, ChangeDto>();
  for (const s of signatures) {
    for (const c of s.changes_after_signing)
      seen.set(`${c.revision}|${c.kind}|${c.page}|${c.description}`, c);
  }
  return [...seen.values()].sort((a, b) => a.revision - b.revision);
}

/** The verdict in one sentence, naming what changed, where, and after whose signature. */
function summarize(verdict: Verdict, signatures: SignatureDto[], changes: ChangeDto[]): string {
  if (verdict === 'unsigned') return 'The file carries no signature.';
  const broken = signatures.find((s) => !s.valid);
  if (broken)
    return `A signature by ${broken.signer_subject ?? 'an unknown signer'} does not verify: ${broken.error}.`;
  const modified = signatures.find((s) => s.modified_after_signing);
  if (modified) {
    const who = modified.certificate_is_service
      ? "this service's seal"
      : `the signature of ${modified.signer_subject}`;
    const what = changes.slice(0, 5).map((c) => `${c.description} (revision ${c.revision})`);
    const more = changes.length > 5 ? `, and ${changes.length - 5} more` : '';
    return `The document was changed after ${who}: ${what.join('; ')}${more}.`;
  }
  if (verdict === 'modified')
    return 'The signatures are intact but the file differs from the one the service produced.';
  const seal = signatures.filter((s) => s.kind !== 'document_timestamp').at(-1);
  const level = seal?.level ? ` (PAdES ${seal.level})` : '';
  const said =
    verdict === 'authentic'
      ? `A file this service produced, unchanged since it was sealed${level}.`
      : `The signatures are intact${level}, but the file is not one this service produced.`;
  return `${said}${timestampNote(seal)}`;
}

/** Issue 30 item 5: who certified the time, whether that TSA is trusted, and any timestamp not counted. */
function timestampNote(seal: SignatureDto | undefined): string {
  if (!seal) return '';
  const trust =
    seal.timestamp_authority && seal.level !== 'B-B'
      ? ` Time certified by ${seal.timestamp_authority}, ${seal.timestamp_trusted ? 'whose chain reaches a trusted root' : 'whose chain does not reach a trusted root'}.`
      : '';
  const ignored = (seal.timestamp_issues ?? []).map((i) => ` Not counted: ${i}.`).join('');
  return `${trust}${ignored}`;
}

/** Produced files with this SHA-256, the caller's own first (jsonb containment on the GIN index). */
async function findProduced(db: Executor, scope: Scope, hash: string) {
  const rows = await db
    .selectFrom('signature_requests')
    .select(['id', 'account_id', 'environment', 'documents'])
    .where(sql<boolean>`documents @> ${json({ files: [{ sha256: hash }] })}::jsonb`)
    .orderBy('id')
    .limit(20)
    .execute();
  const mine = (r: (typeof rows)[number]) =>
    r.account_id === scope.accountId && r.environment === scope.environment;
  const row = rows.find(mine) ?? rows[0];
  if (!row) return null;
  const file = producedFiles(row.documents).find((f) => f.sha256 === hash);
  if (!file) return null;
  return {
    kind: file.kind,
    name: file.name,
    signature_request_id: mine(row) ? row.id : null,
    test_mode: row.environment === 'test',
  };
}

/**
 * Hashes the file and checks its signatures in the document pool, as the account's work (the
 * parse of a 25 MB file with many revisions takes seconds and much memory: never on the event loop
 * of a process answering HTTP). The pool's errors become the spec's codes.
 */
async function checkInPool(
  bytes: Uint8Array,
  scope: Scope,
  config: Pick<Config, 'SIGNING_CERT_P12' | 'SIGNING_CERT_PASSWORD' | 'DATA_DIR'>,
): Promise<VerifyResult> {
  const identity = await signingIdentityOptions(config);
  try {
    return await verifyInPool(bytes, identity, { tenant: String(scope.accountId) });
  } catch (err) {
    if (err instanceof DocumentInputError) throw new CoreError(err.code, `file: ${err.message}`);
    if (err instanceof DocumentPoolBusyError) throw poolBusy(err, 'file');
    throw err;
  }
}

/** Verifies one PDF for the caller: see docs/verify.md for every field. */
export async function verifyDocument(
  db: Executor,
  scope: Scope,
  bytes: Uint8Array,
  config: Pick<Config, 'SIGNING_CERT_P12' | 'SIGNING_CERT_PASSWORD' | 'DATA_DIR'>,
): Promise<VerificationDto> {
  const { checks, intact, sha256: hash, serviceCertificateSha256 } = await checkInPool(bytes, scope, config);
  const match = await findProduced(db, scope, hash);
  const signatures = checks.map((c) => signatureDto(c, serviceCertificateSha256));
  const last = signatures.filter((s) => s.kind !== 'document_timestamp').at(-1);
  const produced = match !== null;
  const verdict: Verdict =
    produced && intact
      ? 'authentic'
      : intact
        ? 'intact_signature'
        : signatures.length > 0 || produced
          ? 'modified'
          : 'unsigned';
  const changes = allChanges(signatures);
  return {
    object: 'verification',
    verdict,
    sha256: hash,
    byte_size: bytes.length,
    produced_by_service: produced,
    match,
    intact,
    certificate_is_service: !!last?.certificate_is_service,
    level: last?.level ?? null,
    summary: summarize(verdict, signatures, changes),
    changes,
    signatures,
  };
}

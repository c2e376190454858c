import type { Executor } from '@esign/db';
import { json } from '@esign/db';
import type { SignatureCheck } from '@esign/pdf';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { CoreDeps, Scope } from '../context.ts';
import { CoreError } from '../errors.ts';
import { MAX_DOCUMENT_BYTES, readDocumentFile } from './documents-input.ts';
import { type ProducedFile, producedFiles } from './request-model.ts';
import { getSigningIdentity } from './sealing/identity.ts';
import { sha256 } from './storage.ts';

// POST /documents/verify (docs/verify.md): is this file one the service produced, unchanged, and
// are its signatures intact? Two independent checks: the file's SHA-256 against every produced
// file (any change to any byte breaks the match), and every embedded PDF signature checked
// cryptographically from the bytes (a change inside a signed range breaks the digest, bytes
// appended after the last signature are reported as modified_after_signing).

export type Verdict = 'authentic' | 'intact_signature' | 'modified' | 'unsigned';

export interface SignatureDto {
  valid: boolean;
  covers_whole_document: boolean;
  modified_after_signing: boolean;
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
    signer_subject: c.signerSubject,
    signer_certificate_sha256: c.signerCertificateSha256,
    certificate_is_service: c.signerCertificateSha256 === serviceFingerprint,
    signing_time: c.signingTime,
    reason: c.reason,
    error: c.error ?? null,
  };
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

/** Verifies one PDF for the caller: see docs/verify.md for every field. */
export async function verifyDocument(
  db: Executor,
  scope: Scope,
  bytes: Uint8Array,
  config: Pick<Config, 'SIGNING_CERT_P12' | 'SIGNING_CERT_PASSWORD' | 'DATA_DIR'>,
): Promise<VerificationDto> {
  const hash = sha256(bytes);
  // Loaded on first use: processes that never verify never load the PDF libraries.
  const { inspectSignatures, isIntact } = await import('@esign/pdf');
  const [match, checks, identity] = await Promise.all([
    findProduced(db, scope, hash),
    inspectSignatures(bytes),
    getSigningIdentity(config),
  ]);
  const signatures = checks.map((c) => signatureDto(c, identity.fingerprintSha256));
  const intact = isIntact(checks);
  const last = signatures[signatures.length - 1];
  const produced = match !== null;
  const verdict: Verdict =
    produced && intact
      ? 'authentic'
      : intact
        ? 'intact_signature'
        : signatures.length > 0 || produced
          ? 'modified'
          : 'unsigned';
  return {
    object: 'verification',
    verdict,
    sha256: hash,
    byte_size: bytes.length,
    produced_by_service: produced,
    match,
    intact,
    certificate_is_service: !!last?.certificate_is_service,
    signatures,
  };
}

import type { Executor } from '@esign/db';
import { findRequestsByFileHash, findSignerCopiesByFileHash } from '@esign/db/queries/sealing';
import { findRequestViewById } from '@esign/db/queries/signature-requests';
import {
  DocumentInputError,
  DocumentPoolBusyError,
  type RenderingCheck,
  type RevisionChange,
  type SignatureCheck,
  type VerifyResult,
  verifyInPool,
} from '@esign/pdf/pool';
import type { Config } from '../config.ts';
import type { CoreDeps, Scope } from '../context.ts';
import { CoreError } from '../errors.ts';
import { requestBrand, signingBrandOf } from './brands/branded-mail.ts';
import { MAX_DOCUMENT_BYTES, poolBusy, readDocumentFile } from './documents-input.ts';
import { hitRateLimit, peekRateLimit, type RateLimitResult } from './rate-limit.ts';
import { type ProducedFile, producedFiles } from './request-model.ts';
import { signingIdentityOptions } from './sealing/identity.ts';

// POST /documents/verify (docs/verify.md): is this file one the service produced, unchanged, and
// are its signatures intact? Two independent checks: the file's SHA-256 against every produced
// file (any change to any byte breaks the match), and every embedded PDF signature checked
// cryptographically against the revision it signed, with what each later revision changed
// classified (a DSS or document timestamp is allowed after a seal; new page content is not,
// whoever signed it afterwards).

type Verdict = 'authentic' | 'intact_signature' | 'modified' | 'unsigned';

type Level = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

interface ChangeDto {
  revision: number;
  kind: RevisionChange['kind'];
  page: number | null;
  description: string;
}

interface SignatureDto {
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
  modification_level: SignatureCheck['modificationLevel'];
  modifications_permitted: SignatureCheck['modificationsPermitted'];
  modifications: ChangeDto[];
  weak_algorithms?: string[];
  signer_subject: string | null;
  signer_certificate_sha256: string | null;
  certificate_is_service: boolean;
  signing_time: string | null;
  reason: string | null;
  error: string | null;
}

interface MatchDto {
  kind: ProducedFile['kind'] | 'signer_copy';
  name: string;
  signature_request_id: number | null;
  test_mode: boolean;
  /** signer_copy only: the signer's place in the request, 1 for the first. */
  signer_number?: number;
  /** signer_copy only: the final documents exist (the request was sealed after this copy). */
  final_document_exists?: boolean;
  /** Issue 44 (extension): the request's brand as its signers saw it; absent without one. */
  brand?: ReturnType<typeof signingBrandOf>;
}

export interface VerificationDto {
  object: 'verification';
  verdict: Verdict;
  sha256: string;
  byte_size: number;
  produced_by_service: boolean;
  match: MatchDto | null;
  intact: boolean;
  certificate_is_service: boolean;
  level: Level | null;
  summary: string;
  changes: ChangeDto[];
  signatures: SignatureDto[];
  rendering_check: RenderingCheckDto;
}

/** Issue 40 item 4: pdf.js's last check before an intact verdict (docs/verify.md, "The rendering guard"). */
interface RenderingCheckDto {
  status: RenderingCheck['status'];
  pages_compared: number | null;
  page: number | null;
  detail: string | null;
}

function renderingDto(r: RenderingCheck): RenderingCheckDto {
  return {
    status: r.status,
    pages_compared: 'pagesCompared' in r ? r.pagesCompared : null,
    page: r.status === 'differs' ? r.page : null,
    detail: r.status === 'differs' ? r.detail : r.status === 'skipped' ? r.reason : null,
  };
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
    modification_level: c.modificationLevel,
    modifications_permitted: c.modificationsPermitted,
    modifications: c.modifications.map(toChangeDto),
    ...(c.weakAlgorithms && { weak_algorithms: c.weakAlgorithms }),
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
function summarize(
  verdict: Verdict,
  signatures: SignatureDto[],
  changes: ChangeDto[],
  match: MatchDto | null,
): string {
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
  let said: string;
  if (verdict === 'authentic' && match?.kind === 'signer_copy') {
    const final = match.final_document_exists
      ? ' The final documents, sealed once everyone signed, exist and supersede it.'
      : ' The request was not sealed yet when this copy was made; its final documents do not exist yet.';
    said = `Signer ${match.signer_number}'s own signed copy, produced by this service and unchanged since it was sealed${level}.${final}`;
  } else {
    said =
      verdict === 'authentic'
        ? `A file this service produced, unchanged since it was sealed${level}.`
        : `The signatures are intact${level}, but the file is not one this service produced.`;
  }
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

/** Whose match it is: the caller's own (account and environment), or anyone's (`scope` null: nobody's). */
const ownedBy = (scope: Scope | null) => (r: { account_id: number; environment: string }) =>
  scope !== null && r.account_id === scope.accountId && r.environment === scope.environment;

/**
 * The produced file with this SHA-256, the caller's own first (jsonb containment on GIN indexes):
 * a request's sealed document, audit trail or combined file, else a signer's own copy.
 */
async function findProduced(db: Executor, scope: Scope | null, hash: string): Promise<MatchDto | null> {
  const mine = ownedBy(scope);
  const requests = await findRequestsByFileHash(db, hash);
  const row = requests.find(mine) ?? requests[0];
  const file = row ? producedFiles(row.documents).find((f) => f.sha256 === hash) : undefined;
  if (row && file) {
    return {
      kind: file.kind,
      name: file.name,
      signature_request_id: mine(row) ? row.id : null,
      test_mode: row.environment === 'test',
      ...(await matchBrand(db, row)),
    };
  }
  const copies = await findSignerCopiesByFileHash(db, hash);
  const copy = copies.find(mine) ?? copies[0];
  const copyFile = copy ? copyFiles(copy.copy_files).find((f) => f.sha256 === hash) : undefined;
  if (!copy || !copyFile) return null;
  return {
    kind: 'signer_copy',
    name: copyFile.name,
    signature_request_id: mine(copy) ? copy.signature_request_id : null,
    test_mode: copy.environment === 'test',
    signer_number: copy.position + 1,
    final_document_exists: copy.sealing_status === 'done',
    ...(await matchBrand(db, await findRequestViewById(db, copy.signature_request_id))),
  };
}

/** `{ brand }` of a matched request (its own, its template's, the account's default), or `{}`. */
async function matchBrand(
  db: Executor,
  request: Parameters<typeof requestBrand>[1] | undefined,
): Promise<Pick<MatchDto, 'brand'>> {
  const brand = request ? await requestBrand(db, request) : undefined;
  return brand ? { brand: signingBrandOf(brand) } : {};
}

/** A signer's copy files: `{ files: [{ name, sha256, ... }] }` (copies from before 2026-11-27 have only those two). */
function copyFiles(value: unknown): { name: string; sha256: string }[] {
  const files = (value as { files?: unknown } | null)?.files;
  return Array.isArray(files)
    ? files.filter((f) => f && typeof f.name === 'string' && typeof f.sha256 === 'string')
    : [];
}

/**
 * Hashes the file and checks its signatures in the document pool, as the account's work (the
 * parse of a 25 MB file with many revisions takes seconds and much memory: never on the event loop
 * of a process answering HTTP). The pool's errors become the spec's codes.
 */
async function checkInPool(bytes: Uint8Array, tenant: string, config: VerifyConfig): Promise<VerifyResult> {
  const identity = await signingIdentityOptions(config);
  try {
    return await verifyInPool(bytes, identity, { tenant });
  } catch (err) {
    if (err instanceof DocumentInputError) throw new CoreError(err.code, `file: ${err.message}`);
    if (err instanceof DocumentPoolBusyError) throw poolBusy(err, 'file');
    throw err;
  }
}

type VerifyConfig = Pick<Config, 'SIGNING_CERT_P12' | 'SIGNING_CERT_PASSWORD' | 'DATA_DIR'>;

export interface VerifyCaller {
  /** The caller's account side (its requests' ids are shown), or null for the public page. */
  scope: Scope | null;
  /** Whose work it is in the document pool (served fairly per key): the account, or the address. */
  tenant: string;
}

/**
 * Verifies one PDF: see docs/verify.md for every field. The API (per account) and the public
 * verify page (per address, no account) both answer through here.
 */
export async function verifyDocument(
  ctx: { db: Executor; config: VerifyConfig },
  bytes: Uint8Array,
  caller: VerifyCaller,
): Promise<VerificationDto> {
  const {
    checks,
    intact,
    sha256: hash,
    rendering,
    serviceCertificateSha256,
  } = await checkInPool(bytes, caller.tenant, ctx.config);
  const match = await findProduced(ctx.db, caller.scope, hash);
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
    summary: summarize(verdict, signatures, changes, match),
    changes,
    signatures,
    rendering_check: renderingDto(rendering),
  };
}

/** Files one address may check a minute on the public /verify page (which needs no API key). */
export const PUBLIC_VERIFY_PER_MINUTE = 10;

const publicVerifyBucket = (address: string) => `verify_page:ip:${address}`;

function publicVerifyLimited(result: RateLimitResult): CoreError | null {
  if (!result.limited) return null;
  return new CoreError(
    'rate_limited',
    `Too many files checked from your address: at most ${PUBLIC_VERIFY_PER_MINUTE} a minute. Wait ${result.resetSeconds} seconds, then try again.`,
    { retryAfterSeconds: result.resetSeconds },
  );
}

/**
 * The public page's refusal for an address whose minute is already used up, or null; it counts
 * nothing. The web app asks it before reading a body (up to about 34 MB of JSON), so an address
 * past its limit cannot make the server read and parse files only to refuse them.
 */
export async function publicVerifyRefusal(
  ctx: { db: Executor; now: () => Date },
  caller: { ip: string | null },
): Promise<CoreError | null> {
  const peek = await peekRateLimit(ctx.db, publicVerifyBucket(caller.ip ?? 'unknown'), {
    limit: PUBLIC_VERIFY_PER_MINUTE,
    now: ctx.now(),
  });
  return publicVerifyLimited(peek);
}

/**
 * The public /verify page (no key): the same verification, for anyone who holds a PDF. Counted
 * per client address (a fixed one-minute window shared by every process, before the file is even
 * decoded; the web app refuses an address already past it before reading the body:
 * publicVerifyRefusal); the file is checked in memory and in the document pool as that address's
 * work, never stored; no request id is shown (nobody's account side is the caller's).
 */
export async function verifyForPublic(
  ctx: { db: Executor; config: VerifyConfig; deps: CoreDeps; now: () => Date },
  file: string,
  caller: { ip: string | null },
): Promise<VerificationDto> {
  const address = caller.ip ?? 'unknown';
  const hit = await hitRateLimit(ctx.db, publicVerifyBucket(address), {
    limit: PUBLIC_VERIFY_PER_MINUTE,
    now: ctx.now(),
  });
  const refusal = publicVerifyLimited(hit);
  if (refusal) throw refusal;
  const bytes = await decodeVerifyFile(file, ctx.deps);
  return verifyDocument(ctx, bytes, { scope: null, tenant: `verify_page:${address}` });
}

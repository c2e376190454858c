import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { SignatureRequestRow, SignerRow } from '@esign/db';
import { findAccountLocale } from '@esign/db/queries/accounts';
import { listRequestAuditEvents } from '@esign/db/queries/audit';
import {
  findRequestForSealing,
  lockSealingState,
  markRequestSealed,
  recordSealingError,
  setSignedSignersDocuments,
} from '@esign/db/queries/sealing';
import { type Translate, translator } from '@esign/i18n';
import {
  type AuditTrailInput,
  DocumentInputError,
  type PooledSealed,
  type PooledSigned,
  poolInputPath,
  SealInputMismatchError,
} from '@esign/pdf/pool';
import { recordAudit } from '../audit.ts';
import { trailBrandOf } from '../brands/branded-mail.ts';
import type { JobContext, JobHandler } from '../jobs.ts';
import { readerLocale } from '../locale.ts';
import type { ProducedFile, ProducedFiles, RequestSnapshot, SnapshotDocument } from '../request-model.ts';
import { loadSigners } from '../signature-requests/queries.ts';
import { removeFiles } from '../storage.ts';
import { eventDetail } from './audit-trail.ts';
import { queueCompletionMails } from './completion-mails.ts';
import { SEAL_JOB } from './queue.ts';
import { type Sealer, sealerFor } from './sealer.ts';
import { authenticationOf, consentOf, signatureMethodsOf } from './trail-evidence.ts';
import { auditValue, effectiveValue, hiddenFields, sealValuesFor, signerFor } from './values.ts';

// Sealing (spec: "signed documents and audit trail become available" once a request completes).
// The last signature enqueues `request.seal` in its own transaction; this job draws every value
// into each document, signs it (PAdES), builds and signs the audit trail and the combined file,
// stores them, and then commits the produced files, the signers' copies and the completion emails
// in one transaction. A failing attempt throws (the queue retries with back-off) and leaves its
// reason in signature_requests.sealing_error; the last attempt marks sealing_status = 'failed'.

const PDF_TYPE = 'application/pdf';

/** The web app's public verify page, which every sealed file names (issue 30). */
const verifyPageUrl = (config: Pick<JobContext['config'], 'PUBLIC_URL'>) => `${config.PUBLIC_URL}/verify`;

const slug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'document';

/**
 * What one sealing attempt works on, and the files it has stored so far (removed if it fails).
 * `signers` is the signer set whose values are drawn: every signer for the request's files, or a
 * subset (one signer's own copy) through the same pipeline.
 */
export interface SealRun {
  ctx: JobContext;
  request: SignatureRequestRow;
  snapshot: RequestSnapshot;
  signers: SignerRow[];
  /** Seals in the document pool (with the trust services of TSA_URL, if set). */
  sealer: Sealer;
  title: string;
  testMode: boolean;
  base: string;
  stored: string[];
}

async function put(run: SealRun, key: string, bytes: Uint8Array) {
  // Noted first: a put that fails half-way is removed too (removing a missing file is no error).
  run.stored.push(key);
  await run.ctx.deps.storage.put(key, bytes, PDF_TYPE);
}

export async function removeStored(run: SealRun) {
  await removeFiles(run.ctx.deps.storage, run.stored);
}

/** The request if there is sealing to do: it exists, is completed and is not sealed yet. */
async function loadSealable(ctx: JobContext, requestId: number): Promise<SignatureRequestRow | null> {
  const request = await findRequestForSealing(ctx.db, requestId);
  if (!request) {
    ctx.logger.warn({ requestId }, 'sealing skipped: signature request not found');
    return null;
  }
  if (request.status !== 'completed') {
    ctx.logger.warn({ requestId, status: request.status }, 'sealing skipped: request is not completed');
    return null;
  }
  return request.sealing_status === 'done' ? null : request;
}

/**
 * Sealed documents kept in memory for the combined file, at most: a quarter of a document worker's
 * memory (DOCUMENT_MEMORY_MB; 120 MB by default), since merging them there needs a few times their
 * size. Ten 25 MB documents (what a template may hold) would otherwise keep 250 MB in the job's
 * process only to fail in the worker. Past it the request gets no combined file, as when the worker
 * runs out of memory (the spec: `combined_document_url` "when generated").
 */
const combineMaxBytes = (ctx: JobContext) => (ctx.config.DOCUMENT_MEMORY_MB * 1024 * 1024) / 4;

/** One original sealed in the pool, handed over as a file (removed here if the pool never took it). */
async function sealOriginal(
  run: SealRun,
  doc: SnapshotDocument,
  at: { sealedAt: Date; locales: ReadonlyMap<number, string> },
): Promise<PooledSealed> {
  const { sealedAt, locales } = at;
  const file = poolInputPath();
  try {
    await run.ctx.deps.storage.copyToFile(doc.storage_key, file);
    return await run.sealer.seal(
      { file },
      {
        values: sealValuesFor(run.snapshot, doc.index, { signers: run.signers, locales }),
        name: doc.name,
        testMark: run.testMode,
        signedAt: sealedAt,
        expectedSha256: doc.sha256 || undefined,
        verifyUrl: verifyPageUrl(run.ctx.config),
      },
    );
  } catch (err) {
    if (!(err instanceof SealInputMismatchError)) throw err;
    throw new Error(
      `document ${doc.index} (${doc.name}): the stored original's SHA-256 ${err.actualSha256} is not the one sent (${doc.sha256})`,
    );
  } finally {
    await unlink(file).catch(() => {});
  }
}

/** Each signer's language (signer > request > account), in which their numbers and dates are drawn. */
async function signerLocales(run: SealRun): Promise<Map<number, string>> {
  const account = await findAccountLocale(run.ctx.db, run.request.account_id);
  const locales = new Map<number, string>();
  for (const signer of run.signers) {
    locales.set(
      signer.id,
      (await readerLocale(run.ctx.db, { signer, request: run.request, account })).locale,
    );
  }
  return locales;
}

/**
 * Each document with its values drawn in and signed; checked against the original's hash first.
 * `sealed` holds them for the combined file, or is null once they are over combineMaxBytes.
 */
export async function sealDocuments(run: SealRun, sealedAt: Date) {
  const locales = await signerLocales(run);
  let sealed: Uint8Array[] | null = [];
  let sealedBytes = 0;
  const files: ProducedFile[] = [];
  const trailDocs: AuditTrailInput['documents'] = [];
  for (const doc of [...run.snapshot.documents].sort((a, b) => a.index - b.index)) {
    // The original goes to a worker process of the document pool (sealer.ts) as a file copied
    // there by the storage, never read into this process; the worker checks it against the
    // SHA-256 the request was sent with, draws and signs, and hashes the sealed file.
    const {
      pdf: bytes,
      sha256: sealedSha,
      inputSha256: originalSha,
    } = await sealOriginal(run, doc, { sealedAt, locales });
    const key = `${run.base}/document-${doc.index + 1}-${slug(doc.name)}.pdf`;
    await put(run, key, bytes);
    sealedBytes += bytes.length;
    sealed = sealed && sealedBytes <= combineMaxBytes(run.ctx) ? [...sealed, bytes] : null;
    files.push({
      kind: 'document',
      name: doc.name,
      storage_key: key,
      sha256: sealedSha,
      original_sha256: originalSha,
    });
    trailDocs.push({
      id: doc.template_document_id,
      name: doc.name,
      uploadedSha256: doc.uploaded_sha256 ?? null,
      originalSha256: originalSha,
      sealedSha256: sealedSha,
    });
  }
  return { sealed, files, trailDocs };
}

/**
 * The combined file (every sealed document and the audit trail in one signed PDF), or null when
 * it is more than a document worker may take (the spec: `combined_document_url` is there "when
 * generated"): merging copies every page of every document into one new file, so for the largest
 * documents it needs more memory than sealing them one by one. The request is sealed either way.
 */
async function combineIfPossible(
  run: SealRun,
  pdfs: Uint8Array[],
  key: string,
): Promise<ProducedFile | null> {
  let combined: PooledSigned;
  try {
    combined = await run.sealer.combine(pdfs, run.title);
  } catch (err) {
    if (!(err instanceof DocumentInputError)) throw err;
    run.ctx.logger.warn(
      { requestId: run.request.id, reason: err.message },
      'sealing: no combined file (over the document limits)',
    );
    return null;
  }
  await put(run, key, combined.pdf);
  return { kind: 'combined', name: `${run.title} - signed`, storage_key: key, sha256: combined.sha256 };
}

/** When and how the documents were sealed: the level reached and the TSA's certified time. */
interface SealingInfo {
  at: Date;
  level: 'B-B' | 'B-LTA';
  timestampAuthority: string | null;
  timestampTime: Date | null;
}

function sealingInfo(run: SealRun, at: Date): SealingInfo {
  const { timestampAuthority, timestampTime } = run.sealer;
  return { at, level: timestampAuthority ? 'B-LTA' : 'B-B', timestampAuthority, timestampTime };
}

/** The signed audit trail: documents, signers with evidence and values, events, the sealing. */
async function buildTrail(
  run: SealRun,
  trailDocs: AuditTrailInput['documents'],
  sealing: SealingInfo,
): Promise<PooledSigned> {
  const { request, signers } = run;
  const events = await listRequestAuditEvents(run.ctx.db, request.id);
  const byId = new Map(signers.map((s) => [s.id, s]));
  const { locale } = await trailLocale(run);
  const tr = translator(locale);
  const input: AuditTrailInput = {
    locale,
    requestId: request.id,
    title: run.title,
    createdAt: request.created_at,
    completedAt: request.completed_at,
    documents: trailDocs,
    signers: signers.map((s) => trailSigner(run, s, { events, tr })),
    events: events.map((e) => ({
      at: e.created_at,
      type: e.type,
      detail: eventDetail(e, { signers: byId, tr }),
    })),
    sealing,
    testMode: run.testMode,
    verifyUrl: verifyPageUrl(run.ctx.config),
    brand: await trailBrandOf(run.ctx.db, request),
  };
  return run.sealer.auditTrail(input);
}

/**
 * The audit trail's language: the request's locale; else, when every signer reads the same
 * language, theirs; else the account's default; else English. (The consent each signer gave is
 * quoted in the language they saw, whatever the labels around it.)
 */
function trailLocale(run: SealRun) {
  const own = [...new Set(run.signers.map((s) => s.locale))];
  const shared = own.length === 1 && own[0] ? { locale: own[0] } : null;
  return readerLocale(run.ctx.db, { signer: run.request.locale ? null : shared, request: run.request });
}

type EventRows = Parameters<typeof consentOf>[0];

function trailSigner(
  run: SealRun,
  s: SignerRow,
  { events, tr }: { events: EventRows; tr: Translate },
): AuditTrailInput['signers'][number] {
  const methods = signatureMethodsOf(events, s.id);
  const hidden = hiddenFields(run.snapshot, run.signers);
  return {
    id: s.id,
    kind: s.kind,
    role: s.role,
    name: s.name,
    email: s.email,
    phone: s.phone,
    ip: s.ip,
    userAgent: s.user_agent,
    sentAt: s.sent_at,
    viewedAt: s.viewed_at,
    signedAt: s.signed_at,
    declinedAt: s.declined_at,
    declineReason: s.decline_reason,
    otpVerifiedAt: s.otp_verified_at,
    authentication: authenticationOf(s, { events, tr }),
    consent: consentOf(events, s.id),
    values: run.snapshot.fields
      .filter((f) => signerFor(f, run.signers)?.id === s.id)
      .map((f) => ({
        field: f.name,
        // Issue 46: a hidden field shows which answers hid it, never a value.
        value: hidden.has(f.name)
          ? `(hidden by the answer to ${hidden.get(f.name)!.join(', ')})`
          : auditValue(effectiveValue(s, f.name)),
        method: f.type === 'signature' || f.type === 'initials' ? (methods.get(f.name) ?? null) : null,
      })),
  };
}

/**
 * One transaction: the produced files, the signers' copies, the audit entry and the completion
 * emails, if the request (locked) is still completed and unsealed. False when another attempt won.
 */
async function commitSeal(
  run: SealRun,
  files: ProducedFile[],
  keys: { trail: string; combined: string | null },
  sealing: SealingInfo,
) {
  const { ctx, request } = run;
  const documentFiles = files.filter((f) => f.kind === 'document');
  return ctx.db.transaction().execute(async (tx) => {
    const locked = await lockSealingState(tx, request.id);
    if (!locked || locked.sealing_status === 'done' || locked.status !== 'completed') return false;
    const now = ctx.now();
    await markRequestSealed(tx, {
      requestId: request.id,
      documents: { files } satisfies ProducedFiles,
      trailKey: keys.trail,
      combinedKey: keys.combined,
      now,
    });
    await setSignedSignersDocuments(tx, {
      requestId: request.id,
      documents: { files: documentFiles } satisfies ProducedFiles,
      now,
    });
    await recordAudit(
      tx,
      { accountId: request.account_id, environment: request.environment },
      {
        type: 'signature_request.sealed',
        by: { kind: 'system' },
        signatureRequestId: request.id,
        data: {
          certificate_sha256: run.sealer.certificateSha256,
          level: sealing.level,
          timestamp_authority: sealing.timestampAuthority,
          timestamp_time: sealing.timestampTime?.toISOString() ?? null,
          documents: files.map((f) => ({ kind: f.kind, name: f.name, sha256: f.sha256 })),
        },
        now,
      },
    );
    await queueCompletionMails(tx, ctx.config, {
      request,
      signers: run.signers,
      files,
      title: run.title,
      now,
    });
    return true;
  });
}

/**
 * The files of one run: each document sealed, the audit trail, the combined file (left out when it
 * is over the document worker's limits: combineIfPossible); all stored.
 */
async function produceSealedFiles(run: SealRun, sealedAt: Date) {
  const { sealed, files, trailDocs } = await sealDocuments(run, sealedAt);
  const sealing = sealingInfo(run, sealedAt);
  const trail = await buildTrail(run, trailDocs, sealing);
  const trailKey = `${run.base}/audit-trail.pdf`;
  await put(run, trailKey, trail.pdf);
  files.push({
    kind: 'audit_trail',
    name: `${run.title} - audit trail`,
    storage_key: trailKey,
    sha256: trail.sha256,
  });
  if (!sealed)
    run.ctx.logger.warn(
      {
        requestId: run.request.id,
        reason: `the documents are over ${combineMaxBytes(run.ctx)} bytes together`,
      },
      'sealing: no combined file (over the document limits)',
    );
  const combined = sealed
    ? await combineIfPossible(run, [...sealed, trail.pdf], `${run.base}/combined.pdf`)
    : null;
  if (combined) files.push(combined);
  return { files, keys: { trail: trailKey, combined: combined?.storage_key ?? null }, sealing };
}

/**
 * Seals one completed request (the body of job `request.seal`). Returns 'done', or 'skipped' when
 * there is nothing to do (unknown request, not completed, already sealed). Throws on failure
 * (a configured TSA or revocation service that does not answer included: the job is retried).
 */
async function sealSignatureRequest(ctx: JobContext, requestId: number): Promise<'done' | 'skipped'> {
  const request = await loadSealable(ctx, requestId);
  if (!request) return 'skipped';
  const started = Date.now();
  const snapshot = request.snapshot as RequestSnapshot;
  const run: SealRun = {
    ctx,
    request,
    snapshot,
    signers: await loadSigners(ctx.db, requestId),
    sealer: await sealerFor(ctx.config, ctx.deps, String(request.account_id)),
    title: snapshot.template?.name ?? request.template_name ?? `Signature request ${requestId}`,
    testMode: request.environment === 'test',
    base: `requests/${request.account_id}/${requestId}/${randomUUID()}`,
    stored: [],
  };
  try {
    const { files, keys, sealing } = await produceSealedFiles(run, ctx.now());
    if (!(await commitSeal(run, files, keys, sealing))) {
      // Another attempt sealed it first (or the request changed): keep only what was committed.
      await removeStored(run);
      ctx.logger.info({ requestId }, 'sealing skipped: already sealed by another attempt');
      return 'skipped';
    }
    const documents = files.filter((f) => f.kind === 'document').length;
    ctx.logger.info(
      { requestId, documents, level: sealing.level, ms: Date.now() - started },
      'signature request sealed',
    );
    return 'done';
  } catch (err) {
    await removeStored(run);
    throw err;
  }
}

/** Job `request.seal` ({ requestId }). */
export const sealRequestJob: JobHandler = async (ctx, payload, job) => {
  const requestId = Number(payload.requestId);
  if (!Number.isInteger(requestId) || requestId <= 0) {
    throw new Error(
      `request.seal needs a positive integer requestId, got ${JSON.stringify(payload.requestId)}`,
    );
  }
  try {
    await sealSignatureRequest(ctx, requestId);
  } catch (err) {
    const last = job.attempts >= job.max_attempts;
    ctx.deps.metrics?.sealingFailure(SEAL_JOB, last);
    const message = err instanceof Error ? err.message : String(err);
    await recordSealingError(ctx.db, {
      requestId,
      error: `attempt ${job.attempts} of ${job.max_attempts}: ${message}`.slice(0, 2000),
      failed: last,
    });
    ctx.logger[last ? 'error' : 'warn'](
      { err, requestId },
      last ? 'sealing failed for good' : 'sealing failed; will be retried',
    );
    throw err;
  }
};

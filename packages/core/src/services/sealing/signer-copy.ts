import { randomUUID } from 'node:crypto';
import type { Executor, SignerRow, Tx } from '@esign/db';
import { findRequestForSealing, findSignerForCopy, storeSignerCopy } from '@esign/db/queries/sealing';
import { t } from '@esign/i18n';
import { recordAudit } from '../audit.ts';
import { requestBrand } from '../brands/branded-mail.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { downloadName, signFileLink } from '../file-links.ts';
import { enqueueJob, type JobContext, type JobHandler } from '../jobs.ts';
import { readerLocale } from '../locale.ts';
import type { ProducedFile, ProducedFiles, RequestSnapshot } from '../request-model.ts';
import { loadSigners } from '../signature-requests/queries.ts';
import { COMPLETION_LINK_TTL_SECONDS, completionMail, greetingOf } from './completion-mails.ts';
import { removeStored, type SealRun, sealDocuments } from './seal.ts';
import { sealerFor } from './sealer.ts';

// A signer's own signed copy (spec: the signer's `documents`, "present only once they signed").
// When a signer signs and the request is not complete yet, `signer.copy` seals the original
// documents with the values entered so far (this signer's and those of everyone who signed before
// them) through the same pipeline as the final seal (sealDocuments), stores them, and commits the
// signer's `documents` and the email with the links in one transaction. It is a separate file, not
// an incremental revision the final seal builds on: the final seal is a certification (DocMDP)
// signature, which ISO 32000 requires to be a document's first signature, so it seals the
// originals afresh with every value. At completion the final seal replaces these documents.

export const SIGNER_COPY_JOB = 'signer.copy';
/** 5 s doubling: the attempts span about 10 minutes, like the final seal's. */
const SIGNER_COPY_MAX_ATTEMPTS = 8;

/** Queues the signer's copy; call it in the transaction of their signature. */
export async function queueSignerCopy(tx: Executor, signerId: number) {
  await enqueueJob(tx, {
    kind: SIGNER_COPY_JOB,
    payload: { signerId },
    maxAttempts: SIGNER_COPY_MAX_ATTEMPTS,
    uniqueKey: `${SIGNER_COPY_JOB}:${signerId}`,
  });
}

/** The signer and request if a copy is still due: signed, and no documents yet. */
async function loadCopyable(ctx: JobContext, signerId: number) {
  const signer = await findSignerForCopy(ctx.db, signerId);
  if (signer?.status !== 'signed' || !signer.signed_at || signer.documents) return null;
  const request = await findRequestForSealing(ctx.db, signer.signature_request_id);
  if (!request)
    throw new Error(`signer ${signerId}: signature request ${signer.signature_request_id} not found`);
  return { signer, request };
}

/** Whose values the copy shows: everyone who had signed when this signer signed (this one included). */
function signersUpTo(signers: SignerRow[], self: SignerRow): SignerRow[] {
  const at = self.signed_at?.getTime() ?? 0;
  return signers.filter(
    (s) => s.id === self.id || (s.status === 'signed' && s.signed_at && s.signed_at.getTime() <= at),
  );
}

/**
 * Produces one signer's copy (job `signer.copy`). Returns 'done', or 'skipped' when there is
 * nothing to do (unknown or unsigned signer, documents already there). Throws on failure.
 */
async function produceSignerCopy(ctx: JobContext, signerId: number): Promise<'done' | 'skipped'> {
  const found = await loadCopyable(ctx, signerId);
  if (!found) return 'skipped';
  const { signer, request } = found;
  const snapshot = request.snapshot as RequestSnapshot;
  const run: SealRun = {
    ctx,
    request,
    snapshot,
    signers: signersUpTo(await loadSigners(ctx.db, request.id), signer),
    sealer: await sealerFor(ctx.config, ctx.deps, String(request.account_id)),
    title: snapshot.template?.name ?? request.template_name ?? `Signature request ${request.id}`,
    testMode: request.environment === 'test',
    base: `requests/${request.account_id}/${request.id}/signers/${signer.id}/${randomUUID()}`,
    stored: [],
  };
  try {
    const { files } = await sealDocuments(run, signer.signed_at ?? ctx.now());
    if (!(await commitCopy(run, signer, files))) {
      await removeStored(run);
      return 'skipped';
    }
    ctx.logger.info({ requestId: request.id, signerId, documents: files.length }, 'signer copy sealed');
    return 'done';
  } catch (err) {
    await removeStored(run);
    throw err;
  }
}

/** The signer's documents, an audit entry and their email, if no copy (or final seal) won first. */
async function commitCopy(run: SealRun, signer: SignerRow, files: ProducedFile[]) {
  const { ctx, request } = run;
  return ctx.db.transaction().execute(async (tx) => {
    const now = ctx.now();
    // Kept as copy_files too: verify finds the copy by its SHA-256 after the final seal.
    const stored = await storeSignerCopy(tx, {
      signerId: signer.id,
      documents: { files } satisfies ProducedFiles,
      now,
    });
    if (stored === undefined) return false;
    await recordAudit(
      tx,
      { accountId: request.account_id, environment: request.environment },
      {
        type: 'signer.copy_sealed',
        by: { kind: 'system' },
        signatureRequestId: request.id,
        signerId: signer.id,
        data: {
          signer_number: signer.position + 1,
          documents: files.map((f) => ({ name: f.name, sha256: f.sha256 })),
        },
        now,
      },
    );
    if (request.send_email && signer.email) await queueCopyMail(tx, run, signer, files, now);
    return true;
  });
}

/** The signer's copy by email, in their language (issue 32). */
async function queueCopyMail(tx: Tx, run: SealRun, signer: SignerRow, files: ProducedFile[], now: Date) {
  const { request, title } = run;

  const { locale } = await readerLocale(tx, { signer, request });
  const brand = (await requestBrand(tx, request))?.name ?? null;
  // The files under names in the signer's language (issue 42.6).
  const links = files.map((f) => ({
    kind: f.kind,
    name: f.name,
    url: signFileLink(
      run.ctx.config,
      { k: f.storage_key, t: 'application/pdf', n: `${downloadName(locale, f, { title, brand })}.pdf` },
      { now, ttlSeconds: COMPLETION_LINK_TTL_SECONDS },
    ),
  }));
  const mail = completionMail({
    locale,
    links,
    until: new Date(now.getTime() + COMPLETION_LINK_TTL_SECONDS * 1000),
    test: request.environment === 'test',
    title,
    greeting: greetingOf(locale, signer.name),
    intro: t(locale, 'mail.copy.lead', { title }),
    subject: ['mail.copy.subject', 'mail.copy.subject_test'],
  });
  await queueRequestMail(
    tx,
    { config: run.ctx.config, request },
    {
      kind: 'signer.copy',
      to: signer.email as string,
      replyTo: request.reply_to,
      ...mail,
      accountId: request.account_id,
      environment: request.environment,
      signerId: signer.id,
    },
  );
}

/** Job `signer.copy` ({ signerId }); a failure is retried by the queue with back-off. */
export const signerCopyJob: JobHandler = async (ctx, payload, job) => {
  const signerId = Number(payload.signerId);
  if (!Number.isInteger(signerId) || signerId <= 0) {
    throw new Error(`signer.copy needs a positive integer signerId, got ${JSON.stringify(payload.signerId)}`);
  }
  try {
    await produceSignerCopy(ctx, signerId);
  } catch (err) {
    const last = job.attempts >= job.max_attempts;
    ctx.deps.metrics?.sealingFailure(SIGNER_COPY_JOB, last);
    ctx.logger[last ? 'error' : 'warn'](
      { err, signerId },
      last ? "signer's copy failed for good" : "signer's copy failed; will be retried",
    );
    throw err;
  }
};

import { createHash, randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { AuditEventsTable, Db, Executor, SignatureRequestRow, SignerRow } from '@esign/db';
import { json } from '@esign/db';
import { effectiveValue } from '@esign/domain';
import {
  type AuditTrailInput,
  buildAuditTrail,
  combineDocuments,
  loadSigningIdentity,
  type SealValue,
  type SigningIdentity,
  sealDocument,
} from '@esign/pdf';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { signFileLink } from './file-links.ts';
import { enqueueJob, type JobContext, type JobHandler } from './jobs.ts';
import { escapeHtml, queueMail } from './mail.ts';
import type { ProducedFile, ProducedFiles, RequestSnapshot, SnapshotField } from './request-model.ts';
import { sha256 } from './storage.ts';

// Sealing (spec: "signed documents and audit trail become available" once a request completes).
// The last signature enqueues `request.seal` in its own transaction; this job draws every value
// into each document, signs it (PAdES), builds and signs the audit trail and the combined file,
// stores them, and then commits the produced files, the signers' copies and the completion emails
// in one transaction. A failing attempt throws (the queue retries with back-off) and leaves its
// reason in signature_requests.sealing_error; the last attempt marks sealing_status = 'failed'.

export const SEAL_JOB = 'request.seal';
/** 5 s doubling (jobRetryDelayMs): the attempts span about 10 minutes before sealing is `failed`. */
export const SEAL_MAX_ATTEMPTS = 8;
/** Links in completion emails stay valid for 30 days; API responses sign fresh links each time. */
export const COMPLETION_LINK_TTL_SECONDS = 30 * 24 * 3600;

const PDF_TYPE = 'application/pdf';

// ---------------------------------------------------------------- signing identity

type IdentityConfig = Pick<Config, 'SIGNING_CERT_P12' | 'SIGNING_CERT_PASSWORD' | 'DATA_DIR'>;
const identities = new Map<string, Promise<SigningIdentity>>();

/**
 * The sealing certificate, loaded once per process (and per configuration): SIGNING_CERT_P12 is a
 * path to a PKCS#12 file when such a file exists, else the PKCS#12 itself in base64; unset, the
 * self-signed identity generated under DATA_DIR/signing is used (created on first use). A failed
 * load is not cached, so the next job retries it.
 */
export function getSigningIdentity(config: IdentityConfig): Promise<SigningIdentity> {
  const key = createHash('sha256')
    .update(
      JSON.stringify([
        config.SIGNING_CERT_P12 ?? null,
        config.SIGNING_CERT_PASSWORD ?? null,
        config.DATA_DIR,
      ]),
    )
    .digest('hex');
  let identity = identities.get(key);
  if (!identity) {
    identity = (async () => {
      const p12 = config.SIGNING_CERT_P12 ? await readP12(config.SIGNING_CERT_P12) : undefined;
      return loadSigningIdentity({ p12, password: config.SIGNING_CERT_PASSWORD, dataDir: config.DATA_DIR });
    })();
    identities.set(key, identity);
    identity.catch(() => identities.delete(key));
  }
  return identity;
}

/** SIGNING_CERT_P12: a path to an existing file, else base64 of the PKCS#12. */
export async function readP12(value: string): Promise<Uint8Array> {
  const isFile = await stat(value).then(
    (s) => s.isFile(),
    () => false,
  );
  if (isFile) return new Uint8Array(await readFile(value));
  const compact = value.replace(/\s+/g, '');
  if (compact.length >= 16 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    return new Uint8Array(Buffer.from(compact, 'base64'));
  }
  throw new Error('SIGNING_CERT_P12 is neither an existing file nor a base64-encoded PKCS#12');
}

// ---------------------------------------------------------------- enqueueing

/**
 * Marks a just-completed request as waiting for its sealed documents and queues the job; call it
 * in the transaction of the last signature. Queueing twice while a job is live is a no-op.
 */
export async function queueSealing(tx: Executor, requestId: number, opts: { runAt?: Date } = {}) {
  await tx
    .updateTable('signature_requests')
    .set({ sealing_status: 'pending', sealing_error: null })
    .where('id', '=', requestId)
    .execute();
  await enqueueSealJob(tx, requestId, opts.runAt);
}

async function enqueueSealJob(db: Executor, requestId: number, runAt?: Date) {
  await enqueueJob(db, {
    kind: SEAL_JOB,
    payload: { requestId },
    runAt,
    maxAttempts: SEAL_MAX_ATTEMPTS,
    uniqueKey: `${SEAL_JOB}:${requestId}`,
  });
}

/**
 * Periodic safety net: completed requests whose sealing is still pending (or was never queued)
 * after `olderThanMinutes`, with no queued or running seal job, get a new job. Returns their ids.
 */
export async function requeueStuckSealing(
  db: Db,
  now: Date,
  opts: { olderThanMinutes?: number; limit?: number } = {},
): Promise<number[]> {
  const cutoff = new Date(now.getTime() - (opts.olderThanMinutes ?? 15) * 60_000);
  const rows = await db
    .selectFrom('signature_requests as r')
    .select('r.id')
    .where('r.status', '=', 'completed')
    .where((eb) => eb.or([eb('r.sealing_status', 'is', null), eb('r.sealing_status', '=', 'pending')]))
    .where('r.completed_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs as j')
            .select(sql`1`.as('one'))
            .where('j.kind', '=', SEAL_JOB)
            .where('j.status', 'in', ['queued', 'running'])
            .whereRef(sql`(j.payload->>'requestId')::int`, '=', 'r.id'),
        ),
      ),
    )
    .orderBy('r.completed_at')
    .limit(opts.limit ?? 100)
    .execute();
  for (const { id } of rows) {
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable('signature_requests')
        .set({ sealing_status: 'pending' })
        .where('id', '=', id)
        .where('sealing_status', 'is', null)
        .execute();
      await enqueueSealJob(tx, id);
    });
  }
  return rows.map((r) => r.id);
}

/** Operator action: a request whose sealing `failed` for good is put back to `pending` and queued. */
export async function retrySealing(db: Db, requestId: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('signature_requests')
      .set({ sealing_status: 'pending', sealing_error: null })
      .where('id', '=', requestId)
      .where('status', '=', 'completed')
      .where((eb) => eb.or([eb('sealing_status', 'is', null), eb('sealing_status', '!=', 'done')]))
      .returning('id')
      .executeTakeFirst();
    if (row) await enqueueSealJob(tx, requestId);
    return !!row;
  });
}

// ---------------------------------------------------------------- values

/** The value a signer gave a field: what they entered, else what the sender prefilled (@esign/domain). */
export { effectiveValue };

/** Which signer fills a field: the one holding its role (the snapshot always names a role). */
function signerFor(field: SnapshotField, signers: SignerRow[]): SignerRow | undefined {
  return signers.find((s) => s.role === field.role);
}

function isFileValue(v: unknown): v is { name: string; type?: string; data?: string } {
  return (
    !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { name?: unknown }).name === 'string'
  );
}

function sealValueOf(type: SnapshotField['type'], value: unknown): SealValue['value'] {
  if (value === null || value === undefined || value === '') return null;
  if (type === 'file') {
    if (isFileValue(value)) return value.name;
    if (Array.isArray(value)) return value.map((v) => (isFileValue(v) ? v.name : String(v)));
    return String(value);
  }
  if (type === 'multiple') return Array.isArray(value) ? value.map(String) : [String(value)];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(String);
  return JSON.stringify(value);
}

/** The values drawn into one snapshot document: every field with a value, in its areas there. */
export function sealValuesFor(
  snapshot: RequestSnapshot,
  documentIndex: number,
  signers: SignerRow[],
): SealValue[] {
  const out: SealValue[] = [];
  for (const field of snapshot.fields) {
    const areas = field.areas
      .filter((a) => (a.document ?? 0) === documentIndex)
      .map(({ page, x, y, w, h }) => ({ page, x, y, w, h }));
    if (areas.length === 0) continue;
    const signer = signerFor(field, signers);
    if (!signer) continue;
    const value = sealValueOf(field.type, effectiveValue(signer, field.name));
    if (value === null) continue;
    out.push({ type: field.type, areas, value });
  }
  return out;
}

/** A value as the audit trail shows it: pictures stay data URIs, files become name, size and hash. */
function auditValue(value: unknown): unknown {
  if (isFileValue(value)) {
    const data = typeof value.data === 'string' ? value.data.replace(/^data:[^,]*,/, '') : '';
    const bytes = Buffer.from(data, 'base64');
    const about = [value.type, `${bytes.length} bytes`, `SHA-256 ${sha256(bytes)}`]
      .filter(Boolean)
      .join(', ');
    return `${value.name} (${about})`;
  }
  if (Array.isArray(value)) return value.map((v) => (isFileValue(v) ? auditValue(v) : v));
  return value;
}

// ---------------------------------------------------------------- audit trail events

type AuditEventRow = Selectable<AuditEventsTable>;

function signerLabel(s: SignerRow | undefined): string {
  if (!s) return 'signer';
  return s.name ?? s.email ?? s.phone ?? `signer #${s.id}`;
}

function dataSummary(data: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(data ?? {})) {
    if (v === null || v === undefined) continue;
    let text: string;
    if (typeof v === 'string') text = v.startsWith('data:') ? '[image]' : v;
    else if (typeof v === 'number' || typeof v === 'boolean') text = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) text = v.join(', ');
    else continue;
    parts.push(`${k}: ${text.length > 200 ? `${text.slice(0, 199)}…` : text}`);
  }
  return parts.join('; ');
}

function eventDetail(e: AuditEventRow, signers: Map<number, SignerRow>): string {
  const who = e.signer_id
    ? signerLabel(signers.get(e.signer_id))
    : e.api_key_id
      ? `${e.actor_type} (API key #${e.api_key_id})`
      : e.actor_type;
  return [who, e.ip ? `IP ${e.ip}` : null, e.user_agent, dataSummary(e.data)].filter(Boolean).join(' · ');
}

// ---------------------------------------------------------------- the job

const slug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'document';

/**
 * Seals one completed request (the body of job `request.seal`). Returns 'done', or 'skipped' when
 * there is nothing to do (unknown request, not completed, already sealed). Throws on failure.
 */
export async function sealSignatureRequest(ctx: JobContext, requestId: number): Promise<'done' | 'skipped'> {
  const { db, deps, logger } = ctx;
  const request = await db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', requestId)
    .executeTakeFirst();
  if (!request) {
    logger.warn({ requestId }, 'sealing skipped: signature request not found');
    return 'skipped';
  }
  if (request.status !== 'completed') {
    logger.warn({ requestId, status: request.status }, 'sealing skipped: request is not completed');
    return 'skipped';
  }
  if (request.sealing_status === 'done') return 'skipped';

  const started = Date.now();
  const snapshot = request.snapshot as RequestSnapshot;
  const signers = await db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const events = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .orderBy('id')
    .execute();
  const identity = await getSigningIdentity(ctx.config);
  const testMode = request.environment === 'test';
  const sealedAt = ctx.now();
  const title = snapshot.template?.name ?? request.template_name ?? `Signature request ${requestId}`;
  const base = `requests/${request.account_id}/${requestId}/${randomUUID()}`;
  const stored: string[] = [];
  const put = async (key: string, bytes: Uint8Array) => {
    await deps.storage.put(key, bytes, PDF_TYPE);
    stored.push(key);
  };

  try {
    const documents = [...snapshot.documents].sort((a, b) => a.index - b.index);
    const sealed: Uint8Array[] = [];
    const files: ProducedFile[] = [];
    const trailDocs: AuditTrailInput['documents'] = [];
    for (const doc of documents) {
      const original = await deps.storage.get(doc.storage_key);
      const originalSha = sha256(original);
      if (doc.sha256 && originalSha !== doc.sha256) {
        throw new Error(
          `document ${doc.index} (${doc.name}): the stored original's SHA-256 ${originalSha} is not the one sent (${doc.sha256})`,
        );
      }
      const bytes = await sealDocument({
        pdf: original,
        values: sealValuesFor(snapshot, doc.index, signers),
        identity,
        name: doc.name,
        testMark: testMode,
        signedAt: sealedAt,
      });
      const key = `${base}/document-${doc.index + 1}-${slug(doc.name)}.pdf`;
      await put(key, bytes);
      const sealedSha = sha256(bytes);
      sealed.push(bytes);
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
        originalSha256: originalSha,
        sealedSha256: sealedSha,
      });
    }

    const byId = new Map(signers.map((s) => [s.id, s]));
    const trail = await buildAuditTrail(
      {
        requestId,
        title,
        createdAt: request.created_at,
        completedAt: request.completed_at,
        documents: trailDocs,
        signers: signers.map((s) => ({
          id: s.id,
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
          values: snapshot.fields
            .filter((f) => signerFor(f, signers)?.id === s.id)
            .map((f) => ({ field: f.name, value: auditValue(effectiveValue(s, f.name)) })),
        })),
        events: events.map((e) => ({ at: e.created_at, type: e.type, detail: eventDetail(e, byId) })),
        testMode,
      },
      identity,
    );
    const trailKey = `${base}/audit-trail.pdf`;
    await put(trailKey, trail);
    const combined = await combineDocuments([...sealed, trail], identity, title);
    const combinedKey = `${base}/combined.pdf`;
    await put(combinedKey, combined);

    const documentFiles = files.slice();
    files.push(
      { kind: 'audit_trail', name: `${title} - audit trail`, storage_key: trailKey, sha256: sha256(trail) },
      { kind: 'combined', name: `${title} - signed`, storage_key: combinedKey, sha256: sha256(combined) },
    );

    const committed = await db.transaction().execute(async (tx) => {
      const locked = await tx
        .selectFrom('signature_requests')
        .select(['sealing_status', 'status'])
        .where('id', '=', requestId)
        .forUpdate()
        .executeTakeFirst();
      if (!locked || locked.sealing_status === 'done' || locked.status !== 'completed') return false;
      const now = ctx.now();
      await tx
        .updateTable('signature_requests')
        .set({
          documents: json({ files } satisfies ProducedFiles),
          audit_trail_storage_key: trailKey,
          combined_storage_key: combinedKey,
          sealing_status: 'done',
          sealing_error: null,
          updated_at: now,
        })
        .where('id', '=', requestId)
        .execute();
      await tx
        .updateTable('signers')
        .set({ documents: json({ files: documentFiles } satisfies ProducedFiles), updated_at: now })
        .where('signature_request_id', '=', requestId)
        .where('status', '=', 'signed')
        .execute();
      await tx
        .insertInto('audit_events')
        .values({
          account_id: request.account_id,
          environment: request.environment,
          signature_request_id: requestId,
          type: 'signature_request.sealed',
          actor_type: 'system',
          data: json({
            certificate_sha256: identity.fingerprintSha256,
            documents: files.map((f) => ({ kind: f.kind, name: f.name, sha256: f.sha256 })),
          }),
          created_at: now,
        })
        .execute();
      await queueCompletionMails(tx, ctx.config, request, signers, files, title, now);
      return true;
    });
    if (!committed) {
      // Another attempt sealed it first (or the request changed): keep only what was committed.
      await removeAll(deps.storage, stored);
      logger.info({ requestId }, 'sealing skipped: already sealed by another attempt');
      return 'skipped';
    }
    logger.info(
      { requestId, documents: documentFiles.length, ms: Date.now() - started },
      'signature request sealed',
    );
    return 'done';
  } catch (err) {
    await removeAll(deps.storage, stored);
    throw err;
  }
}

async function removeAll(storage: JobContext['deps']['storage'], keys: string[]) {
  await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
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
    const message = err instanceof Error ? err.message : String(err);
    await ctx.db
      .updateTable('signature_requests')
      .set({
        sealing_error: `attempt ${job.attempts} of ${job.max_attempts}: ${message}`.slice(0, 2000),
        ...(last ? { sealing_status: 'failed' as const } : {}),
      })
      .where('id', '=', requestId)
      .where((eb) => eb.or([eb('sealing_status', 'is', null), eb('sealing_status', '!=', 'done')]))
      .execute();
    ctx.logger[last ? 'error' : 'warn'](
      { err, requestId },
      last ? 'sealing failed for good' : 'sealing failed; will be retried',
    );
    throw err;
  }
};

// ---------------------------------------------------------------- completion emails

async function queueCompletionMails(
  tx: Executor,
  config: Config,
  request: SignatureRequestRow,
  signers: SignerRow[],
  files: ProducedFile[],
  title: string,
  now: Date,
) {
  const links = files.map((f) => ({
    kind: f.kind,
    label:
      f.kind === 'audit_trail' ? 'Audit trail' : f.kind === 'combined' ? 'Everything in one file' : f.name,
    url: signFileLink(
      config,
      { k: f.storage_key, t: PDF_TYPE, n: `${f.name}.pdf` },
      now,
      COMPLETION_LINK_TTL_SECONDS,
    ),
  }));
  const until = new Date(now.getTime() + COMPLETION_LINK_TTL_SECONDS * 1000).toISOString().slice(0, 10);
  const test = request.environment === 'test';
  const subject = `${test ? '[Test] ' : ''}Completed: ${title}`;
  const linkText = links.map((l) => `${l.label}: ${l.url}`).join('\n');
  const linkHtml = links
    .map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.label)}</a></li>`)
    .join('');
  const testNote = test ? '\nThis was sent in test mode: the documents are not legally binding.\n' : '';
  const body = (greeting: string, intro: string) => ({
    text: `${greeting}\n\n${intro}\n\n${linkText}\n\nThese links work until ${until}.\n${testNote}`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><ul>${linkHtml}</ul><p>These links work until ${until}.</p>${
      test ? '<p>This was sent in test mode: the documents are not legally binding.</p>' : ''
    }`,
  });

  const sent = new Set<string>();
  // send_email false: the sender handles signer communication itself, so signers get no email.
  if (request.send_email) {
    for (const s of signers) {
      if (!s.email || sent.has(s.email.toLowerCase())) continue;
      sent.add(s.email.toLowerCase());
      await queueMail(tx, {
        kind: 'request.completed',
        to: s.email,
        replyTo: request.reply_to,
        subject,
        ...body(
          `Hello${s.name ? ` ${s.name}` : ''},`,
          `Everyone has signed "${title}". Your signed copy and the audit trail are ready to download:`,
        ),
        accountId: request.account_id,
        environment: request.environment,
        signerId: s.id,
      });
    }
  }
  if (request.created_by_user_id) {
    const user = await tx
      .selectFrom('users')
      .select(['email', 'name'])
      .where('id', '=', request.created_by_user_id)
      .executeTakeFirst();
    if (user && !sent.has(user.email.toLowerCase())) {
      await queueMail(tx, {
        kind: 'request.completed',
        to: user.email,
        subject,
        ...body(
          `Hello${user.name ? ` ${user.name}` : ''},`,
          `Signature request #${request.id} "${title}" is completed: every signer has signed. The sealed documents and the audit trail:`,
        ),
        accountId: request.account_id,
        environment: request.environment,
      });
    }
  }
}

// ---------------------------------------------------------------- API helpers

export interface FileRefDto {
  name: string;
  url: string;
}

export interface ProducedDocumentsDto {
  /** The sealed documents; empty until sealing is done. */
  documents: FileRefDto[];
  audit_trail_url: string | null;
  combined_document_url: string | null;
}

/** Reads signature_requests.documents / signers.documents defensively: a list of produced files. */
export function producedFiles(value: unknown): ProducedFile[] {
  const files = (value as ProducedFiles | null)?.files;
  return Array.isArray(files)
    ? files.filter((f) => f && typeof f.storage_key === 'string' && typeof f.name === 'string')
    : [];
}

const fileRef = (config: Config, f: ProducedFile, now: Date, ttl?: number): FileRefDto => ({
  name: f.name,
  url: signFileLink(config, { k: f.storage_key, t: PDF_TYPE, n: `${f.name}.pdf` }, now, ttl),
});

/**
 * The Signature request's `documents`, `audit_trail_url` and `combined_document_url`, as signed
 * links, from signature_requests.documents. Until sealing is done: `[]`, null, null.
 */
export function producedDocumentsDto(
  config: Config,
  request: Pick<SignatureRequestRow, 'documents'>,
  now: Date,
  ttlSeconds?: number,
): ProducedDocumentsDto {
  const files = producedFiles(request.documents);
  const one = (kind: ProducedFile['kind']) => {
    const f = files.find((x) => x.kind === kind);
    return f ? fileRef(config, f, now, ttlSeconds).url : null;
  };
  return {
    documents: files.filter((f) => f.kind === 'document').map((f) => fileRef(config, f, now, ttlSeconds)),
    audit_trail_url: one('audit_trail'),
    combined_document_url: one('combined'),
  };
}

/** A signer's `documents` (their signed copies) as signed links; undefined until they exist. */
export function signerDocumentsDto(
  config: Config,
  signer: Pick<SignerRow, 'documents'>,
  now: Date,
  ttlSeconds?: number,
): FileRefDto[] | undefined {
  const files = producedFiles(signer.documents).filter((f) => f.kind === 'document');
  return files.length ? files.map((f) => fileRef(config, f, now, ttlSeconds)) : undefined;
}

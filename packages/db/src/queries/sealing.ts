import { sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { Environment, SignatureRequestRow, SignerRow } from '../schema.ts';

// Sealing (core's services/sealing/*, sealing-failures.ts and verify.ts): the state of a request's
// sealing, the produced files it commits, the signers' own copies, and the look-up of a produced
// file by its SHA-256. No decisions here: the services decide when a request is sealable.

export type SealingStatus = SignatureRequestRow['sealing_status'];

/** The whole request row (the seal job and the signer's copy work from its snapshot). */
export function findRequestForSealing(
  db: Executor,
  requestId: number,
): Promise<SignatureRequestRow | undefined> {
  return db.selectFrom('signature_requests').selectAll().where('id', '=', requestId).executeTakeFirst();
}

/** The whole signer row, for their own copy. */
export function findSignerForCopy(db: Executor, signerId: number): Promise<SignerRow | undefined> {
  return db.selectFrom('signers').selectAll().where('id', '=', signerId).executeTakeFirst();
}

/** The request's status and sealing state, locked until the transaction ends. */
export function lockSealingState(tx: Tx, requestId: number) {
  return tx
    .selectFrom('signature_requests')
    .select(['sealing_status', 'status'])
    .where('id', '=', requestId)
    .forUpdate()
    .executeTakeFirst();
}

export interface SealedFilesUpdate {
  requestId: number;
  /** `{ files }` as stored in signature_requests.documents. */
  documents: unknown;
  trailKey: string;
  combinedKey: string | null;
  now: Date;
}

/** The produced files committed: the request is sealed. */
export async function markRequestSealed(tx: Executor, u: SealedFilesUpdate): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({
      documents: json(u.documents),
      audit_trail_storage_key: u.trailKey,
      combined_storage_key: u.combinedKey,
      sealing_status: 'done',
      sealing_error: null,
      updated_at: u.now,
    })
    .where('id', '=', u.requestId)
    .execute();
}

/** Every signer who signed gets the final documents (`{ files }`) as their `documents`. */
export async function setSignedSignersDocuments(
  tx: Executor,
  opts: { requestId: number; documents: unknown; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ documents: json(opts.documents), updated_at: opts.now })
    .where('signature_request_id', '=', opts.requestId)
    .where('status', '=', 'signed')
    .execute();
}

/**
 * The signer's own copy (`{ files }`) as their `documents` and, for good, as `copy_files` (what
 * verify finds it by), unless they have documents already. The signer's id, or undefined.
 */
export async function storeSignerCopy(
  tx: Executor,
  opts: { signerId: number; documents: unknown; now: Date },
): Promise<number | undefined> {
  const files = json(opts.documents);
  const row = await tx
    .updateTable('signers')
    .set({ documents: files, copy_files: files, updated_at: opts.now })
    .where('id', '=', opts.signerId)
    .where('documents', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The failed attempt's reason, and `failed` on the last one, unless the request is sealed. */
export async function recordSealingError(
  db: Executor,
  opts: { requestId: number; error: string; failed: boolean },
): Promise<void> {
  await db
    .updateTable('signature_requests')
    .set({ sealing_error: opts.error, ...(opts.failed ? { sealing_status: 'failed' as const } : {}) })
    .where('id', '=', opts.requestId)
    .where((eb) => eb.or([eb('sealing_status', 'is', null), eb('sealing_status', '!=', 'done')]))
    .execute();
}

/** Sealing is pending (a just-completed request, or one queued again). */
export async function markSealingPending(tx: Executor, requestId: number): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({ sealing_status: 'pending', sealing_error: null })
    .where('id', '=', requestId)
    .execute();
}

/**
 * Completed requests whose sealing is pending or was never queued, completed before `cutoff`,
 * with no queued or running job of `jobKind` for them; oldest first.
 */
export async function listStuckSealing(
  db: Executor,
  opts: { cutoff: Date; jobKind: string; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('signature_requests as r')
    .select('r.id')
    .where('r.status', '=', 'completed')
    .where((eb) => eb.or([eb('r.sealing_status', 'is', null), eb('r.sealing_status', '=', 'pending')]))
    .where('r.completed_at', '<', opts.cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs as j')
            .select(sql`1`.as('one'))
            .where('j.kind', '=', opts.jobKind)
            .where('j.status', 'in', ['queued', 'running'])
            .whereRef(sql`(j.payload->>'requestId')::int`, '=', 'r.id'),
        ),
      ),
    )
    .orderBy('r.completed_at')
    .limit(opts.limit)
    .execute();
  return rows.map((r) => r.id);
}

/** `pending` for a request whose sealing was never queued (null), and nothing else. */
export async function markUnqueuedSealingPending(tx: Executor, requestId: number): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({ sealing_status: 'pending' })
    .where('id', '=', requestId)
    .where('sealing_status', 'is', null)
    .execute();
}

/** A completed, unsealed request back to `pending`; its id, or undefined when it is not such. */
export async function resetUnsealedToPending(tx: Executor, requestId: number): Promise<number | undefined> {
  const row = await tx
    .updateTable('signature_requests')
    .set({ sealing_status: 'pending', sealing_error: null })
    .where('id', '=', requestId)
    .where('status', '=', 'completed')
    .where((eb) => eb.or([eb('sealing_status', 'is', null), eb('sealing_status', '!=', 'done')]))
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** What the give-up report and `esign sealing retry` look at. */
export function findSealingState(db: Executor, requestId: number) {
  return db
    .selectFrom('signature_requests')
    .select(['id', 'account_id', 'environment', 'status', 'sealing_status', 'sealing_error'])
    .where('id', '=', requestId)
    .executeTakeFirst();
}

/** Completed requests whose sealing gave up, oldest first. */
export function listFailedSealingRows(db: Executor, limit: number) {
  return db
    .selectFrom('signature_requests')
    .select(['id', 'account_id', 'environment', 'template_name', 'completed_at', 'sealing_error'])
    .where('status', '=', 'completed')
    .where('sealing_status', '=', 'failed')
    .orderBy('completed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The request creator's address and name, for the completion email. */
export function findUserContact(db: Executor, userId: number) {
  return db.selectFrom('users').select(['email', 'name']).where('id', '=', userId).executeTakeFirst();
}

// ---------------------------------------------------------------- verify: produced files by hash

/** The containment pattern of one file's SHA-256 in a `{ files: [...] }` column. */
const fileWithHash = (hash: string) => sql<boolean>`${json({ files: [{ sha256: hash }] })}::jsonb`;

export interface ProducedRequestRow {
  id: number;
  account_id: number;
  environment: Environment;
  documents: unknown;
  /** Issue 44: what names the request's brand (the verify page shows it). */
  brand_id: number | null;
  template_id: number | null;
}

/** Requests whose produced files include this SHA-256 (GIN index), oldest first, 20 at most. */
export function findRequestsByFileHash(db: Executor, hash: string): Promise<ProducedRequestRow[]> {
  return db
    .selectFrom('signature_requests')
    .select(['id', 'account_id', 'environment', 'documents', 'brand_id', 'template_id'])
    .where(sql<boolean>`documents @> ${fileWithHash(hash)}`)
    .orderBy('id')
    .limit(20)
    .execute();
}

export interface SignerCopyRow {
  signer_id: number;
  position: number;
  signature_request_id: number;
  account_id: number;
  environment: Environment;
  copy_files: unknown;
  /** The request's sealing state: `done` once the final documents exist. */
  sealing_status: SealingStatus;
}

/** Signers' own copies that include a file with this SHA-256 (GIN index), oldest first, 20 at most. */
export function findSignerCopiesByFileHash(db: Executor, hash: string): Promise<SignerCopyRow[]> {
  return db
    .selectFrom('signers as s')
    .innerJoin('signature_requests as r', 'r.id', 's.signature_request_id')
    .select([
      's.id as signer_id',
      's.position',
      's.signature_request_id',
      's.account_id',
      's.environment',
      's.copy_files',
      'r.sealing_status',
    ])
    .where(sql<boolean>`s.copy_files @> ${fileWithHash(hash)}`)
    .orderBy('s.id')
    .limit(20)
    .execute();
}

/** A request's produced files (`{ files }`), for a short link to one of them, with what names them. */
export function findRequestFiles(db: Executor, id: number) {
  return db
    .selectFrom('signature_requests')
    .select(['id', 'documents', 'account_id', 'environment', 'brand_id', 'template_id', 'locale', 'snapshot'])
    .where('id', '=', id)
    .executeTakeFirst();
}

import { type Insertable, sql } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { Database } from '../schema.ts';
import type { BulkRowStatus, BulkSendRow, BulkSendStatus } from '../schema-send-sources.ts';
import type { Scope } from '../scope.ts';
import { insertInChunks } from './chunks.ts';

// Bulk sends: one batch per upload, one row per request; the worker claims pending rows in chunks
// and marks them sent in the transaction that writes their requests.

export type BulkSendInsert = Insertable<Database['bulk_sends']>;
export type BulkSendRowInsert = Insertable<Database['bulk_send_rows']>;

/** The batch, or undefined outside this account side. */
export async function findBulkSend(db: Executor, scope: Scope, id: number): Promise<BulkSendRow | undefined> {
  return db
    .selectFrom('bulk_sends')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

/** The batch by id alone (the worker's job names it). */
export async function findBulkSendById(db: Executor, id: number): Promise<BulkSendRow | undefined> {
  return db.selectFrom('bulk_sends').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Writes the batch unless this account side already has one with its key; returns the new id, or
 * undefined when the key was taken (by a concurrent upload too: the unique key decides).
 */
export async function insertBulkSend(tx: Tx, row: BulkSendInsert): Promise<number | undefined> {
  const inserted = await tx
    .insertInto('bulk_sends')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'environment', 'key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

/** The id of this account side's batch with that key. */
export async function findBulkSendIdByKey(
  db: Executor,
  scope: Scope,
  key: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('bulk_sends')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.id;
}

/** Writes a batch's rows (as many statements as the parameter limit needs). */
export async function insertBulkSendRows(tx: Tx, rows: BulkSendRowInsert[]): Promise<void> {
  await insertInChunks(rows, 8, async (chunk) => {
    await tx.insertInto('bulk_send_rows').values(chunk).execute();
    return [];
  });
}

/** Sets the batch's status (and what goes with it). */
export async function updateBulkSend(
  db: Executor,
  id: number,
  set: { status: BulkSendStatus; stop_reason?: string | null; finished_at?: Date; updated_at: Date },
): Promise<void> {
  await db.updateTable('bulk_sends').set(set).where('id', '=', id).execute();
}

/** The batch's rows counted by status. */
export async function countBulkSendRows(
  db: Executor,
  id: number,
): Promise<{ status: BulkRowStatus; n: number }[]> {
  return db
    .selectFrom('bulk_send_rows')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('bulk_send_id', '=', id)
    .groupBy('status')
    .execute();
}

/** The batch's template's id and name. */
export async function findBulkSendTemplate(
  db: Executor,
  templateId: number,
): Promise<{ id: number; name: string }> {
  return db
    .selectFrom('templates')
    .select(['id', 'name'])
    .where('id', '=', templateId)
    .executeTakeFirstOrThrow();
}

/** Every row's outcome, in file order. */
export async function listBulkSendRows(db: Executor, id: number) {
  return db
    .selectFrom('bulk_send_rows')
    .select(['row_number', 'status', 'signers', 'error_code', 'error_message', 'signature_request_id'])
    .where('bulk_send_id', '=', id)
    .orderBy('row_number')
    .execute();
}

export interface PendingBulkRow {
  row_number: number;
  signers: unknown[];
}

/**
 * Up to `limit` pending rows in file order, locked until the transaction ends; rows another
 * worker holds are skipped, so two workers on one batch never claim the same row.
 */
export async function claimPendingBulkRows(
  tx: Tx,
  batchId: number,
  limit: number,
): Promise<PendingBulkRow[]> {
  return tx
    .selectFrom('bulk_send_rows')
    .select(['row_number', 'signers'])
    .where('bulk_send_id', '=', batchId)
    .where('status', '=', 'pending')
    .orderBy('row_number')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Whether the batch has pending rows (locked by a worker or not). */
export async function hasPendingBulkRows(db: Executor, batchId: number): Promise<boolean> {
  const row = await db
    .selectFrom('bulk_send_rows')
    .select('row_number')
    .where('bulk_send_id', '=', batchId)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks claimed rows sent, each with its request: one statement. */
export async function markBulkRowsSent(
  tx: Tx,
  batchId: number,
  o: { sent: { rowNumber: number; requestId: number }[]; now: Date },
): Promise<void> {
  if (o.sent.length === 0) return;
  await sql`update bulk_send_rows r
    set status = 'sent', signature_request_id = v.request_id, error_code = null, error_message = null,
      updated_at = ${o.now}
    from unnest(${sql.val(o.sent.map((s) => s.rowNumber))}::int[], ${sql.val(o.sent.map((s) => s.requestId))}::int[])
      as v(row_number, request_id)
    where r.bulk_send_id = ${batchId} and r.row_number = v.row_number and r.status = 'pending'`.execute(tx);
}

/** Marks claimed rows failed with the error each met: one statement. */
export async function markBulkRowsFailed(
  tx: Tx,
  batchId: number,
  o: { failed: { rowNumber: number; code: string; message: string }[]; now: Date },
): Promise<void> {
  if (o.failed.length === 0) return;
  await sql`update bulk_send_rows r
    set status = 'failed', error_code = v.code, error_message = v.message, updated_at = ${o.now}
    from unnest(${sql.val(o.failed.map((f) => f.rowNumber))}::int[], ${sql.val(o.failed.map((f) => f.code))}::text[],
      ${sql.val(o.failed.map((f) => f.message))}::text[]) as v(row_number, code, message)
    where r.bulk_send_id = ${batchId} and r.row_number = v.row_number and r.status = 'pending'`.execute(tx);
}

import type { BulkSendRow, Tx } from '@esign/db';
import type { Actor } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { actingUser } from '../acting-user.ts';
import type { JobHandler } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
import { insertSignatureRequest } from '../signature-requests/create.ts';
import type { BulkOptions } from './batches.ts';
import type { BulkMapping } from './mapping.ts';

// The worker's side of a bulk send: every pending row becomes one request (source `bulk`) in its
// own transaction, and the row is marked sent in that same transaction, under a row lock. A row
// is therefore sent exactly once, however often the job runs or how many workers run it.

const CHUNK = 100;

/** Errors that would refuse every later row too: the batch stops, the rest stay pending. */
const STOPPING = new Set([
  'insufficient_credits',
  'template_archived',
  'template_has_no_fields',
  'not_found',
]);

class AlreadySent extends Error {}

function markSent(batchId: number, rowNumber: number, now: Date) {
  return async (tx: Tx, request: { id: number }) => {
    const row = await tx
      .selectFrom('bulk_send_rows')
      .select('status')
      .where('bulk_send_id', '=', batchId)
      .where('row_number', '=', rowNumber)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.status !== 'pending') throw new AlreadySent();
    await tx
      .updateTable('bulk_send_rows')
      .set({
        status: 'sent',
        signature_request_id: request.id,
        error_code: null,
        error_message: null,
        updated_at: now,
      })
      .where('bulk_send_id', '=', batchId)
      .where('row_number', '=', rowNumber)
      .execute();
  };
}

async function setRow(sc: ServiceContext, batchId: number, rowNumber: number, err: CoreError) {
  await sc.db
    .updateTable('bulk_send_rows')
    .set({ status: 'failed', error_code: err.code, error_message: err.message, updated_at: sc.now() })
    .where('bulk_send_id', '=', batchId)
    .where('row_number', '=', rowNumber)
    .where('status', '=', 'pending')
    .execute();
}

async function finish(sc: ServiceContext, batchId: number, stop: CoreError | null) {
  const now = sc.now();
  await sc.db
    .updateTable('bulk_sends')
    .set(
      stop
        ? { status: 'stopped', stop_reason: `${stop.code}: ${stop.message}`, updated_at: now }
        : { status: 'completed', finished_at: now, updated_at: now },
    )
    .where('id', '=', batchId)
    .execute();
}

/** Sends one row; returns the error that stops the batch, if this row met one. */
async function sendRow(
  sc: ServiceContext,
  actor: Actor,
  batch: BulkSendRow,
  row: { row_number: number; signers: unknown[] },
) {
  const options = batch.options as unknown as BulkOptions & { mapping: BulkMapping };
  try {
    await insertSignatureRequest(
      sc,
      actor,
      {
        template_id: batch.template_id,
        signers: row.signers as never,
        signing_order: options.signing_order,
        send_email: options.send_email,
        ...(options.message ? { message: options.message } : {}),
        ...(options.expires_at ? { expires_at: options.expires_at } : {}),
        require_email_otp: false,
        embed: false,
      },
      { source: 'bulk', within: markSent(batch.id, row.row_number, sc.now()) },
    );
    return null;
  } catch (err) {
    if (err instanceof AlreadySent) return null;
    if (!(err instanceof CoreError) || err.code === 'internal_error') throw err;
    if (STOPPING.has(err.code)) return err;
    await setRow(sc, batch.id, row.row_number, err);
    return null;
  }
}

/**
 * Sends a batch's pending rows in file order (at most `maxRows` of them when given: tests and
 * benchmarks step through a batch). Stops cleanly at the first row refused for want of credits.
 */
export async function processBulkSend(sc: ServiceContext, batchId: number, opts: { maxRows?: number } = {}) {
  const batch = await sc.db.selectFrom('bulk_sends').selectAll().where('id', '=', batchId).executeTakeFirst();
  if (!batch || batch.status === 'completed' || batch.status === 'stopped') return;
  await sc.db
    .updateTable('bulk_sends')
    .set({ status: 'running', updated_at: sc.now() })
    .where('id', '=', batchId)
    .execute();
  const scope = { accountId: batch.account_id, environment: batch.environment };
  const actor = await actingUser(sc.db, scope, {
    userId: batch.created_by_user_id!,
    apiKeyId: batch.api_key_id,
  });
  let budget = opts.maxRows ?? Number.POSITIVE_INFINITY;
  while (budget > 0) {
    const rows = await sc.db
      .selectFrom('bulk_send_rows')
      .select(['row_number', 'signers'])
      .where('bulk_send_id', '=', batchId)
      .where('status', '=', 'pending')
      .orderBy('row_number')
      .limit(Math.min(CHUNK, budget))
      .execute();
    if (!rows.length) return finish(sc, batchId, null);
    for (const row of rows) {
      const stop = await sendRow(sc, actor, batch, row);
      if (stop) return finish(sc, batchId, stop);
      budget -= 1;
    }
  }
}

export const bulkSendJob: JobHandler = async (ctx, payload) => {
  await processBulkSend(ctx, Number(payload.id));
};
